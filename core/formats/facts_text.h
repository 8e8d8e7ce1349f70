// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/system_facts.h"

#include <string>

namespace iolab {

// The facts as plain text, a section heading and then a line per fact ("  I/O scheduler   mq-deadline";
// "  Model   unknown: the device gives no model in sysfs"), each line starting with `indent`. The CLI's
// `targets --details` and `report --text` print it.
std::string factsToText(const SystemFacts& facts, const std::string& indent = "  ");

} // namespace iolab
