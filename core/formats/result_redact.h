// SPDX-License-Identifier: MIT
// A result made fit to leave the machine (iolab-cli run --redact, iolab report --redact, the app's Export for
// sharing): a support engineer can send a customer's result to a vendor or post it in a public tracker. What
// names someone is replaced, everywhere it appears (the facts, the cases, the C programs, the advice, the
// warnings), each value by a stable placeholder, the same value by the same one throughout:
// - the host's name: host-1;
// - the target's path, and the recorded traces' and loop devices' backing files: path-1, path-2, ...;
// - the user name in a home folder (/home/NAME, /Users/NAME, C:\Users\NAME): user-1, ...;
// - serial numbers, WWNs and UUIDs among the facts: serial-1, ...;
// - MAC addresses: mac-1, ...
// Every figure is kept, and the result says at the top that it was redacted (RunResult::redacted and the
// first of its warnings).
#pragma once

#include "core/model/result.h"

namespace iolab {

// The sentence a redacted result carries first among its warnings.
inline constexpr const char* kRedactedNotice =
    "Redacted for sharing: the host name, the paths, user names, serial numbers and MAC addresses are "
    "replaced by placeholders (host-1, path-1, user-1, serial-1, mac-1; the same value by the same one "
    "throughout); every figure is as measured.";

RunResult redactResult(const RunResult& result);

} // namespace iolab
