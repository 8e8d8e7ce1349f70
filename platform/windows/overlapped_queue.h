// SPDX-License-Identifier: MIT
// The overlapped-* strategies' shared part: a file handle opened with FILE_FLAG_OVERLAPPED, its I/O
// completion port, and the request slots the chunk loop's queue (core/engine/chunk_loop.h) keeps in flight.
#pragma once

#include "core/base/units.h"
#include "core/engine/call_timing.h"
#include "core/engine/chunk_loop.h"
#include "platform/windows/win_io.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace iolab::windows_backend {

// Requests of a loop over `bytes` in `chunkBytes` pieces, the last one short when they do not divide.
inline std::uint64_t requestCount(std::uint64_t bytes, std::uint64_t chunkBytes) noexcept
{
    return bytes / chunkBytes + (bytes % chunkBytes != 0 ? 1 : 0);
}

// The slots a job needs: its queue depth, or fewer when the file has fewer requests.
inline std::uint32_t slotsFor(const JobSpec& spec) noexcept
{
    const std::uint64_t requests = requestCount(spec.bytes, spec.testCase.chunkBytes);
    const std::uint64_t depth = std::max<std::uint32_t>(1, spec.testCase.queueDepth);
    return static_cast<std::uint32_t>(std::max<std::uint64_t>(1, std::min(depth, requests)));
}

// The readers' buffers, a chunk per request in flight, are allocated per thread up to this much.
inline constexpr std::uint64_t kMaxReadBufferBytes = std::uint64_t{1} << 30;

inline std::optional<std::string> readBufferRefusal(const Case& c)
{
    const std::uint64_t pageBytes = 4096;
    const std::uint64_t perRequest = (c.chunkBytes + pageBytes - 1) / pageBytes * pageBytes;
    if (std::uint64_t{c.queueDepth} * perRequest <= kMaxReadBufferBytes)
        return std::nullopt;
    return fmt::format("queue depth {} of {} reads needs {} of buffers per thread, above the {} {} allocates",
                       c.queueDepth, formatBytes(c.chunkBytes), formatBytes(c.queueDepth * perRequest),
                       formatBytes(kMaxReadBufferBytes), c.strategy);
}

// One request: its OVERLAPPED first, so that the address the port hands back is the slot's.
struct OverlappedSlot
{
    OVERLAPPED overlapped{};
    std::uint64_t offset = 0;          // the request's first byte in the file
    std::uint64_t bytes = 0;           // the request's length
    std::uint64_t done = 0;            // transferred so far: a short transfer resubmits the rest
    const std::byte* source = nullptr; // writes: the data
    std::byte* buffer = nullptr;       // reads: this slot's own page-aligned buffer
    TimingClock::time_point submitted{};
    bool write = false; // a read queue's request that writes `source` instead: a read/write mix's write
};
static_assert(std::is_standard_layout_v<OverlappedSlot>);

// The resources a queue works on, which outlive it: the file, its completion port and the slots with their
// buffers. Tracks the requests handed to the OS whose completion has not been dequeued; the destructor
// cancels and waits for them, since the OS may still write into a slot's OVERLAPPED and buffer.
class OverlappedFile
{
public:
    // Associates `file` with a new completion port and makes `slots` slots, each with `bufferBytes` of
    // page-aligned memory when bufferBytes is not 0 (one VirtualAlloc, cut at page multiples).
    static std::unique_ptr<OverlappedFile> create(win::UniqueHandle file, std::uint32_t slots,
                                                  std::uint64_t bufferBytes, const std::string& path,
                                                  Outcome& outcome)
    {
        // CreateIoCompletionPort given INVALID_HANDLE_VALUE makes a port with no file: not what a job wants.
        if (!file) {
            outcome = win::errorOutcome(ERROR_INVALID_HANDLE, "CreateIoCompletionPort", path);
            return nullptr;
        }
        win::UniqueHandle port(::CreateIoCompletionPort(file.get(), nullptr, 0, 1));
        if (!port) {
            outcome = win::errorOutcome(::GetLastError(), "CreateIoCompletionPort", path);
            return nullptr;
        }
        auto result = std::unique_ptr<OverlappedFile>(new OverlappedFile(std::move(file), std::move(port)));
        result->m_slots = std::make_unique<OverlappedSlot[]>(slots);
        const std::uint64_t stride = (bufferBytes + kPageBytes - 1) / kPageBytes * kPageBytes;
        if (bufferBytes != 0) {
            result->m_buffers = win::virtualAlloc(static_cast<std::size_t>(stride * slots));
            if (!result->m_buffers) {
                outcome = win::errorOutcome(::GetLastError(), "VirtualAlloc", {});
                return nullptr;
            }
        }
        result->m_free.reserve(slots);
        result->m_pending.reserve(slots);
        for (std::uint32_t i = slots; i-- > 0;) {
            if (bufferBytes != 0)
                result->m_slots[i].buffer = result->m_buffers.get() + stride * i;
            result->m_free.push_back(&result->m_slots[i]);
        }
        result->m_slotCount = slots;
        return result;
    }

