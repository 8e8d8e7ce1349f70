// SPDX-License-Identifier: MIT
// Whether a block device can complete io_uring's polled requests (IORING_SETUP_IOPOLL, fio's hipri): only a
// device with poll queues can, read from sysfs under `root` ("" for this machine, a recorded tree in tests).
#pragma once

#include <optional>
#include <string>

namespace iolab::linux_backend {

// Why IOPOLL cannot work on `device` (its kernel name, "vda" or a partition "nvme0n1p2"), with what would
// give the device poll queues; nullopt when its queue says it polls (queue/io_poll is 1).
std::optional<std::string> pollQueueProblem(const std::string& root, const std::string& device);

} // namespace iolab::linux_backend
