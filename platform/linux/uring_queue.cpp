// SPDX-License-Identifier: MIT
#include "platform/linux/uring_queue.h"

#include <fmt/format.h>

#include <array>
#include <bit>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sys/resource.h>

namespace iolab::linux_backend {

std::uint32_t ringEntries(std::uint32_t queueDepth) noexcept
{
    return std::bit_ceil(std::max<std::uint32_t>(1, queueDepth));
}

std::optional<int> ioUringDisabledSetting()
{
    std::ifstream in("/proc/sys/kernel/io_uring_disabled");
    int value = 0;
    if (!(in >> value))
        return std::nullopt;
    return value;
}

std::string ringSetupProblem(int error, std::uint32_t entries, std::optional<int> disabledSetting,
                             RingSetup setup)
{
    if ((error == EPERM || error == ENOSYS) && disabledSetting == 2)
        return "io_uring is disabled on this machine (/proc/sys/kernel/io_uring_disabled = 2)";
    if (error == EPERM && disabledSetting == 1)
        return "io_uring is limited to privileged users and the io_uring_group on this machine "
               "(/proc/sys/kernel/io_uring_disabled = 1)";
    std::string failed =
        fmt::format("io_uring_setup failed: {} ({})", std::strerror(error), posix::errnoName(error));
    if (error == ENOSYS)
        return failed + ": the kernel has no io_uring (before Linux 5.1), or a seccomp filter such as a "
                        "container's blocks it";
    if (error == EPERM && setup.sqPoll)
        return failed + ": SQPOLL (a kernel polling thread) needs CAP_SYS_NICE or CAP_SYS_ADMIN on kernels "
                        "before 5.11, or a seccomp filter or a security module forbids io_uring";
    if (error == EPERM)
        return failed + ": a seccomp filter or a security module forbids io_uring";
    if (error == EINVAL && (setup.sqPoll || setup.ioPoll))
        return fmt::format("{}: the kernel refuses a ring of {} entries with {}", failed, entries,
                           setup.sqPoll && setup.ioPoll ? "SQPOLL and IOPOLL"
                           : setup.sqPoll               ? "SQPOLL"
                                                        : "IOPOLL");
    if (error == EINVAL)
        return fmt::format("{}: the kernel refuses a ring of {} entries", failed, entries);
    if (error == ENOMEM)
        return fmt::format("{}: no memory for a ring of {} entries (the locked-memory limit, ulimit -l, "
                           "on kernels before 5.12)",
                           failed, entries);
    return failed;
}

namespace {

unsigned setupFlags(RingSetup setup) noexcept
{
    return (setup.sqPoll ? IORING_SETUP_SQPOLL : 0U) | (setup.ioPoll ? IORING_SETUP_IOPOLL : 0U);
}

} // namespace

std::optional<std::string> probeRing(std::uint32_t entries, RingSetup setup)
{
    io_uring ring{};
    io_uring_params params{};
    params.flags = setupFlags(setup);
    const int result = io_uring_queue_init_params(entries, &ring, &params);
    if (result < 0)
        return ringSetupProblem(-result, entries, ioUringDisabledSetting(), setup);
    io_uring_queue_exit(&ring);
    return std::nullopt;
}

std::string registrationProblem(int error, const char* what, std::uint64_t bytes)
{
    std::string failed = fmt::format("io_uring_register of {} failed: {} ({})", what, std::strerror(error),
                                     posix::errnoName(error));
    if (error == ENOMEM && bytes > 0) {
        rlimit limit{};
        const bool known = ::getrlimit(RLIMIT_MEMLOCK, &limit) == 0;
        return fmt::format("{}: registering {} pins {} bytes, which count against the locked-memory limit "
                           "({}; ulimit -l, or CAP_IPC_LOCK lifts it)",
                           failed, what, bytes,
                           !known                            ? "unknown"
                           : limit.rlim_cur == RLIM_INFINITY ? "unlimited"
                                                             : fmt::format("{} bytes", limit.rlim_cur));
    }
    return failed;
}

Ring::~Ring()
{
    if (!m_ready)
        return;
    drain();
    io_uring_queue_exit(&m_ring);
}

bool Ring::init(std::uint32_t queueDepth, Outcome& outcome, RingSetup setup)
{
    m_entries = ringEntries(queueDepth);
    io_uring_params params{};
    // sq_thread_idle 0: the kernel's default of one second before an idle poller sleeps, as fio leaves it.
    params.flags = setupFlags(setup);
    const int result = io_uring_queue_init_params(m_entries, &m_ring, &params);
    if (result < 0) {
        outcome = {Status::Unsupported, -result, "io_uring_setup",
                   ringSetupProblem(-result, m_entries, ioUringDisabledSetting(), setup)};
        return false;
    }
    m_setup = setup;
    m_ready = true;
    return true;
}

int Ring::registerFile(int fd) noexcept
{
    return -io_uring_register_files(&m_ring, &fd, 1);
}

void Ring::unregisterFile() noexcept
{
    io_uring_unregister_files(&m_ring);
}

int Ring::registerBuffers(const std::vector<iovec>& buffers) noexcept
{
    return -io_uring_register_buffers(&m_ring, buffers.data(), static_cast<unsigned>(buffers.size()));
}

bool registerForOptions(Ring& ring, const UringOptions& options, QueueIo& io,
                        const std::vector<iovec>& buffers, Outcome& outcome)
{
    const bool named = options.mode == UringOptions::Mode::Explicit;
    if (options.wantsRegisteredFiles()) {
        const int error = ring.registerFile(io.fd);
        io.fixedFile = error == 0;
        if (error != 0 && named) {
            outcome = {Status::Unsupported, error, "io_uring_register",
                       "registerfiles was asked for and refused: " +
                           registrationProblem(error, "the file", 0)};
            return false;
        }
    }
    if (options.wantsFixedBuffers()) {
        std::uint64_t bytes = 0;
        for (const iovec& buffer : buffers)
            bytes += buffer.iov_len;
        const int error = ring.registerBuffers(buffers);
        (io.read ? io.poolFixed : io.patternFixed) = error == 0;
        if (error != 0 && named) {
            outcome = {Status::Unsupported, error, "io_uring_register",
                       "fixedbufs was asked for and refused: " +
                           registrationProblem(error, "buffers", bytes)};
            return false;
        }
    }
    return true;
}

UringOptions optionsInEffect(const Ring& ring, const QueueIo& io) noexcept
{
    UringOptions inEffect = UringOptions::plain();
    inEffect.fixedBuffers = io.read ? io.poolFixed : io.patternFixed;
    inEffect.registeredFiles = io.fixedFile;
    inEffect.sqPoll = ring.setup().sqPoll;
    inEffect.ioPoll = ring.setup().ioPoll;
    return inEffect;
}

io_uring_sqe* Ring::nextSqe() noexcept
{
    io_uring_sqe* sqe = io_uring_get_sqe(&m_ring);
    while (sqe == nullptr) {
        // Never with the loop's at most queue-depth entries, queued syncs included; flushing makes room
        // regardless.
        io_uring_submit(&m_ring);
        sqe = io_uring_get_sqe(&m_ring);
    }
    ++m_outstanding;
    return sqe;
}

void Ring::drain() noexcept
{
    if (!m_ready || m_outstanding == 0)
        return;
    io_uring_sqe* sqe = nextSqe();
    // Kernels before 5.19 answer IORING_ASYNC_CANCEL_ANY with EINVAL; the wait below still ends.
    io_uring_prep_cancel64(sqe, 0, IORING_ASYNC_CANCEL_ANY);
    io_uring_sqe_set_data64(sqe, ~std::uint64_t{0} - 1);
    while (m_outstanding != 0) {
        const int result = io_uring_submit_and_wait(&m_ring, 1);
        if (result < 0 && result != -EINTR && result != -EAGAIN)
            break;
        std::array<io_uring_cqe*, 64> cqes{};
        advance(io_uring_peek_batch_cqe(&m_ring, cqes.data(), static_cast<unsigned>(cqes.size())));
    }
}

} // namespace iolab::linux_backend