    ~OverlappedFile() { cancelAndWait(); }
    OverlappedFile(const OverlappedFile&) = delete;
    OverlappedFile& operator=(const OverlappedFile&) = delete;

    HANDLE file() const noexcept { return m_file.get(); }
    HANDLE port() const noexcept { return m_port.get(); }
    std::uint32_t slotCount() const noexcept { return m_slotCount; }
    const OverlappedSlot& slot(std::uint32_t i) const noexcept { return m_slots[i]; }
    // Requests handed to the OS whose completion has not been dequeued.
    std::uint32_t inFlight() const noexcept { return m_inFlight; }
    // Slots neither submitted nor in flight.
    std::size_t freeSlots() const noexcept { return m_free.size(); }

    OverlappedSlot* takeFree() noexcept
    {
        if (m_free.empty())
            return nullptr;
        OverlappedSlot* slot = m_free.back();
        m_free.pop_back();
        return slot;
    }
    void release(OverlappedSlot* slot) noexcept { m_free.push_back(slot); }
    std::vector<OverlappedSlot*>& pending() noexcept { return m_pending; }
    void issued() noexcept { ++m_inFlight; }
    void dequeued() noexcept { --m_inFlight; }

    // Cancels every request in flight and dequeues their completions; the requests not yet issued go back to
    // the free slots. False when some never completed: their slots and buffers are then leaked, never freed
    // under the OS.
    bool cancelAndWait() noexcept
    {
        for (OverlappedSlot* slot : m_pending)
            m_free.push_back(slot);
        m_pending.clear();
        if (m_inFlight == 0)
            return true;
        ::CancelIoEx(m_file.get(), nullptr);
        constexpr DWORD kWaitMs = 1000;
        constexpr int kPatience = 30; // waits of kWaitMs with nothing dequeued
        std::array<OVERLAPPED_ENTRY, 64> entries{};
        for (int idle = 0; m_inFlight != 0 && idle < kPatience;) {
            ULONG removed = 0;
            if (::GetQueuedCompletionStatusEx(m_port.get(), entries.data(),
                                              static_cast<ULONG>(entries.size()), &removed, kWaitMs,
                                              FALSE) == 0) {
                if (::GetLastError() != WAIT_TIMEOUT)
                    break;
                ++idle;
                continue;
            }
            for (ULONG i = 0; i < removed; ++i) {
                m_free.push_back(reinterpret_cast<OverlappedSlot*>(entries[i].lpOverlapped));
                --m_inFlight;
            }
        }
        if (m_inFlight == 0)
            return true;
        (void)m_slots.release();
        (void)m_buffers.release();
        return false;
    }

    // Closes the file and the port once nothing is in flight; the error CloseHandle gave, or 0.
    DWORD close() noexcept
    {
        cancelAndWait();
        const DWORD error = m_file.close();
        m_port.reset();
        return error;
    }

private:
    static constexpr std::uint64_t kPageBytes = 4096;

    OverlappedFile(win::UniqueHandle file, win::UniqueHandle port)
        : m_file(std::move(file)), m_port(std::move(port))
    {}

    win::UniqueHandle m_file;
    win::UniqueHandle m_port;
    std::unique_ptr<OverlappedSlot[]> m_slots;
    win::VirtualBuffer m_buffers;
    std::vector<OverlappedSlot*> m_free;
    std::vector<OverlappedSlot*> m_pending; // submitted by the loop, not yet handed to the OS
    std::uint32_t m_slotCount = 0;
    std::uint32_t m_inFlight = 0;
};

