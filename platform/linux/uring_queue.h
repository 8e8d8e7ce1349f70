// SPDX-License-Identifier: MIT
// The io_uring ring the uring-* strategies share (one per thread), and the request queue the queued chunk
// loop drives over it (core/engine/chunk_loop.h's RequestQueue).
#pragma once

#include "core/engine/call_timing.h"
#include "core/engine/chunk_loop.h"
#include "core/engine/pattern.h"
#include "core/engine/read_buffer.h"
#include "platform/linux/uring_setup.h"
#include "platform/posix/posix_io.h"

#include <liburing.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <sys/uio.h>
#include <vector>

namespace iolab::linux_backend {

// One ring: set up in prepare(), torn down only after every request the kernel has is complete.
class Ring
{
public:
    Ring() = default;
    ~Ring();
    Ring(const Ring&) = delete;
    Ring& operator=(const Ring&) = delete;

    // A ring of ringEntries(queueDepth) set up as `setup` says; a refused set-up makes `outcome`
    // Unsupported with the cause.
    bool init(std::uint32_t queueDepth, Outcome& outcome, RingSetup setup = {});
    // How the ring was set up (what init was asked for and the kernel gave).
    RingSetup setup() const noexcept { return m_setup; }
    // Registration saves the kernel a file lookup, or a page pinning, per request. Each returns 0 or the
    // errno of the refusal (registrationProblem says it in words).
    int registerFile(int fd) noexcept;
    void unregisterFile() noexcept;
    int registerBuffers(const std::vector<iovec>& buffers) noexcept;

