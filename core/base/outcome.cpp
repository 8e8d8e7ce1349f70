// SPDX-License-Identifier: MIT
#include "core/base/outcome.h"

#include "core/base/error.h"

#include <fmt/format.h>

namespace iolab {

std::string toString(Status status)
{
    switch (status) {
    case Status::Ok:
        return "ok";
    case Status::Failed:
        return "failed";
    case Status::Unsupported:
        return "unsupported";
    case Status::Cancelled:
        return "cancelled";
    case Status::Refused:
        return "refused";
    }
    return "?";
}

Status parseStatus(std::string_view text)
{
    for (auto s : {Status::Ok, Status::Failed, Status::Unsupported, Status::Cancelled, Status::Refused}) {
        if (toString(s) == text)
            return s;
    }
    throw InputError(fmt::format("unknown status '{}'", text));
}

} // namespace iolab