// The chunk loop's RequestQueue over an OverlappedFile. `Requests` is the strategy's side:
//   static constexpr bool kWrite;
//   void place(std::uint64_t loopOffset, std::uint64_t loopBytes, OverlappedSlot&): sets offset, bytes and,
//     for writes, source (a random order ignores the loop's offset and picks its own chunk);
//   bool check(const OverlappedSlot&, Outcome& error): a completed request's data (reads verify it); a read
//     queue's place() may mark a slot `write` with its `source` (a read/write mix), which check() sees too;
//   Outcome shortFile(std::uint64_t endedAt) (reads): the file ended before the request did.
// submit() only takes a slot; reap() hands every submitted request to the OS at once (one clock read for the
// batch when timing), then dequeues completions in batches (one clock read per batch). A request's latency
// runs from its submission to the dequeuing of its last completion. Timer is NoCallTimer or CallTimer.
template <class Timer, class Requests> class OverlappedQueue
{
public:
    OverlappedQueue(OverlappedFile& file, Requests& requests, const Timer& timer, std::string call,
                    const std::string& path, std::uint32_t directSectorBytes)
        : m_file(file), m_requests(requests), m_timer(timer), m_call(std::move(call)), m_path(path),
          m_sectorBytes(directSectorBytes)
    {}

    bool submit(std::uint64_t offset, std::uint64_t bytes)
    {
        OverlappedSlot* slot = m_file.takeFree();
        if (slot == nullptr) [[unlikely]] {
            keep({Status::Failed, 0, m_call,
                  fmt::format("{} {}: more requests submitted than the queue has slots", m_call, m_path)});
            return false;
        }
        m_requests.place(offset, bytes, *slot);
        slot->done = 0;
        m_file.pending().push_back(slot);
        return true;
    }

    Reaped reap(std::uint64_t minRequests)
    {
        Reaped reaped;
        issuePending(reaped);
        std::array<OVERLAPPED_ENTRY, 64> entries;
        while (reaped.requests < minRequests && m_file.inFlight() != 0) {
            ULONG removed = 0;
            if (::GetQueuedCompletionStatusEx(m_file.port(), entries.data(),
                                              static_cast<ULONG>(entries.size()), &removed, INFINITE,
                                              FALSE) == 0) [[unlikely]] {
                keep(win::errorOutcome(::GetLastError(), "GetQueuedCompletionStatusEx", m_path));
                reaped.failed = true;
                break;
            }
            TimingClock::time_point now{};
            if constexpr (Timer::kOn)
                now = TimingClock::now();
            for (ULONG i = 0; i < removed; ++i)
                complete(entries[i], now, reaped);
        }
        return reaped;
    }

    bool sync()
    {
        return timedSync(m_timer, [&] {
            if (::FlushFileBuffers(m_file.file()) != 0) [[likely]]
                return true;
            keep(win::errorOutcome(::GetLastError(), "FlushFileBuffers", m_path));
            return false;
        });
    }

    Outcome takeError() { return std::move(m_error); }

private:
    static constexpr std::uint64_t kMaxTransfer = std::uint64_t{1} << 30;

    void issuePending(Reaped& reaped)
    {
        auto& pending = m_file.pending();
        if (pending.empty())
            return;
        if constexpr (Timer::kOn) {
            const auto now = TimingClock::now();
            for (OverlappedSlot* slot : pending)
                slot->submitted = now;
        }
        for (OverlappedSlot* slot : pending) {
            // After a failure nothing more goes to the OS: the rest complete as failed at once.
            if (m_failed || !issue(*slot)) [[unlikely]]
                failed(*slot, reaped);
        }
        pending.clear();
    }

    // ERROR_IO_PENDING is in flight; a synchronous success is in flight too, since without
    // FILE_SKIP_COMPLETION_PORT_ON_SUCCESS its completion is still posted to the port (one path for both).
    bool issue(OverlappedSlot& slot)
    {
        const std::uint64_t at = slot.offset + slot.done;
        const auto length = static_cast<DWORD>(std::min(slot.bytes - slot.done, kMaxTransfer));
        slot.overlapped = OVERLAPPED{};
        slot.overlapped.Offset = static_cast<DWORD>(at);
        slot.overlapped.OffsetHigh = static_cast<DWORD>(at >> 32);
        BOOL ok = FALSE;
        if (Requests::kWrite || slot.write)
            ok = ::WriteFile(m_file.file(), slot.source + slot.done, length, nullptr, &slot.overlapped);
        else
            ok = ::ReadFile(m_file.file(), slot.buffer + slot.done, length, nullptr, &slot.overlapped);
        if (ok != 0 || ::GetLastError() == ERROR_IO_PENDING) [[likely]] {
            m_file.issued();
            return true;
        }
        keepCallError(::GetLastError(), slot);
        return false;
    }

    void complete(const OVERLAPPED_ENTRY& entry, TimingClock::time_point now, Reaped& reaped)
    {
        auto& slot = *reinterpret_cast<OverlappedSlot*>(entry.lpOverlapped);
        m_file.dequeued();
        DWORD moved = entry.dwNumberOfBytesTransferred;
        if (slot.overlapped.Internal != 0 &&
            ::GetOverlappedResult(m_file.file(), &slot.overlapped, &moved, FALSE) == 0) [[unlikely]] {
            keepCallError(::GetLastError(), slot);
            failed(slot, reaped);
            return;
        }
        slot.done += moved;
        if (slot.done < slot.bytes) [[unlikely]] {
            resubmit(slot, moved, reaped);
            return;
        }
        if (Outcome problem; !m_requests.check(slot, problem)) [[unlikely]] {
            keep(std::move(problem));
            failed(slot, reaped);
            return;
        }
        if constexpr (Timer::kOn) {
            if (slot.write)
                m_timer.writes->record(elapsedNs(slot.submitted, now));
            else
                m_timer.calls->record(elapsedNs(slot.submitted, now));
        }
        ++reaped.requests;
        reaped.bytes += slot.bytes;
        m_file.release(&slot);
    }

    // A short transfer: the rest goes out again as part of the same request (it is counted once, when done).
    void resubmit(OverlappedSlot& slot, DWORD moved, Reaped& reaped)
    {
        if (moved == 0) {
            if constexpr (Requests::kWrite)
                keepCallError(ERROR_WRITE_FAULT, slot);
            else if (slot.write)
                keepCallError(ERROR_WRITE_FAULT, slot);
            else
                keep(m_requests.shortFile(slot.offset + slot.done));
        } else if (!m_failed && m_sectorBytes != 0) {
            const auto address = reinterpret_cast<std::uintptr_t>(
                Requests::kWrite || slot.write ? slot.source + slot.done : slot.buffer + slot.done);
            if (auto problem = win::noBufferingProblem(slot.offset + slot.done, slot.bytes - slot.done,
                                                       address, m_sectorBytes))
                keep({Status::Failed, 0, m_call,
                      fmt::format("{} {}: after a short transfer, {}", m_call, m_path, *problem)});
        }
        if (m_failed || !issue(slot))
            failed(slot, reaped);
    }

    void failed(OverlappedSlot& slot, Reaped& reaped)
    {
        m_failed = true;
        reaped.failed = true;
        ++reaped.requests;
        m_file.release(&slot);
    }

    void keepCallError(DWORD error, const OverlappedSlot& slot)
    {
        if constexpr (!Requests::kWrite) {
            if (error == ERROR_HANDLE_EOF && !slot.write) {
                keep(m_requests.shortFile(slot.offset + slot.done));
                return;
            }
        }
        keep(win::errorOutcome(error, m_call, m_path));
    }

    // The first error is the one reported.
    void keep(Outcome error)
    {
        if (!m_failed)
            m_error = std::move(error);
        m_failed = true;
    }

    OverlappedFile& m_file;
    Requests& m_requests;
    Timer m_timer;
    std::string m_call;
    const std::string& m_path;
    std::uint32_t m_sectorBytes; // direct I/O: the volume's sector size; 0 otherwise
    bool m_failed = false;
    Outcome m_error;
};

} // namespace iolab::windows_backend