    // The next free submission entry, counted as outstanding until its completion is consumed.
    io_uring_sqe* nextSqe() noexcept;
    // Hands every prepared entry to the kernel and waits for `waitFor` completions: io_uring_submit_and_wait.
    int submitAndWait(unsigned waitFor) noexcept { return io_uring_submit_and_wait(&m_ring, waitFor); }
    // Hands every prepared entry to the kernel without waiting: io_uring_submit.
    int submit() noexcept { return io_uring_submit(&m_ring); }
    // Entries prepared and not yet handed to the kernel.
    unsigned unsubmitted() const noexcept { return io_uring_sq_ready(&m_ring); }
    // Completions waiting in the ring, read without a system call.
    unsigned ready() const noexcept { return io_uring_cq_ready(&m_ring); }
    unsigned peek(io_uring_cqe** cqes, unsigned max) noexcept
    {
        return io_uring_peek_batch_cqe(&m_ring, cqes, max);
    }
    void advance(unsigned n) noexcept
    {
        io_uring_cq_advance(&m_ring, n);
        m_outstanding -= n;
    }
    std::uint64_t outstanding() const noexcept { return m_outstanding; }
    std::uint32_t entries() const noexcept { return m_entries; }
    // Cancels what the kernel still has and waits for all of it: afterwards no request touches a buffer.
    void drain() noexcept;

private:
    io_uring m_ring{};
    bool m_ready = false;
    RingSetup m_setup;
    std::uint32_t m_entries = 0;
    std::uint64_t m_outstanding = 0; // entries prepared whose completion has not been consumed
};

// Where one request's bytes go in the file.
struct Extent
{
    std::uint64_t position = 0;
    std::uint64_t length = 0;
    bool write = false; // a read queue's request that writes instead: a read/write mix's write
};

// The n-th request goes where the loop is: one pass through the file, in order.
struct SequentialPlace
{
    Extent operator()(std::uint64_t offset, std::uint64_t size) const noexcept { return {offset, size}; }
};

// What a queue moves: the file (fixed file 0 when registered), which way, and from or into what memory.
struct QueueIo
{
    int fd = -1;
    bool fixedFile = false;
    bool read = false;
    // Writes: the request at position p sends pattern.at(p); the pattern is buffer 0 when patternFixed.
    Pattern::View pattern{nullptr};
    bool patternFixed = false;
    // Reads: slot i reads into pool + i * slotBytes, registered as buffer i when poolFixed.
    std::byte* pool = nullptr;
    std::uint64_t slotBytes = 0;
    bool poolFixed = false;
    const char* call = "";       // "io_uring write", "io_uring read"
    std::string path;            // for errors
    std::uint64_t fileBytes = 0; // reads: the bytes the file holds (a read ending earlier is an error)
    bool syncDataOnly = false;   // fdatasync-every: the queued syncs are IORING_FSYNC_DATASYNC
    // A read/write mix (a read queue whose Place marks some requests `write`): those write the pattern's
    // bytes for their place, pattern.at(patternOffset + position), back where they are; the queue counts
    // each completed request, each way, here.
    std::uint64_t patternOffset = 0;
    Job::MixCounts* mix = nullptr;
};

// Registers what the case's io_uring options ask for (auto: the file and the buffers, each where the kernel
// allows; an explicit value: exactly the options it names, a refusal failing the job with the reason) and
// records what is in effect in `io`. `buffers` are the memory requests send from or read into.
bool registerForOptions(Ring& ring, const UringOptions& options, QueueIo& io,
                        const std::vector<iovec>& buffers, Outcome& outcome);

// A case's io_uring options as a uring-* job takes them: a case that carries none (built by hand, not
// expanded from a matrix) runs as auto, as these strategies always did.
inline UringOptions requestedOptions(const UringOptions& options) noexcept
{
    return options.applies() ? options : UringOptions::automatic();
}
inline RingSetup ringSetupFor(const UringOptions& options) noexcept
{
    return {options.sqPoll, options.ioPoll};
}

// The options in effect on a ring driving `io`: what a job reports (Job::uringInEffect).
UringOptions optionsInEffect(const Ring& ring, const QueueIo& io) noexcept;

// How many prepared entries a UringQueue lets wait before it hands them to the kernel without waiting for
// anything: a quarter of the queue, so that a queue refilled all at once reaches the device in four parts,
// the first while the others are prepared, instead of in one burst that completes together (a virtio disk
// then ran in lockstep: 32 requests per interrupt at QD32, the device idle while the thread woke and
// refilled; tests/perf/README.md, issue 34). Below a depth of 4, 0: the entries go to the kernel only when
// the queue reaps, in the same system call as the wait.
constexpr std::uint32_t submissionGroup(std::uint32_t queueDepth) noexcept
{
    return queueDepth >= 4 ? queueDepth / 4 : 0;
}

// The request queue: submit() prepares one entry and hands the prepared ones to the kernel once a quarter of
// the queue is waiting (submissionGroup), reap() hands over the rest and takes completions in batches,
// resubmitting the rest of a short transfer. `Place` maps the loop's (offset, size) to the request's
// Extent (sequential, shuffled, random); `Check` returns the verdict on each completed read (verification).
// With a CallTimer each request is timed from its submission (one clock read per submitted batch) to its
// reaping (one per reaped batch); with NoCallTimer the clock is never read.
template <class Timer, class Place, class Check> class UringQueue
{
public:
    UringQueue(Ring& ring, const QueueIo& io, std::uint32_t queueDepth, const Timer& timer, Place place,
               Check check, Outcome& error)
        : m_ring(ring), m_io(io), m_timer(timer), m_place(std::move(place)), m_check(std::move(check)),
          m_error(error), m_slots(std::max<std::uint32_t>(1, queueDepth)), m_syncs(m_slots.size()),
          m_cqes(std::max<std::size_t>(1, 2 * std::size_t{ring.entries()})),
          m_submissionGroup(submissionGroup(queueDepth))
    {
        m_freeSyncs.reserve(m_syncs.size());
        m_syncOrder.reserve(m_syncs.size());
        for (std::size_t i = m_syncs.size(); i > 0; --i)
            m_freeSyncs.push_back(static_cast<std::uint32_t>(i - 1));
        m_free.reserve(m_slots.size());
        for (std::size_t i = m_slots.size(); i > 0; --i)
            m_free.push_back(static_cast<std::uint32_t>(i - 1));
        if constexpr (Timer::kOn)
            m_unstamped.reserve(m_slots.size());
    }
    ~UringQueue() { m_ring.drain(); }
    UringQueue(const UringQueue&) = delete;
    UringQueue& operator=(const UringQueue&) = delete;

    bool submit(std::uint64_t offset, std::uint64_t size)
    {
        if (m_free.empty()) [[unlikely]]
            return fail(EBUSY, m_io.call);
        const std::uint32_t index = m_free.back();
        m_free.pop_back();
        const Extent extent = m_place(offset, size);
        m_slots[index] = Slot{extent.position, extent.length, 0, m_requestsSubmitted, true, {}, extent.write};
        if constexpr (Timer::kOn)
            m_unstamped.push_back(index);
        prepareRequest(index);
        ++m_requestsSubmitted;
        handOverGroup();
        return true;
    }

    // fsync-every's sync, in line: an IORING_OP_FSYNC with IOSQE_IO_DRAIN, so that it starts once every write
    // submitted before it has completed and the writes after it wait for it. (IOSQE_IO_LINK alone would only
    // order it after the one write before it, while the others are still in flight.)
    // Timed as the blocking loop's fsync is, from when it can start to its completion: from its submission,
    // or from the reap that saw the last write ahead of it (or the sync before it) complete, if that came
    // later. A write held behind it is timed from the sync's completion on, so neither histogram counts the
    // other's wait. Both are exact to within one reap.
    bool submitSync()
    {
        if (m_freeSyncs.empty()) [[unlikely]]
            return fail(EBUSY, uringSyncCall(m_io.syncDataOnly));
        const std::uint32_t index = m_freeSyncs.back();
        m_freeSyncs.pop_back();
        // With nothing ahead of it still running it can start at once: ready from its submission.
        const bool readyNow = m_syncOrder.empty() && m_requestsEnded >= m_requestsSubmitted;
        m_syncs[index] = QueuedSync{m_requestsSubmitted, {}, {}, readyNow};
        m_syncOrder.push_back(index);
        if constexpr (Timer::kOn)
            m_unstamped.push_back(kSyncBit | index);
        prepareSync(index);
        handOverGroup();
        return true;
    }

    // How many queued syncs completed before a write ahead of them had (a short write's rest goes out after
    // the sync): each was sent again, so that every sync covers the writes before it.
    std::uint64_t syncsSentAgain() const noexcept { return m_syncsSentAgain; }

    Reaped reap(std::uint64_t minRequests)
    {
        Reaped out;
        do {
            if (m_ring.outstanding() == 0)
                break;
            if (!collect(out, out.requests + out.syncs < minRequests ? 1 : 0))
                break;
        } while (out.requests + out.syncs < minRequests && !out.failed);
        return out;
    }

    // The final sync, called with nothing in flight: IORING_OP_FSYNC (with IORING_FSYNC_DATASYNC for
    // fdatasync), waited for; untimed.
    bool fsync(bool dataOnly)
    {
        io_uring_sqe* sqe = m_ring.nextSqe();
        io_uring_prep_fsync(sqe, target(), dataOnly ? IORING_FSYNC_DATASYNC : 0);
        if (m_io.fixedFile)
            sqe->flags |= IOSQE_FIXED_FILE;
        io_uring_sqe_set_data64(sqe, kFinalSyncTag);
        m_syncDone = false;
        Reaped ignored;
        while (!m_syncDone) {
            if (!collect(ignored, 1))
                return false;
        }
        if (m_syncResult < 0)
            return fail(-m_syncResult, uringSyncCall(dataOnly));
        return true;
    }

private:
    static constexpr std::uint64_t kFinalSyncTag = ~std::uint64_t{0};
    // The user data of queued sync i is kSyncBit | i.
    static constexpr std::uint64_t kSyncBit = std::uint64_t{1} << 32;
    // One request's largest transfer: a longer chunk goes as several, like a short transfer.
    static constexpr std::uint64_t kMaxTransfer = std::uint64_t{1} << 30;

    struct Slot
    {
        std::uint64_t position = 0;
        std::uint64_t length = 0;
        std::uint64_t done = 0;
        std::uint64_t sequence = 0; // how many writes were submitted before it
        bool inFlight = false;
        TimingClock::time_point submitted{}; // or when the sync it waited behind completed
        bool write = false;                  // a mix's write in a read queue
    };

    // A queued sync: how many writes were submitted before it, when it went to the kernel, and whether and
    // when the reap saw everything ahead of it complete (ready stays zero when that was at its submission).
    struct QueuedSync
    {
        std::uint64_t writesBefore = 0;
        TimingClock::time_point submitted{};
        TimingClock::time_point ready{};
        bool readyKnown = false;
    };

    int target() const noexcept { return m_io.fixedFile ? 0 : m_io.fd; }

    void prepareSync(std::uint32_t index)
    {
        io_uring_sqe* sqe = m_ring.nextSqe();
        io_uring_prep_fsync(sqe, target(), m_io.syncDataOnly ? IORING_FSYNC_DATASYNC : 0);
        sqe->flags |= IOSQE_IO_DRAIN;
        if (m_io.fixedFile)
            sqe->flags |= IOSQE_FIXED_FILE;
        io_uring_sqe_set_data64(sqe, kSyncBit | index);
    }

    // An entry for what is left of slot `index`'s request.
    void prepareRequest(std::uint32_t index)
    {
        const Slot& slot = m_slots[index];
        const std::uint64_t at = slot.position + slot.done;
        const auto length = static_cast<unsigned>(std::min(slot.length - slot.done, kMaxTransfer));
        io_uring_sqe* sqe = m_ring.nextSqe();
        if (m_io.read && !slot.write) {
            std::byte* into = m_io.pool + index * m_io.slotBytes + slot.done;
            if (m_io.poolFixed)
                io_uring_prep_read_fixed(sqe, target(), into, length, at, static_cast<int>(index));
            else
                io_uring_prep_read(sqe, target(), into, length, at);
        } else {
            const std::byte* from = m_io.pattern.at(m_io.patternOffset + slot.position) + slot.done;
            if (m_io.patternFixed)
                io_uring_prep_write_fixed(sqe, target(), from, length, at, 0);
            else
                io_uring_prep_write(sqe, target(), from, length, at);
        }
        if (m_io.fixedFile)
            sqe->flags |= IOSQE_FIXED_FILE;
        io_uring_sqe_set_data64(sqe, index);
    }

    // The clock read of the entries about to go to the kernel: their requests' time starts here.
    void stampUnsubmitted()
    {
        if constexpr (Timer::kOn) {
            if (!m_unstamped.empty()) {
                const auto now = TimingClock::now();
                for (const std::uint64_t tag : m_unstamped) {
                    if (tag & kSyncBit)
                        m_syncs[tag & ~kSyncBit].submitted = now;
                    else
                        m_slots[tag].submitted = now;
                }
                m_unstamped.clear();
            }
        }
    }

    // Hands the prepared entries to the kernel once a group of them is waiting, without waiting for anything.
    // A refusal here is not an error of its own: what the kernel did not take goes with the next reap's
    // io_uring_submit_and_wait, which reports a lasting error.
    void handOverGroup()
    {
        if (m_submissionGroup == 0 || m_ring.unsubmitted() < m_submissionGroup)
            return;
        stampUnsubmitted();
        m_ring.submit();
    }

    // One io_uring_submit_and_wait, then every completion there is, in one batch. On an SQPOLL ring the
    // entries are handed over by a store into the ring (a system call only to wake a poller gone idle) and
    // the thread waits by watching the completion ring, as fio's sqthread_poll does: a wait in
    // io_uring_enter there halved the rate (tests/perf/README.md, issue 39).
    bool collect(Reaped& out, unsigned waitFor)
    {
        stampUnsubmitted();
        const int submitted = m_ring.setup().sqPoll ? submitAndSpin(waitFor) : m_ring.submitAndWait(waitFor);
        if (submitted < 0 && submitted != -EINTR && submitted != -EAGAIN) [[unlikely]] {
            fail(-submitted, "io_uring_enter");
            out.failed = true;
            return false;
        }
        const unsigned count = m_ring.peek(m_cqes.data(), static_cast<unsigned>(m_cqes.size()));
        [[maybe_unused]] TimingClock::time_point now{};
        if constexpr (Timer::kOn) {
            now = TimingClock::now();
            m_lastReap = now;
        }
        for (unsigned i = 0; i < count; ++i)
            complete(*m_cqes[i], now, out);
        m_ring.advance(count);
        return true;
    }

    void complete(const io_uring_cqe& cqe, [[maybe_unused]] TimingClock::time_point now, Reaped& out)
    {
        const std::uint64_t tag = io_uring_cqe_get_data64(&cqe);
        if (tag == kFinalSyncTag) {
            m_syncResult = cqe.res;
            m_syncDone = true;
            return;
        }
        if (tag & kSyncBit) {
            completeSync(static_cast<std::uint32_t>(tag & ~kSyncBit), cqe.res, now, out);
            return;
        }
        const auto index = static_cast<std::uint32_t>(tag);
        Slot& slot = m_slots[index];
        const bool reads = m_io.read && !slot.write;
        if (cqe.res <= 0) [[unlikely]] {
            if (cqe.res < 0)
                fail(-cqe.res, reads || !m_io.read ? m_io.call : "io_uring write");
            else if (reads) // the file ended early: it changed during the run
                keep(checkReadLength(m_io.path, slot.position + slot.done, m_io.fileBytes));
            else
                fail(EIO, m_io.call);
            release(index, out);
            out.failed = true;
            return;
        }
        slot.done += static_cast<std::uint64_t>(cqe.res);
        if (slot.done < slot.length) {
            prepareRequest(index); // a short transfer: the rest goes with the next submission
            return;
        }
        if (reads) {
            if (Outcome verdict = m_check(slot.position, m_io.pool + index * m_io.slotBytes, slot.length);
                !verdict.ok()) [[unlikely]] {
                keep(std::move(verdict));
                out.failed = true;
            } else {
                out.bytes += slot.length;
            }
        } else {
            out.bytes += slot.length;
        }
        if constexpr (Timer::kOn) {
            if (slot.write && m_io.read)
                m_timer.writes->record(elapsedNs(slot.submitted, now));
            else
                m_timer.calls->record(elapsedNs(slot.submitted, now));
        }
        if (m_io.mix != nullptr) {
            if (slot.write) {
                ++m_io.mix->writeOps;
                m_io.mix->writeBytes += slot.length;
            } else {
                ++m_io.mix->readOps;
                m_io.mix->readBytes += slot.length;
            }
        }
        release(index, out);
    }

    void completeSync(std::uint32_t index, int result, [[maybe_unused]] TimingClock::time_point now,
                      Reaped& out)
    {
        QueuedSync& sync = m_syncs[index];
        if (result < 0) [[unlikely]] {
            fail(-result, "io_uring fsync");
            out.failed = true;
        } else if (m_requestsEnded < sync.writesBefore && m_error.ok()) {
            // The drain held it back until the writes before it completed, but the rest of a short one went
            // out after it: the same sync again covers that too. (After a failure nothing is sent again: the
            // run has failed, and the loop only reaps what is in flight.)
            ++m_syncsSentAgain;
            prepareSync(index);
            return;
        }
        if constexpr (Timer::kOn) {
            m_timer.syncs->record(elapsedNs(std::max(sync.submitted, sync.ready), now));
            // The writes submitted after it waited for it: their time starts now.
            for (Slot& slot : m_slots) {
                if (slot.inFlight && slot.sequence >= sync.writesBefore)
                    slot.submitted = std::max(slot.submitted, now);
            }
        }
        m_syncOrder.erase(std::find(m_syncOrder.begin(), m_syncOrder.end(), index));
        out.syncedBytes = out.bytes; // the completions come in order: those before it, it covered
        ++out.syncs;
        m_freeSyncs.push_back(index);
        if constexpr (Timer::kOn)
            markReady(now);
    }

    int submitAndSpin(unsigned waitFor)
    {
        const int submitted = m_ring.submit();
        if (submitted < 0)
            return submitted;
        // io_uring_cq_ready reads the ring's tail with acquire ordering: each turn sees the kernel's
        // progress.
        while (m_ring.ready() < std::min<std::uint64_t>(waitFor, m_ring.outstanding())) {
        }
        return submitted;
    }

    // A write or read that ended, successfully or not.
    void release(std::uint32_t index, Reaped& out)
    {
        ++out.requests;
        ++m_requestsEnded;
        m_slots[index].inFlight = false;
        m_free.push_back(index);
        if constexpr (Timer::kOn)
            markReady(m_lastReap);
    }

    // The oldest queued sync can start once every write ahead of it has ended and the syncs before it have
    // completed (they have left m_syncOrder by then).
    void markReady(TimingClock::time_point now)
    {
        if (m_syncOrder.empty())
            return;
        QueuedSync& oldest = m_syncs[m_syncOrder.front()];
        if (!oldest.readyKnown && m_requestsEnded >= oldest.writesBefore) {
            oldest.ready = now;
            oldest.readyKnown = true;
        }
    }

    bool fail(int error, const char* call) { return keep(posix::errnoOutcome(error, call, m_io.path)); }

    // The first error is the one reported.
    bool keep(Outcome outcome)
    {
        if (m_error.ok())
            m_error = std::move(outcome);
        return false;
    }

    Ring& m_ring;
    const QueueIo& m_io;
    Timer m_timer;
    Place m_place;
    Check m_check;
    Outcome& m_error;
    std::vector<Slot> m_slots;
    std::vector<std::uint32_t> m_free;
    std::vector<QueuedSync> m_syncs;
    std::vector<std::uint32_t> m_freeSyncs;
    std::vector<std::uint32_t> m_syncOrder; // queued syncs in flight, oldest first
    std::uint64_t m_requestsSubmitted = 0;
    std::uint64_t m_requestsEnded = 0;
    TimingClock::time_point m_lastReap{}; // the clock read of the reap being processed
    std::uint64_t m_syncsSentAgain = 0;
    std::vector<std::uint64_t> m_unstamped; // user data submitted by the loop, not yet handed to the kernel
    std::vector<io_uring_cqe*> m_cqes;
    std::uint32_t m_submissionGroup; // 0: only when reaping
    bool m_syncDone = false;
    int m_syncResult = 0;
};

} // namespace iolab::linux_backend
