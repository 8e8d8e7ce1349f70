// SPDX-License-Identifier: MIT
// How a repetition, or one step of it, ended. Results, strategies and front ends all speak it; it lives apart
// from the strategy interface so that reading a result does not pull in the engine.
#pragma once

#include <string>
#include <string_view>

namespace iolab {

enum class Status
{
    Ok,
    Failed,
    Unsupported,
    Cancelled,
    Refused
};

std::string toString(Status status);
Status parseStatus(std::string_view text);

// What a repetition (or one step of it) ended with. For failures: the OS error number, its text, the call
// that failed and the path it failed on, the way fio's td_verror records them.
struct Outcome
{
    Status status = Status::Ok;
    int errorCode = 0;
    std::string operation; // "write", "open(O_DIRECT)", "fsync"...
    std::string message;   // one sentence for the user

    bool ok() const noexcept { return status == Status::Ok; }
    static Outcome success() { return {}; }
    static Outcome cancelled() { return {Status::Cancelled, 0, {}, "cancelled"}; }

    friend bool operator==(const Outcome&, const Outcome&) = default;
};

} // namespace iolab
