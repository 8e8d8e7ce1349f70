// SPDX-License-Identifier: MIT
#include "core/engine/replay_variants.h"

#include "core/base/error.h"
#include "core/base/units.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

namespace iolab {

namespace {

using trace::Call;

// A coalesced call is at most this large: a program's buffer of records, not its whole output.
constexpr std::uint64_t kLargestCoalesced = 1u << 20;
constexpr std::uint32_t kSeekToEnd = 2; // SEEK_END, FILE_END

bool isStreamPut(Call call)
{
    return call == Call::FWrite || call == Call::FPutc || call == Call::FPuts || call == Call::FPrintf;
}

bool isDescriptorWrite(Call call)
{
    return call == Call::Write || call == Call::WriteV || call == Call::PWrite || call == Call::PWriteV;
}

// Visits every step of the script once, each thread's in order, a step only once the steps its waits name
// are done: an order the replay itself could have made them in.
void forEachInOrder(const ReplayScript& script,
                    const std::function<void(std::size_t thread, const ReplayStep& step)>& visit)
{
    std::vector<std::uint32_t> done(script.threads.size(), 0);
    const auto ready = [&](const ReplayStep& step) {
        return std::all_of(std::begin(step.waits), std::end(step.waits), [&](const ReplayWait& wait) {
            return wait.thread == kNoReplaySlot || wait.thread >= done.size() ||
                   done[wait.thread] >= wait.steps;
        });
    };
    for (bool moved = true; moved;) {
        moved = false;
        for (std::size_t t = 0; t < script.threads.size(); ++t) {
            const auto& steps = script.threads[t].steps;
            while (done[t] < steps.size() && ready(steps[done[t]])) {
                visit(t, steps[done[t]]);
                ++done[t];
                moved = true;
            }
        }
    }
}

// The size content `c` had before the program ran (a file it found, or one written ahead), else 0.
std::uint64_t stagedSize(const ReplayScript& script, std::uint32_t c)
{
    if (c >= script.contentFiles.size() || script.contentFiles[c] >= script.files.size())
        return 0;
    const ReplayFile& file = script.files[script.contentFiles[c]];
    return file.staged ? file.stagedBytes : 0;
}

// Per file, the content first named by it (kNoReplaySlot for none).
std::vector<std::uint32_t> contentOfFirstName(const ReplayScript& script)
{
    std::vector<std::uint32_t> out(script.files.size(), kNoReplaySlot);
    for (std::uint32_t c = 0; c < script.contentFiles.size(); ++c)
        if (script.contentFiles[c] < out.size())
            out[script.contentFiles[c]] = c;
    return out;
}

// The content an open for writing with O_TRUNC empties (kNoReplaySlot for none): an open carries no content,
// so it is the one its file first named.
std::uint32_t truncatedContent(const ReplayStep& step, const std::vector<std::uint32_t>& contentOfFirstName)
{
    const bool truncates = (step.call == Call::Open || step.call == Call::FOpen) && step.error == 0 &&
                           (step.flags & trace::OpenWrite) != 0 && (step.flags & trace::OpenTruncate) != 0;
    return truncates && step.file < contentOfFirstName.size() ? contentOfFirstName[step.file] : kNoReplaySlot;
}

std::string ordinal(std::uint64_t n)
{
    const std::uint64_t tens = n % 100;
    const char* suffix = tens >= 11 && tens <= 13 ? "th"
                         : n % 10 == 1            ? "st"
                         : n % 10 == 2            ? "nd"
                         : n % 10 == 3            ? "rd"
                                                  : "th";
    return fmt::format("{}{}", n, suffix);
}

} // namespace

DurabilityContract durabilityContract(const ReplayScript& script)
{
    struct Content
    {
        std::uint64_t handed = 0; // to stdio or the system
        std::uint64_t system = 0; // reached the system
        std::uint64_t size = 0;
        std::uint64_t sizeAtPoint = 0;
        std::uint64_t durable = 0; // reached the system before its latest sync point
        bool gone = false;
    };
    struct Stream
    {
        std::uint64_t buffered = 0;
        std::uint64_t size = kDefaultStreamBuffer;
        bool unbuffered = false;
    };
    DurabilityContract contract;
    contract.files.resize(script.contents);
    std::vector<Content> contents(script.contents);
    for (std::uint32_t c = 0; c < script.contents; ++c)
        if (const std::uint64_t staged = stagedSize(script, c); staged != 0)
            contents[c].size = contents[c].sizeAtPoint = staged;
    std::vector<Stream> streams(script.slots);
    // A stream over a file opened O_SYNC or O_DSYNC: each time its buffer reaches the system is a sync point.
    std::vector<bool> durableStream(script.slots, false);
    for (const ReplayThread& thread : script.threads)
        for (const ReplayStep& step : thread.steps)
            if (step.risk == RiskFlushDurable && step.slot < durableStream.size())
                durableStream[step.slot] = true;

    const auto point = [&](std::uint32_t c, DurabilityPoint::Kind kind, std::uint32_t count) {
        Content& content = contents[c];
        DurabilityPoint p;
        p.kind = kind;
        p.handed = content.handed;
        if (kind != DurabilityPoint::Publish)
            content.durable = content.system;
        p.durable = content.durable;
        p.sizeChanged = content.size != content.sizeAtPoint;
        p.count = count;
        if (kind != DurabilityPoint::Publish)
            content.sizeAtPoint = content.size;
        auto& points = contract.files[c];
        // A run of identical points (O_DSYNC writes of one size) stays one, counted.
        if (kind != DurabilityPoint::Publish && !points.empty() && points.back().kind == kind &&
            points.back().handed == p.handed && points.back().durable == p.durable && !p.sizeChanged)
            points.back().count += count;
        else
            points.push_back(p);
        contract.points += count;
        if (kind != DurabilityPoint::Publish)
            contract.syncPoints += count;
    };
    const auto grow = [&](std::uint32_t c, std::uint64_t end) {
        contents[c].size = std::max(contents[c].size, end);
    };

    const std::vector<std::uint32_t> truncatedBy = contentOfFirstName(script);
    forEachInOrder(script, [&](std::size_t, const ReplayStep& step) {
        if (const std::uint32_t t = truncatedContent(step, truncatedBy); t < contents.size())
            contents[t].size = 0;
        const std::uint32_t c = step.content;
        const bool file = c != kNoReplaySlot && c < contents.size();
        const std::uint64_t total = step.bytes * step.count;
        switch (step.call) {
        case Call::SetVBuf:
            if (step.slot < streams.size()) {
                streams[step.slot].size = step.bytes != 0 ? step.bytes : kDefaultStreamBuffer;
                // A line-buffered stream counts as unbuffered: each line may reach the system at once, and
                // the program's durability is not to be understated.
                const auto mode = static_cast<trace::BufferMode>(step.flags);
                streams[step.slot].unbuffered =
                    mode == trace::BufferMode::None || mode == trace::BufferMode::Line;
            }
            return;
        case Call::Ftruncate:
            if (file) {
                contents[c].size = step.bytes;
            }
            return;
        case Call::Fallocate:
            if (file && (step.flags & kFallocKeepSize) == 0)
                grow(c, static_cast<std::uint64_t>(std::max<std::int64_t>(step.offset, 0)) + step.bytes);
            return;
        case Call::Rename:
            if (file)
                point(c, DurabilityPoint::Publish, 1);
            return;
        default:
            break;
        }
        if (step.risk == RiskSyncAll) { // sync, syncfs: every file the program has written
            for (std::uint32_t other = 0; other < contents.size(); ++other)
                if (contents[other].handed != 0 && !contents[other].gone)
                    point(other, DurabilityPoint::Full, step.count);
            return;
        }
        if (!file)
            return;
        Content& content = contents[c];
        if (isStreamPut(step.call) || (step.call == Call::StreamSpill && step.flags != 0)) {
            Stream& s = streams[step.slot];
            content.handed += total;
            grow(c, step.dataAt + total);
            s.buffered += total;
            // The C library hands a full buffer to the system (and a put larger than it, straight).
            const std::uint64_t before = content.system;
            if (s.unbuffered) {
                content.system += s.buffered;
                s.buffered = 0;
            } else if (s.buffered >= s.size) {
                const std::uint64_t spilled = s.buffered / s.size * s.size;
                content.system += spilled;
                s.buffered -= spilled;
            }
            if (content.system != before && step.slot < durableStream.size() && durableStream[step.slot])
                point(c, DurabilityPoint::Full, 1);
            return;
        }
        if (step.risk == RiskFlush || step.risk == RiskFlushDurable) { // fflush, fclose
            Stream& s = streams[step.slot];
            content.system += s.buffered;
            s.buffered = 0;
            if (step.risk == RiskFlushDurable)
                point(c, DurabilityPoint::Full, 1);
            return;
        }
        if (isDescriptorWrite(step.call) || step.call == Call::CopyFileRange || step.call == Call::SendFile) {
            grow(c, step.dataAt + total);
            if (step.risk != RiskNone) {
                content.handed += total;
                content.system += total;
                return;
            }
            // Each call returned durable (O_SYNC, O_DSYNC, write-through, RWF_DSYNC): a point after each.
            for (std::uint32_t i = 0; i < step.count; ++i) {
                content.handed += step.bytes;
                content.system += step.bytes;
                point(c, DurabilityPoint::Full, 1);
            }
            return;
        }
        if (step.risk == RiskSync) {
            point(c,
                  step.call == Call::Fdatasync || step.call == Call::Msync ? DurabilityPoint::DataOnly
                                                                           : DurabilityPoint::Full,
                  step.count);
            return;
        }
        if (step.risk == RiskGone)
            content.gone = true;
    });
    return contract;
}

std::string contractBreach(const ReplayScript& script, const DurabilityContract& original,
                           const DurabilityContract& variant)
{
    const auto fileName = [&](std::size_t c) {
        if (c < script.contentFiles.size() && script.contentFiles[c] < script.files.size()) {
            const std::string& path = script.files[script.contentFiles[c]].recordedPath;
            return path.substr(path.find_last_of("/\\") + 1);
        }
        return fmt::format("file {}", c + 1);
    };
    const auto unrolled = [](const std::vector<DurabilityPoint>& points) {
        std::vector<DurabilityPoint> all;
        for (DurabilityPoint p : points) {
            const std::uint32_t n = p.count;
            p.count = 1;
            for (std::uint32_t i = 0; i < n; ++i) {
                all.push_back(p);
                p.sizeChanged = false;
            }
        }
        return all;
    };
    if (original.files.size() != variant.files.size())
        return "the variant writes other files than the program";
    for (std::size_t c = 0; c < original.files.size(); ++c) {
        const auto theirs = unrolled(original.files[c]);
        const auto ours = unrolled(variant.files[c]);
        // Each of the program's points is met by the variant's next one at the same place. A sync the variant
        // adds before it (fewer bytes handed over, or as many before a rename: syncfs reaches every file)
        // only makes more durable, and is let be.
        std::size_t m = 0;
        for (std::size_t k = 0; k < theirs.size(); ++k) {
            const DurabilityPoint& a = theirs[k];
            const std::string where = fmt::format("{}: its {} sync point (after {} handed over)", fileName(c),
                                                  ordinal(k + 1), formatBytes(a.handed));
            // A skipped fdatasync after a size change left the size to the next point to make durable.
            bool sizeLeft = false;
            while (m < ours.size() && ours[m].kind != DurabilityPoint::Publish &&
                   (ours[m].handed < a.handed ||
                    (ours[m].handed == a.handed && a.kind == DurabilityPoint::Publish))) {
                sizeLeft = ours[m].kind == DurabilityPoint::DataOnly && (sizeLeft || ours[m].sizeChanged);
                ++m;
            }
            if (m >= ours.size())
                return where + " is gone";
            DurabilityPoint b = ours[m++];
            b.sizeChanged = b.sizeChanged || sizeLeft;
            if ((a.kind == DurabilityPoint::Publish) != (b.kind == DurabilityPoint::Publish))
                return where + (a.kind == DurabilityPoint::Publish ? " (a rename) comes after another sync"
                                                                   : " comes after a rename it preceded");
            if (b.handed != a.handed)
                return fmt::format("{} comes after {} instead", where, formatBytes(b.handed));
            if (b.durable < a.durable)
                return fmt::format("{} makes {} durable, not {}", where, formatBytes(b.durable),
                                   formatBytes(a.durable));
            if (a.kind == DurabilityPoint::Full && b.kind == DurabilityPoint::DataOnly && b.sizeChanged)
                return where + " is an fdatasync where the file's size changed since its last sync: the "
                               "program asked for its "
                               "metadata too (fsync), and IOLab proposes fdatasync only where the size is "
                               "already there";
        }
        for (; m < ours.size(); ++m)
            if (ours[m].kind == DurabilityPoint::Publish)
                return fmt::format("{}: a rename after its last sync point is one the program did not make",
                                   fileName(c));
    }
    return {};
}

} // namespace iolab

namespace iolab {

namespace {

// Each thread's steps rewritten, and every wait renumbered: `doneAfter[t][n]` is how many of thread t's new
// steps are done once n of its old ones are (a wait inside a merged step waits for the whole of it).
struct Rewrite
{
    std::vector<std::vector<ReplayStep>> steps;
    std::vector<std::vector<std::uint32_t>> doneAfter;
    bool changed = false;

    explicit Rewrite(const ReplayScript& script)
        : steps(script.threads.size()), doneAfter(script.threads.size())
    {
        for (std::size_t t = 0; t < script.threads.size(); ++t)
            doneAfter[t].assign(script.threads[t].steps.size() + 1, 0);
    }

    // Old step `index` of thread `t` has been written out (and any steps put before it).
    void mark(std::size_t t, std::size_t index)
    {
        doneAfter[t][index + 1] = static_cast<std::uint32_t>(steps[t].size());
    }

    ReplayScript finish(const ReplayScript& script) &&
    {
        ReplayScript out = script;
        out.calls = out.writeCalls = out.syncCalls = out.largestCallBytes = 0;
        for (std::size_t t = 0; t < out.threads.size(); ++t) {
            out.threads[t].steps = std::move(steps[t]);
            for (ReplayStep& step : out.threads[t].steps)
                for (ReplayWait& wait : step.waits)
                    if (wait.thread != kNoReplaySlot && wait.thread < doneAfter.size())
                        wait.steps =
                            doneAfter[wait.thread]
                                     [std::min<std::size_t>(wait.steps, doneAfter[wait.thread].size() - 1)];
        }
        for (std::size_t t = 0; t < out.threads.size(); ++t)
            for (ReplayStep& step : out.threads[t].steps) {
                // A wait for a sync to begin stays one only while that sync is still there: a sync left out
                // or merged leaves a wait for the calls before it to be done.
                for (ReplayWait& wait : step.waits)
                    if (wait.begun && (wait.thread >= out.threads.size() || wait.steps == 0 ||
                                       wait.steps > out.threads[wait.thread].steps.size() ||
                                       !isReplaySync(out.threads[wait.thread].steps[wait.steps - 1])))
                        wait.begun = false;
                countReplayStep(out, step, step.synthetic == 0);
            }
        return out;
    }
};

bool hasWaits(const ReplayStep& step)
{
    return step.waits[0].thread != kNoReplaySlot || step.waits[1].thread != kNoReplaySlot;
}

// A step left out that keeps its place in the order across threads: its waits, and no call (a run of none),
// no bytes, no durability, untimed.
ReplayStep orderOnly(const ReplayStep& step)
{
    ReplayStep out = step;
    out.count = 0;
    out.bytes = 0;
    out.risk = RiskNone;
    out.content = kNoReplaySlot;
    out.synthetic = 1;
    out.group = 0;
    out.recordedNs = 0;
    return out;
}

bool isFolderContent(const ReplayScript& script, std::uint32_t c)
{
    return c < script.contentFiles.size() && script.contentFiles[c] < script.files.size() &&
           script.files[script.contentFiles[c]].directory;
}

// Which sync steps come where the file's size has not changed since its previous sync point, by (thread,
// step): where fdatasync keeps the contract.
std::vector<std::vector<bool>> sizeKeptAtSync(const ReplayScript& script)
{
    std::vector<std::vector<bool>> kept(script.threads.size());
    for (std::size_t t = 0; t < script.threads.size(); ++t)
        kept[t].assign(script.threads[t].steps.size(), false);
    std::vector<std::uint64_t> size(script.contents, 0);
    for (std::uint32_t c = 0; c < script.contents; ++c)
        size[c] = stagedSize(script, c);
    std::vector<std::uint64_t> sizeAtPoint = size;
    std::vector<std::uint32_t> next(script.threads.size(), 0);
    const std::vector<std::uint32_t> truncatedBy = contentOfFirstName(script);
    forEachInOrder(script, [&](std::size_t t, const ReplayStep& step) {
        const std::size_t index = next[t]++;
        if (const std::uint32_t c = truncatedContent(step, truncatedBy); c < size.size())
            size[c] = 0;
        const std::uint32_t c = step.content;
        if (c == kNoReplaySlot || c >= size.size())
            return;
        if (isReplayWrite(step.call) || step.call == Call::StreamSpill)
            size[c] = std::max(size[c], step.dataAt + step.bytes * step.count);
        else if (step.call == Call::Ftruncate)
            size[c] = step.bytes;
        else if (step.call == Call::Fallocate && (step.flags & kFallocKeepSize) == 0)
            size[c] = std::max(size[c], static_cast<std::uint64_t>(std::max<std::int64_t>(step.offset, 0)) +
                                            step.bytes);
        else if (step.risk == RiskSync) {
            // A folder's fsync (its entries after a create or a rename) stays one: fdatasync is not promised
            // to make a folder's entries durable.
            kept[t][index] = size[c] == sizeAtPoint[c] && !isFolderContent(script, c);
            sizeAtPoint[c] = size[c];
        }
    });
    return kept;
}

// What the program did with each file (by content) besides writing it, for the ways that size it ahead.
struct FileLife
{
    std::uint64_t largest = 0; // its largest extent written
    // Read, truncated, appended to (O_APPEND, a seek to its end), preallocated, mapped, or there before the
    // program ran (its size is the program's to keep).
    bool unfit = false;
    bool holes = false; // a write began past everything written before it
    std::uint32_t syncs = 0;
};

std::vector<FileLife> fileLives(const ReplayScript& script)
{
    std::vector<FileLife> lives(script.contents);
    std::vector<std::uint64_t> end(script.contents, 0);
    forEachInOrder(script, [&](std::size_t, const ReplayStep& step) {
        const std::uint32_t c = step.content;
        if (c == kNoReplaySlot || c >= lives.size())
            return;
        FileLife& life = lives[c];
        if (isReplayWrite(step.call) || step.call == Call::StreamSpill) {
            const std::uint64_t last = step.dataAt + step.bytes * step.count;
            life.largest = std::max(life.largest, last);
            if (step.dataAt > end[c])
                life.holes = true;
            end[c] = std::max(end[c], last);
        }
        if ((step.call == Call::Seek || step.call == Call::FSeek) && step.flags == kSeekToEnd)
            life.unfit = true;
        if (step.call == Call::SetFlags && (step.flags & trace::OpenAppend) != 0)
            life.unfit = true;
        if (step.call == Call::Ftruncate || step.call == Call::Fallocate || step.call == Call::Read ||
            step.call == Call::PRead || step.call == Call::ReadV || step.call == Call::PReadV ||
            step.call == Call::FRead || step.call == Call::FGetc || step.call == Call::FGets ||
            step.call == Call::Mmap || (step.call == Call::StreamSpill && step.flags == 0))
            life.unfit = true;
        if (step.risk == RiskSync)
            life.syncs += step.count;
    });
    for (std::uint32_t c = 0; c < script.contents; ++c)
        if (c < script.contentFiles.size() && script.contentFiles[c] < script.files.size() &&
            script.files[script.contentFiles[c]].staged)
            lives[c].unfit = true;
    // Any open of it in append mode, under whichever of its names.
    std::vector<std::uint32_t> contentOfFile(script.files.size(), kNoReplaySlot);
    for (std::uint32_t c = 0; c < script.contentFiles.size(); ++c)
        if (script.contentFiles[c] < contentOfFile.size())
            contentOfFile[script.contentFiles[c]] = c;
    for (const ReplayThread& thread : script.threads)
        for (const ReplayStep& step : thread.steps)
            if ((step.call == Call::Open || step.call == Call::FOpen) && step.file < contentOfFile.size() &&
                contentOfFile[step.file] != kNoReplaySlot && (step.flags & trace::OpenAppend) != 0)
                lives[contentOfFile[step.file]].unfit = true;
    return lives;
}

// Each fsync where the file's size has not changed since its last sync point made an fdatasync (of the
// contents `only` marks, or of every file when it is empty); whether one was.
bool fdatasyncWhereSizeKept(ReplayScript& script, const std::vector<bool>& only)
{
    bool changed = false;
    const auto kept = sizeKeptAtSync(script);
    for (std::size_t t = 0; t < script.threads.size(); ++t)
        for (std::size_t i = 0; i < script.threads[t].steps.size(); ++i) {
            ReplayStep& step = script.threads[t].steps[i];
            if (step.call == Call::Fsync && kept[t][i] &&
                (only.empty() || (step.content < only.size() && only[step.content]))) {
                step.call = Call::Fdatasync;
                changed = true;
            }
        }
    return changed;
}

std::optional<ReplayScript> withStdioBuffer(const ReplayScript& script, std::uint64_t bytes)
{
    // Only the streams the program writes through get a buffer (a standard stream it never wrote is left be).
    std::vector<bool> written(script.slots, false);
    for (const ReplayThread& thread : script.threads)
        for (const ReplayStep& step : thread.steps)
            if (isStreamPut(step.call) && step.slot < written.size())
                written[step.slot] = true;
    Rewrite rw(script);
    for (std::size_t t = 0; t < script.threads.size(); ++t) {
        const auto& in = script.threads[t].steps;
        auto& out = rw.steps[t];
        // This thread's written streams with puts not yet flushed, and the file each is on.
        std::vector<std::pair<std::uint32_t, std::uint32_t>> pending; // (stream slot, content)
        const auto flushBefore = [&](const ReplayStep& sync) {
            for (auto it = pending.begin(); it != pending.end();) {
                if (sync.risk == RiskSyncAll || it->second == sync.content) {
                    ReplayStep flush;
                    flush.call = Call::FFlush;
                    flush.slot = it->first;
                    flush.content = it->second;
                    flush.risk = RiskFlush;
                    std::copy(std::begin(sync.waits), std::end(sync.waits), std::begin(flush.waits));
                    out.push_back(flush);
                    it = pending.erase(it);
                } else {
                    ++it;
                }
            }
        };
        for (std::size_t i = 0; i < in.size(); ++i) {
            ReplayStep step = in[i];
            if (step.call == Call::SetVBuf && step.slot < written.size() && written[step.slot]) {
                step.bytes = bytes;
                step.flags = static_cast<std::uint32_t>(trace::BufferMode::Full);
                rw.changed = true;
            }
            if (step.risk == RiskSync || step.risk == RiskSyncAll || step.call == Call::Rename)
                flushBefore(step);
            out.push_back(step);
            if (step.call == Call::FOpen && (step.flags & trace::OpenWrite) != 0 &&
                step.slot2 != kNoReplaySlot && step.error == 0 && step.slot2 < written.size() &&
                written[step.slot2]) {
                ReplayStep buffer;
                buffer.call = Call::SetVBuf;
                buffer.slot = step.slot2;
                buffer.bytes = bytes;
                buffer.flags = static_cast<std::uint32_t>(trace::BufferMode::Full);
                out.push_back(buffer);
                rw.changed = true;
            }
            if (isStreamPut(step.call) && step.content != kNoReplaySlot &&
                std::find(pending.begin(), pending.end(), std::pair{step.slot, step.content}) ==
                    pending.end())
                pending.emplace_back(step.slot, step.content);
            if (step.call == Call::FFlush || step.call == Call::FClose)
                std::erase_if(pending, [&](const auto& p) { return p.first == step.slot; });
            rw.mark(t, i);
        }
    }
    if (!rw.changed)
        return std::nullopt;
    return std::move(rw).finish(script);
}

// Consecutive writes of one handle between two sync points as one call: one write (or fwrite) of their bytes,
// or with `gather` one writev of them with each write a piece of its own (no copy into one buffer; descriptor
// writes at the position only: stdio has no writev).
std::optional<ReplayScript> coalesced(const ReplayScript& script, bool gather)
{
    constexpr std::uint32_t kMostPieces = 1024; // IOV_MAX
    const auto piecesOf = [](const ReplayStep& step) {
        return step.call == Call::WriteV ? std::max<std::uint32_t>(step.flags, 1) * step.count : step.count;
    };
    Rewrite rw(script);
    for (std::size_t t = 0; t < script.threads.size(); ++t) {
        const auto& in = script.threads[t].steps;
        auto& out = rw.steps[t];
        // Whether `next` continues the last step written out as one larger call.
        const auto continues = [&](const ReplayStep& last, const ReplayStep& next) {
            if (hasWaits(next) || next.slot != last.slot || next.content != last.content ||
                next.synthetic != 0 || last.synthetic != 0 || next.content == kNoReplaySlot)
                return false;
            const std::uint64_t end = last.dataAt + last.bytes * last.count;
            if (next.dataAt != end || last.bytes * last.count + next.bytes * next.count > kLargestCoalesced)
                return false;
            const bool lastPut = isStreamPut(last.call);
            const bool nextPut = isStreamPut(next.call);
            if (lastPut || nextPut)
                return lastPut && nextPut;
            // Descriptor writes that are not durable one by one: a write at the position, or pwrites in a
            // row.
            if (last.risk != RiskWrite || next.risk != RiskWrite)
                return false;
            const bool positional = last.call == Call::Write || last.call == Call::WriteV;
            const bool nextPositional = next.call == Call::Write || next.call == Call::WriteV;
            if (positional && nextPositional)
                return !gather || piecesOf(last) + piecesOf(next) <= kMostPieces;
            return last.call == Call::PWrite && next.call == Call::PWrite && last.offset >= 0 &&
                   next.offset == last.offset + static_cast<std::int64_t>(last.bytes * last.count);
        };
        const auto asOne = [&](ReplayStep& step) {
            if (gather) {
                step.flags = piecesOf(step);
                step.bytes *= step.count;
                step.count = 1;
                step.call = Call::WriteV;
                return;
            }
            if (step.count == 1 && step.call != Call::WriteV && step.call != Call::FPutc &&
                step.call != Call::FPuts && step.call != Call::FPrintf)
                return;
            step.bytes *= step.count;
            step.count = 1;
            step.call = isStreamPut(step.call)      ? Call::FWrite
                        : step.call == Call::WriteV ? Call::Write
                                                    : step.call;
            step.flags = 0;
        };
        for (std::size_t i = 0; i < in.size(); ++i) {
            ReplayStep step = in[i];
            const bool mergeable =
                gather ? (step.call == Call::Write || step.call == Call::WriteV) && step.risk == RiskWrite
                       : isStreamPut(step.call) || (isDescriptorWrite(step.call) && step.risk == RiskWrite &&
                                                    step.call != Call::PWriteV);
            if (mergeable && !out.empty() && continues(out.back(), step) &&
                (isStreamPut(out.back().call) || isDescriptorWrite(out.back().call))) {
                ReplayStep& last = out.back();
                asOne(last);
                if (gather)
                    last.flags += piecesOf(step);
                last.bytes += step.bytes * step.count;
                last.recordedNs += step.recordedNs;
                rw.changed = true;
            } else if (mergeable && step.count > 1 && step.bytes * step.count <= kLargestCoalesced &&
                       step.call != Call::PWrite && (!gather || piecesOf(step) <= kMostPieces)) {
                asOne(step);
                out.push_back(step);
                rw.changed = true;
            } else {
                out.push_back(step);
            }
            rw.mark(t, i);
        }
    }
    if (!rw.changed)
        return std::nullopt;
    return std::move(rw).finish(script);
}

// fsync as fdatasync where the file's size is already there; with `preallocate`, each file the program
// creates and only writes (no reads, no truncation, not in append mode) is first preallocated to its final
// size, so that every sync after the first is one.
std::optional<ReplayScript> withFdatasync(const ReplayScript& script, bool preallocate)
{
    ReplayScript base = script;
    bool changed = false;
    if (preallocate) {
        const std::vector<FileLife> lives = fileLives(script);
        std::vector<bool> opened(script.contents, false);
        Rewrite rw(script);
        for (std::size_t t = 0; t < script.threads.size(); ++t) {
            const auto& in = script.threads[t].steps;
            auto& out = rw.steps[t];
            for (std::size_t i = 0; i < in.size(); ++i) {
                const ReplayStep& step = in[i];
                out.push_back(step);
                const bool opens = (step.call == Call::Open && step.slot2 != kNoReplaySlot) ||
                                   (step.call == Call::FOpen && step.file != kNoReplaySlot);
                const std::uint32_t file = step.file;
                std::uint32_t c = kNoReplaySlot;
                if (opens && file != kNoReplaySlot)
                    for (std::uint32_t k = 0; k < script.contentFiles.size(); ++k)
                        if (script.contentFiles[k] == file)
                            c = k;
                const bool creates = (step.flags & (trace::OpenCreate | trace::OpenTruncate)) != 0 &&
                                     (step.flags & trace::OpenWrite) != 0 &&
                                     (step.flags & trace::OpenAppend) == 0;
                if (c != kNoReplaySlot && creates && step.error == 0 && !lives[c].unfit && !opened[c] &&
                    lives[c].syncs >= 2 && lives[c].largest > 0) {
                    opened[c] = true;
                    ReplayStep reserve;
                    reserve.call = Call::Fallocate;
                    reserve.slot = step.call == Call::Open ? step.slot2 : step.slot; // fopen's descriptor
                    reserve.offset = 0;
                    reserve.bytes = lives[c].largest;
                    reserve.content = c;
                    out.push_back(reserve);
                    rw.changed = true;
                }
                rw.mark(t, i);
            }
        }
        if (!rw.changed)
            return std::nullopt;
        base = std::move(rw).finish(script);
        changed = true;
    }
    changed = fdatasyncWhereSizeKept(base, {}) || changed;
    if (!changed)
        return std::nullopt;
    return base;
}

// Each file the program creates, writes from its start without a hole and syncs more than once (a log, a
// journal, a file of records) written ahead to its final size before the timed part, as a database recycles
// a log segment it wrote before; the program's open then overwrites it in place (no truncation) and, on
// Linux, each fsync where the size is already there is an fdatasync. No sync then has to make a new size or
// newly allocated blocks durable: only the data.
std::optional<ReplayScript> rewrittenSegments(const ReplayScript& script)
{
    const std::vector<FileLife> lives = fileLives(script);
    // Each file's opens, and whether the only one creates it; a file deleted or renamed over is another life.
    std::vector<std::uint32_t> opens(script.files.size(), 0);
    std::vector<bool> creates(script.files.size(), false);
    std::vector<bool> replaced(script.files.size(), false);
    for (const ReplayThread& thread : script.threads)
        for (const ReplayStep& step : thread.steps) {
            const bool opening = (step.call == Call::Open && step.slot2 != kNoReplaySlot) ||
                                 (step.call == Call::FOpen && step.file != kNoReplaySlot);
            if (opening && step.file < opens.size()) {
                ++opens[step.file];
                creates[step.file] = step.error == 0 && (step.flags & trace::OpenWrite) != 0 &&
                                     (step.flags & (trace::OpenCreate | trace::OpenTruncate)) != 0 &&
                                     (step.flags & trace::OpenAppend) == 0;
            }
            if (step.call == Call::Unlink && step.file < replaced.size())
                replaced[step.file] = true;
            if (step.call == Call::Rename && step.file2 < replaced.size())
                replaced[step.file2] = true;
        }
    ReplayScript out = script;
    std::vector<bool> segment(script.contents, false);
    std::vector<bool> segmentFile(script.files.size(), false);
    for (std::uint32_t c = 0; c < script.contents && c < script.contentFiles.size(); ++c) {
        const std::uint32_t f = script.contentFiles[c];
        const FileLife& life = lives[c];
        if (f >= script.files.size() || script.files[f].directory || life.unfit || life.holes ||
            life.syncs < 2 || life.largest == 0 || opens[f] != 1 || !creates[f] || replaced[f])
            continue;
        segment[c] = segmentFile[f] = true;
        out.files[f].staged = true;
        out.files[f].overwritten = true;
        out.files[f].stagedBytes = life.largest;
        out.stagedBytes += life.largest;
    }
    if (std::find(segment.begin(), segment.end(), true) == segment.end())
        return std::nullopt;
    for (ReplayThread& thread : out.threads)
        for (ReplayStep& step : thread.steps)
            if ((step.call == Call::Open || step.call == Call::FOpen) && step.file < segmentFile.size() &&
                segmentFile[step.file]) {
                step.flags &= ~(trace::OpenTruncate | trace::OpenExclusive);
                if (step.call == Call::FOpen)
                    step.flags |= trace::OpenRead; // fopen's "r+": the file's bytes stay
            }
    if (out.system == trace::System::Linux)
        fdatasyncWhereSizeKept(out, segment);
    return out;
}

// Files a program creates and writes from their start through a descriptor (and copies of it: dd writes to
// its dup'ed standard output) on one thread, each write where the last ended, synced at least once and
// closed; nothing else done to them (no seek, read, truncation, stream, mapping). The ways that take over how
// their writes reach the disk (direct-batch, io-uring) rewrite only these.
struct InOrderFiles
{
    std::vector<bool> fit;                    // per content
    std::vector<std::size_t> thread;          // per content: the thread that writes it
    std::vector<std::uint32_t> contentOfFile; // per file
    std::vector<std::uint32_t> contentOfSlot; // per slot: the fit file's descriptors
    bool any() const { return std::find(fit.begin(), fit.end(), true) != fit.end(); }
    // The fit content a step works on (kNoReplaySlot for none): an open's by its file, others' by their
    // content or descriptor.
    std::uint32_t of(const ReplayStep& step) const
    {
        std::uint32_t c = kNoReplaySlot;
        if (step.call == Call::Open)
            c = step.file < contentOfFile.size() ? contentOfFile[step.file] : kNoReplaySlot;
        else if (step.content != kNoReplaySlot && step.content < fit.size())
            c = step.content;
        else if (step.slot < contentOfSlot.size())
            c = contentOfSlot[step.slot];
        return c < fit.size() && fit[c] ? c : kNoReplaySlot;
    }
};

InOrderFiles inOrderFiles(const ReplayScript& script)
{
    const std::vector<FileLife> lives = fileLives(script);
    struct Use
    {
        std::size_t thread = SIZE_MAX;
        bool opened = false;
        bool closed = false; // a close came after its last write (where the padding is cut)
        bool fit = true;
        std::uint64_t end = 0;
    };
    std::vector<Use> uses(script.contents);
    std::vector<std::uint32_t> contentOfFile(script.files.size(), kNoReplaySlot);
    for (std::uint32_t c = 0; c < script.contentFiles.size(); ++c)
        if (script.contentFiles[c] < contentOfFile.size())
            contentOfFile[script.contentFiles[c]] = c;
    std::vector<std::uint32_t> contentOfSlot(script.slots, kNoReplaySlot);
    std::vector<bool> syncAllOn(script.threads.size(), false);
    const auto contentOf = [&](const ReplayStep& step) {
        if (step.content != kNoReplaySlot && step.content < uses.size())
            return step.content;
        return step.slot < contentOfSlot.size() ? contentOfSlot[step.slot] : kNoReplaySlot;
    };
    for (std::size_t t = 0; t < script.threads.size(); ++t)
        for (const ReplayStep& step : script.threads[t].steps) {
            if (step.risk == RiskSyncAll)
                syncAllOn[t] = true;
            const std::uint32_t opened =
                step.file < contentOfFile.size() ? contentOfFile[step.file] : kNoReplaySlot;
            if ((step.call == Call::Open || step.call == Call::FOpen) && opened != kNoReplaySlot) {
                Use& use = uses[opened];
                const bool creates = step.call == Call::Open && step.slot2 < contentOfSlot.size() &&
                                     step.error == 0 && (step.flags & trace::OpenWrite) != 0 &&
                                     (step.flags & (trace::OpenCreate | trace::OpenTruncate)) != 0 &&
                                     (step.flags & (trace::OpenAppend | trace::OpenDirect)) == 0;
                use.fit = use.fit && creates && !use.opened;
                use.opened = true;
                use.thread = t;
                if (creates)
                    contentOfSlot[step.slot2] = opened;
                continue;
            }
            const std::uint32_t c = contentOf(step);
            if (c == kNoReplaySlot)
                continue;
            Use& use = uses[c];
            const bool mine =
                use.thread == t && (step.call == Call::Rename ||
                                    (step.slot < contentOfSlot.size() && contentOfSlot[step.slot] == c));
            switch (step.call) {
            case Call::Dup:
                use.fit = use.fit && mine && step.slot2 < contentOfSlot.size();
                if (use.fit)
                    contentOfSlot[step.slot2] = c;
                break;
            case Call::Write:
            case Call::PWrite:
                use.fit =
                    use.fit && mine && step.dataAt == use.end && step.flags == 0 && step.risk != RiskNone;
                use.end = step.dataAt + step.bytes * step.count;
                use.closed = false;
                break;
            case Call::Fsync:
            case Call::Fdatasync:
            case Call::Rename:
                use.fit = use.fit && mine && step.group == 0;
                break;
            case Call::Close:
                use.fit = use.fit && mine;
                use.closed = true;
                break;
            default:
                use.fit = false; // another call on it (a seek, a dup, a read): left as it is
            }
        }
    InOrderFiles files;
    files.fit.assign(script.contents, false);
    files.thread.assign(script.contents, SIZE_MAX);
    std::vector<bool>& fit = files.fit;
    for (std::uint32_t c = 0; c < script.contents; ++c) {
        const Use& use = uses[c];
        // A sync or syncfs of another thread would find the bytes still in this one's batch.
        fit[c] = use.fit && use.opened && use.closed && use.end > 0 && !lives[c].unfit && lives[c].syncs >= 1;
        for (std::size_t t = 0; t < syncAllOn.size(); ++t)
            fit[c] = fit[c] && (!syncAllOn[t] || t == use.thread);
        files.thread[c] = use.thread;
    }
    files.contentOfFile = std::move(contentOfFile);
    files.contentOfSlot = std::move(contentOfSlot);
    return files;
}

// Each file the program creates and writes from its start through its descriptor (and copies of it: dd writes
// to its dup'ed standard output) on one thread, each write where the last ended, opened O_DIRECT | O_DSYNC:
// its writes between two sync points gathered into batches of whole aligned blocks (at most kLargestCoalesced
// each, kDirectBatch), each written durable by one pwrite, so that the program's sync there is made by the
// batch itself (a sync with nothing left to write stays). A batch rewrites the partial block the last one
// ended in; the file is truncated to its size at its close. With `mapped` the batch is gathered in a mapped
// file (kMappedBatch), as the mmap-batch-direct strategy does.
std::optional<ReplayScript> directBatched(const ReplayScript& script, bool mapped)
{
    const InOrderFiles files = inOrderFiles(script);
    if (!files.any())
        return std::nullopt;

    struct Pending
    {
        std::uint64_t flushed = 0; // written by a batch
        std::uint64_t end = 0;     // handed over by the program's writes so far
    };
    std::vector<Pending> pending(script.contents);
    std::vector<std::uint32_t> liveSlot(script.contents, kNoReplaySlot); // a descriptor of it, open
    Rewrite rw(script);
    rw.changed = true;
    for (std::size_t t = 0; t < script.threads.size(); ++t) {
        const auto& in = script.threads[t].steps;
        auto& out = rw.steps[t];
        // What is handed over of `c` and not yet in a batch, written up to `to`: pieces of at most
        // kLargestCoalesced, each ending on a block's end but the last.
        const auto batch = [&](std::uint32_t c, std::uint64_t to) {
            Pending& p = pending[c];
            const std::uint32_t slot = liveSlot[c];
            while (p.flushed < to) {
                std::uint64_t until = to;
                if (until - p.flushed > kLargestCoalesced)
                    until = (p.flushed + kLargestCoalesced) / kDirectBlockBytes * kDirectBlockBytes;
                ReplayStep write;
                write.call = Call::PWrite;
                write.flags = kDirectBatch | (mapped ? kMappedBatch : 0u);
                write.slot = slot;
                write.content = c;
                write.offset = static_cast<std::int64_t>(p.flushed);
                write.dataAt = p.flushed;
                write.bytes = until - p.flushed;
                write.risk = RiskNone; // O_DSYNC: durable when it returns
                out.push_back(write);
                p.flushed = until;
            }
        };
        for (std::size_t i = 0; i < in.size(); ++i) {
            ReplayStep step = in[i];
            if (step.risk == RiskSyncAll)
                for (std::uint32_t c = 0; c < script.contents; ++c)
                    if (files.fit[c] && files.thread[c] == t)
                        batch(c, pending[c].end);
            const std::uint32_t c = files.of(step);
            if (c == kNoReplaySlot || files.thread[c] != t) {
                out.push_back(step);
                rw.mark(t, i);
                continue;
            }
            Pending& p = pending[c];
            if (step.call == Call::Open || step.call == Call::Dup)
                liveSlot[c] = step.slot2;
            else if (step.slot != kNoReplaySlot)
                liveSlot[c] = step.slot;
            switch (step.call) {
            case Call::Open:
                step.flags |= trace::OpenDirect | trace::OpenDSync;
                out.push_back(step);
                break;
            case Call::Dup: // the copy shares the open file: O_DIRECT | O_DSYNC too
                out.push_back(step);
                break;
            case Call::Write:
            case Call::PWrite:
                p.end = step.dataAt + step.bytes * step.count;
                if (hasWaits(step))
                    out.push_back(orderOnly(step));
                // Whole batches as they fill; the rest waits for the sync point.
                if (p.end - p.flushed >= kLargestCoalesced)
                    batch(c, p.end / kDirectBlockBytes * kDirectBlockBytes);
                break;
            case Call::Fsync:
            case Call::Fdatasync:
                if (p.end > p.flushed) {
                    batch(c, p.end); // durable when it returns: the program's sync point
                    if (hasWaits(step))
                        out.push_back(orderOnly(step));
                } else {
                    out.push_back(step);
                }
                break;
            case Call::Close:
                batch(c, p.end);
                if (p.end % kDirectBlockBytes != 0) {
                    ReplayStep truncate;
                    truncate.call = Call::Ftruncate;
                    truncate.slot = step.slot;
                    truncate.content = c;
                    truncate.bytes = p.end; // the last batch's padding cut off
                    out.push_back(truncate);
                    // ... and the size made durable: else a power cut could bring the padding back.
                    ReplayStep sync;
                    sync.call = Call::Fdatasync;
                    sync.slot = step.slot;
                    sync.content = c;
                    sync.risk = RiskSync;
                    out.push_back(sync);
                }
                out.push_back(step);
                break;
            default: // a rename: what the program handed over before it is written first
                batch(c, p.end);
                out.push_back(step);
                break;
            }
            rw.mark(t, i);
        }
    }
    return std::move(rw).finish(script);
}

// The same files' writes and syncs queued (kQueued): on the thread's io_uring ring (Linux), or in flight
// together on a handle opened FILE_FLAG_OVERLAPPED (`overlapped`, Windows: the open is flagged too). The
// writes between two sync points and the sync go together (one call for up to kUringDepth - 1 on Linux), the
// sync after them all. The calls, their bytes and their order of durability are the program's.
std::optional<ReplayScript> queued(const ReplayScript& script, bool overlapped)
{
    const InOrderFiles files = inOrderFiles(script);
    if (!files.any())
        return std::nullopt;
    ReplayScript out = script;
    for (std::size_t t = 0; t < out.threads.size(); ++t)
        for (ReplayStep& step : out.threads[t].steps) {
            const std::uint32_t c = files.of(step);
            if (c == kNoReplaySlot || files.thread[c] != t)
                continue;
            if (step.call == Call::Write || step.call == Call::PWrite || step.call == Call::Fsync ||
                step.call == Call::Fdatasync || (overlapped && step.call == Call::Open))
                step.flags |= kQueued;
        }
    return out;
}

// A stream's fflush left out where the thread's next call on the same stream or file is another put to the
// stream: the bytes reach the system with a later flush (the one kept before a sync, the close, or a full
// buffer), so the program's sync points find them there all the same (the contract check says so).
std::optional<ReplayScript> flushedAtSync(const ReplayScript& script)
{
    Rewrite rw(script);
    for (std::size_t t = 0; t < script.threads.size(); ++t) {
        const auto& in = script.threads[t].steps;
        for (std::size_t i = 0; i < in.size(); ++i) {
            const ReplayStep& step = in[i];
            if (step.call == Call::FFlush && step.synthetic == 0 && !hasWaits(step)) {
                const auto next = std::find_if(
                    in.begin() + static_cast<std::ptrdiff_t>(i) + 1, in.end(), [&](const ReplayStep& later) {
                        return later.slot == step.slot || later.risk == RiskSyncAll ||
                               (later.content != kNoReplaySlot && later.content == step.content);
                    });
                if (next != in.end() && isStreamPut(next->call) && next->slot == step.slot) {
                    rw.changed = true;
                    rw.mark(t, i);
                    continue;
                }
            }
            rw.steps[t].push_back(step);
            rw.mark(t, i);
        }
    }
    if (!rw.changed)
        return std::nullopt;
    return std::move(rw).finish(script);
}

std::optional<ReplayScript> syncedAtClose(const ReplayScript& script)
{
    // The last sync step of each file, by (thread, step).
    std::vector<std::pair<std::size_t, std::size_t>> last(script.contents, {SIZE_MAX, SIZE_MAX});
    std::vector<std::uint32_t> next(script.threads.size(), 0);
    forEachInOrder(script, [&](std::size_t t, const ReplayStep& step) {
        const std::size_t index = next[t]++;
        if (step.risk == RiskSync && step.content < last.size())
            last[step.content] = {t, index};
    });
    Rewrite rw(script);
    for (std::size_t t = 0; t < script.threads.size(); ++t) {
        const auto& in = script.threads[t].steps;
        for (std::size_t i = 0; i < in.size(); ++i) {
            ReplayStep step = in[i];
            if (step.risk == RiskSync && step.content < last.size()) {
                if (last[step.content] != std::pair{t, i}) {
                    rw.changed = true;
                    // A sync that waited for another thread's call stays as a step that only waits: a call
                    // that waited for the sync still comes after everything the sync came after.
                    if (hasWaits(step))
                        rw.steps[t].push_back(orderOnly(step));
                    rw.mark(t, i);
                    continue;
                }
                if (step.count > 1) {
                    step.count = 1;
                    rw.changed = true;
                }
            }
            rw.steps[t].push_back(step);
            rw.mark(t, i);
        }
    }
    if (!rw.changed)
        return std::nullopt;
    return std::move(rw).finish(script);
}

// One file of a run written, synced, closed and renamed into place, by its steps in its thread: [open, sync)
// opens and writes it, `sync` syncs it, then its close, then from `rename` to `end` its rename and the
// folder's fsync that followed it (an open of the folder, its fsync, its close).
struct PublishedFile
{
    std::size_t open = 0;
    std::size_t sync = 0;
    std::size_t rename = 0;
    std::size_t end = 0;
};

// The file published from step `i` of `in`, if one is: each of its steps a recorded call that waits for no
// other thread's.
std::optional<PublishedFile> publishedFileAt(const ReplayScript& script, const std::vector<ReplayStep>& in,
                                             std::size_t i)
{
    const auto unwaited = [&](std::size_t j) {
        return j < in.size() && !hasWaits(in[j]) && in[j].synthetic == 0;
    };
    const ReplayStep& open = in[i];
    if (!unwaited(i) || open.call != Call::Open || open.error != 0 || open.slot2 == kNoReplaySlot ||
        open.file >= script.files.size() || script.files[open.file].directory ||
        (open.flags & trace::OpenWrite) == 0 || (open.flags & trace::OpenCreate) == 0 ||
        (open.flags & (trace::OpenSync | trace::OpenDSync | trace::OpenWriteThrough)) != 0)
        return std::nullopt;
    const std::uint32_t slot = open.slot2;
    std::size_t j = i + 1;
    while (unwaited(j) && in[j].slot == slot && isDescriptorWrite(in[j].call) && in[j].risk == RiskWrite)
        ++j;
    if (j == i + 1 || !unwaited(j) || in[j].slot != slot || in[j].risk != RiskSync || in[j].count != 1 ||
        (in[j].call != Call::Fsync && in[j].call != Call::Fdatasync))
        return std::nullopt;
    PublishedFile file;
    file.open = i;
    file.sync = j++;
    if (!unwaited(j) || in[j].call != Call::Close || in[j].slot != slot)
        return std::nullopt;
    ++j;
    if (!unwaited(j) || in[j].call != Call::Rename || in[j].file != open.file || in[j].error != 0)
        return std::nullopt;
    file.rename = j++;
    std::vector<std::uint32_t> folders;
    while (unwaited(j)) {
        const ReplayStep& next = in[j];
        const bool opensFolder = next.call == Call::Open && next.error == 0 && next.slot2 != kNoReplaySlot &&
                                 next.file < script.files.size() && script.files[next.file].directory;
        const bool onFolder = (next.call == Call::Fsync || next.call == Call::Close) &&
                              std::find(folders.begin(), folders.end(), next.slot) != folders.end();
        if (!opensFolder && !onFolder)
            break;
        if (opensFolder)
            folders.push_back(next.slot2);
        ++j;
    }
    file.end = j;
    return file;
}

// The files published one after another from step `i` on, at most `most`.
std::vector<PublishedFile> publishedRunAt(const ReplayScript& script, const std::vector<ReplayStep>& in,
                                          std::size_t i, std::size_t most)
{
    std::vector<PublishedFile> run;
    for (std::size_t at = i; run.size() < most;) {
        const auto file = publishedFileAt(script, in, at);
        if (!file)
            break;
        run.push_back(*file);
        at = file->end;
    }
    return run;
}

// Files written, synced, closed and renamed into place one after another (a store of small files, a save of
// each document): the whole run written and closed first, one syncfs through the last file's descriptor, then
// every rename (and the folder's own fsync after it, where the program made one). Each file is durable before
// its rename, as it was; the renames come later, so a power cut in the run keeps fewer of the new names than
// the program's order would have.
std::optional<ReplayScript> syncfsBatched(const ReplayScript& script)
{
    constexpr std::size_t kLargestBatchFiles = 4096;
    if (script.system != trace::System::Linux)
        return std::nullopt;
    Rewrite rw(script);
    for (std::size_t t = 0; t < script.threads.size(); ++t) {
        const auto& in = script.threads[t].steps;
        auto& out = rw.steps[t];
        std::size_t i = 0;
        while (i < in.size()) {
            const auto run = publishedRunAt(script, in, i, kLargestBatchFiles);
            if (run.size() < 2) {
                out.push_back(in[i]);
                rw.mark(t, i);
                ++i;
                continue;
            }
            for (const PublishedFile& f : run) {
                out.insert(out.end(), in.begin() + static_cast<std::ptrdiff_t>(f.open),
                           in.begin() + static_cast<std::ptrdiff_t>(f.sync));
                if (&f == &run.back()) {
                    ReplayStep all;
                    all.call = Call::Syncfs;
                    all.slot = in[f.open].slot2;
                    all.risk = RiskSyncAll;
                    out.push_back(all);
                }
                out.push_back(in[f.sync + 1]); // its close
            }
            for (const PublishedFile& f : run)
                out.insert(out.end(), in.begin() + static_cast<std::ptrdiff_t>(f.rename),
                           in.begin() + static_cast<std::ptrdiff_t>(f.end));
            // A wait on a step inside the batch waits for the whole of it.
            for (std::size_t k = i; k < run.back().end; ++k)
                rw.mark(t, k);
            i = run.back().end;
            rw.changed = true;
        }
    }
    if (!rw.changed)
        return std::nullopt;
    return std::move(rw).finish(script);
}

// The same run of published files shared out over kWriterPoolThreads new threads, round robin, each file
// still written, synced, closed and renamed in its order; the thread that made them waits for the pool at the
// run's end. Files are published in another order than the program's, each still durable before its rename.
std::optional<ReplayScript> pooledWriters(const ReplayScript& script)
{
    constexpr std::size_t kLargestRunFiles = 1u << 20;
    Rewrite rw(script);
    struct Pool
    {
        std::uint32_t owner = 0;
        ReplayWait start; // the owner's steps before the run done
        std::vector<std::vector<ReplayStep>> threads;
    };
    std::vector<Pool> pools;
    const auto firstPoolThread = [&](std::size_t pool) {
        return static_cast<std::uint32_t>(script.threads.size() + pool * kWriterPoolThreads);
    };
    for (std::size_t t = 0; t < script.threads.size(); ++t) {
        const auto& in = script.threads[t].steps;
        auto& out = rw.steps[t];
        std::size_t i = 0;
        while (i < in.size()) {
            const auto run = publishedRunAt(script, in, i, kLargestRunFiles);
            if (run.size() < kWriterPoolThreads) {
                out.push_back(in[i]);
                rw.mark(t, i);
                ++i;
                continue;
            }
            Pool pool;
            pool.owner = static_cast<std::uint32_t>(t);
            pool.start = ReplayWait{static_cast<std::uint32_t>(t), static_cast<std::uint32_t>(out.size())};
            pool.threads.resize(kWriterPoolThreads);
            for (std::size_t k = 0; k < run.size(); ++k)
                pool.threads[k % kWriterPoolThreads].insert(
                    pool.threads[k % kWriterPoolThreads].end(),
                    in.begin() + static_cast<std::ptrdiff_t>(run[k].open),
                    in.begin() + static_cast<std::ptrdiff_t>(run[k].end));
            // The owner goes on once every pool thread is done: steps that only wait, two pool threads each.
            const std::uint32_t first = firstPoolThread(pools.size());
            for (std::size_t k = 0; k < kWriterPoolThreads; k += 2) {
                ReplayStep join;
                join.call = Call::Close;
                join.count = 0;
                join.synthetic = 1;
                for (std::size_t w = 0; w < 2 && k + w < kWriterPoolThreads; ++w)
                    join.waits[w] = ReplayWait{first + static_cast<std::uint32_t>(k + w),
                                               static_cast<std::uint32_t>(pool.threads[k + w].size())};
                out.push_back(join);
            }
            for (std::size_t k = i; k < run.back().end; ++k)
                rw.mark(t, k);
            i = run.back().end;
            pools.push_back(std::move(pool));
            rw.changed = true;
        }
    }
    if (!rw.changed)
        return std::nullopt;
    ReplayScript out = std::move(rw).finish(script);
    // The pools' threads, after the program's own (the joins above name them by these places). Each waits
    // for its owner to have come to the run; the steps it makes waited for nobody in the program.
    for (const Pool& pool : pools)
        for (const auto& steps : pool.threads) {
            ReplayThread thread;
            thread.pid = script.threads[pool.owner].pid;
            thread.tid = 0; // not a thread the program had
            thread.startNs = script.threads[pool.owner].startNs;
            thread.steps = steps;
            if (!thread.steps.empty())
                thread.steps.front().waits[0] = pool.start;
            for (const ReplayStep& step : thread.steps)
                countReplayStep(out, step, step.synthetic == 0);
            out.threads.push_back(std::move(thread));
        }
    return out;
}

// Each stdio put made with the C library's unlocked call: the stream's lock is no longer taken per call. The
// same calls, the same bytes, the same flushes: the contract is the program's by construction.
std::optional<ReplayScript> unlockedStdio(const ReplayScript& script)
{
    ReplayScript out = script;
    bool changed = false;
    for (ReplayThread& thread : out.threads)
        for (ReplayStep& step : thread.steps)
            if (isStreamPut(step.call) && step.synthetic == 0) {
                step.flags |= kStreamUnlocked;
                changed = true;
            }
    if (!changed)
        return std::nullopt;
    return out;
}

// Threads that sync one file each make their own sync; with a group commit a thread's sync is made once for
// every thread waiting on one (replay_job.h: a sync begun after the thread's writes had returned).
std::optional<ReplayScript> groupCommitted(const ReplayScript& script)
{
    // A file is shared when two threads sync it, all with the same call: one thread's fdatasync must never
    // stand for another's fsync.
    std::vector<std::uint32_t> syncer(script.contents, kNoReplaySlot);
    std::vector<Call> syncCall(script.contents, Call::Fsync);
    std::vector<bool> shared(script.contents, false);
    std::vector<bool> mixed(script.contents, false);
    for (std::uint32_t t = 0; t < script.threads.size(); ++t)
        for (const ReplayStep& step : script.threads[t].steps)
            if (step.risk == RiskSync && step.content < syncer.size() &&
                !isFolderContent(script, step.content)) {
                if (syncer[step.content] == kNoReplaySlot) {
                    syncer[step.content] = t;
                    syncCall[step.content] = step.call;
                } else if (syncer[step.content] != t) {
                    shared[step.content] = true;
                }
                mixed[step.content] = mixed[step.content] || step.call != syncCall[step.content];
            }
    for (std::uint32_t c = 0; c < script.contents; ++c)
        shared[c] = shared[c] && !mixed[c];
    ReplayScript out = script;
    bool changed = false;
    for (ReplayThread& thread : out.threads)
        for (ReplayStep& step : thread.steps)
            if (step.risk == RiskSync && step.content < shared.size() && shared[step.content] &&
                step.count == 1 && (step.call == Call::Fsync || step.call == Call::Fdatasync)) {
                step.group = 1;
                changed = true;
            }
    if (!changed)
        return std::nullopt;
    // The replay keeps the recorded order of the threads' calls on a shared handle: a thread's call after
    // another's sync waits until that sync is done, which would leave no two syncs to share. Such a wait is
    // for the sync to have begun instead (its own waits over: every call before it in the recorded order
    // done), so the calls keep their order and the syncs overlap. Each sync then still begins after every
    // call the recording put before it, so it covers at least what the program's did: the contract, checked
    // in the recorded order (forEachInOrder takes a begun wait as a done one), holds in every order the
    // replay can take.
    for (ReplayThread& thread : out.threads)
        for (ReplayStep& step : thread.steps)
            for (ReplayWait& wait : step.waits)
                if (mayRunBesideSync(step) && wait.thread < out.threads.size() && wait.steps > 0 &&
                    wait.steps <= out.threads[wait.thread].steps.size() &&
                    out.threads[wait.thread].steps[wait.steps - 1].group != 0)
                    wait.begun = true;
    return out;
}

} // namespace

std::optional<ReplayScript> applyVariant(const ReplayScript& script, const ReplayVariant& variant)
{
    switch (variant.kind) {
    case VariantKind::StdioBuffer:
        return withStdioBuffer(script, variant.bytes);
    case VariantKind::Coalesce:
        return coalesced(script, false);
    case VariantKind::Gather:
        return coalesced(script, true);
    case VariantKind::Fdatasync:
        return withFdatasync(script, false);
    case VariantKind::PreallocFdatasync:
        return withFdatasync(script, true);
    case VariantKind::FlushAtSync:
        return flushedAtSync(script);
    case VariantKind::SyncAtClose:
        return syncedAtClose(script);
    case VariantKind::SyncfsBatch:
        return syncfsBatched(script);
    case VariantKind::GroupCommit:
        return groupCommitted(script);
    case VariantKind::StdioUnlocked:
        return unlockedStdio(script);
    case VariantKind::WriterPool:
        return pooledWriters(script);
    case VariantKind::RewriteSegment:
        return rewrittenSegments(script);
    case VariantKind::DirectBatch:
        return directBatched(script, false);
    case VariantKind::MmapBatch:
        return directBatched(script, true);
    case VariantKind::IoUring:
        return queued(script, false);
    case VariantKind::Overlapped:
        return queued(script, true);
    }
    return std::nullopt;
}

std::shared_ptr<const ReplayScript> scriptForVariant(const std::shared_ptr<const ReplayScript>& base,
                                                     std::string_view name)
{
    if (name.empty() || name == kRecordedCalls)
        return base;
    const ReplayVariant variant = parseReplayVariant(name);
    if (!variant.runsOn(base->system))
        throw InputError(fmt::format(
            "the variant {} is a {} way: {} was recorded on {}, where a program has no call that does it",
            variant.name(), base->system == trace::System::Windows ? "Linux" : "Windows", base->traceName,
            base->system == trace::System::Windows ? "Windows" : "Linux"));
    auto script = applyVariant(*base, variant);
    if (!script)
        throw InputError(fmt::format("the variant {} changes nothing in {}: none of the program's calls is "
                                     "one it rewrites (or could rewrite without moving a durability point)",
                                     variant.name(), base->traceName));
    if (!variant.weakens()) {
        const std::string breach =
            contractBreach(*base, durabilityContract(*base), durabilityContract(*script));
        if (!breach.empty())
            throw InputError(fmt::format("the variant {} would not keep {}'s durability ({}): not run",
                                         variant.name(), base->traceName, breach));
    }
    return std::make_shared<const ReplayScript>(std::move(*script));
}

std::vector<ReplayVariant> variantsFor(const ReplayScript& script)
{
    std::vector<ReplayVariant> variants;
    // On Windows fdatasync is FlushFileBuffers, as fsync is, preallocation does not set the end of the file,
    // and syncfs needs a volume's handle (an administrator's): those ways would make the program's own calls,
    // or none it could.
    for (VariantKind kind : kVariantKinds) {
        std::vector<ReplayVariant> ways;
        if (kind == VariantKind::StdioBuffer)
            ways = {ReplayVariant{kind, 64 * kKiB}, ReplayVariant{kind, kMiB}};
        else
            ways = {ReplayVariant{kind, 0}};
        for (const ReplayVariant& variant : ways)
            if (variant.runsOn(script.system) && applyVariant(script, variant))
                variants.push_back(variant);
    }
    return variants;
}

namespace {

// Each way a Windows recording is offered, in the C runtime's and kernel32's calls; nothing for the others
// (Linux ways, whose advice names Windows' calls beside their C).
std::optional<VariantAdvice> windowsAdviceFor(const ReplayVariant& variant)
{
    switch (variant.kind) {
    case VariantKind::StdioBuffer: {
        const std::string size = formatBytes(variant.bytes);
        return VariantAdvice{
            fmt::format("give each stream a {} buffer, and fflush it before each FlushFileBuffers", size),
            fmt::format("FILE *f = fopen(path, \"wb\");\n"
                        "static char buffer[{}];\n"
                        "setvbuf(f, buffer, _IOFBF, sizeof buffer); /* before the first write */\n"
                        "...\n"
                        "fflush(f);            /* the buffer to the system */\n"
                        "_commit(_fileno(f));  /* then to the disk (FlushFileBuffers), as before */",
                        variant.bytes),
            "C++: std::ofstream's rdbuf()->pubsetbuf(buffer, size) before open(); Linux: the same, with "
            "fsync(fileno(f))",
            fmt::format("{} of memory per open stream; the bytes wait longer in the process before a sync "
                        "(a crash of the process, not of the machine, loses them)",
                        size)};
    }
    case VariantKind::Coalesce:
        return VariantAdvice{
            "collect each record in memory and write it with one call instead of many small ones",
            "char record[4096];\n"
            "DWORD used = 0, done;\n"
            "used += (DWORD)snprintf(record + used, sizeof record - used, \"%s;\", field); /* each piece */\n"
            "WriteFile(h, record, used, &done, NULL);   /* or fwrite(record, 1, used, f) */",
            "C++: build the record in a std::string and write it once; Linux: one write(2) per record, or "
            "writev to keep the pieces apart",
            "a buffer as large as the largest record (at most 1 MiB here)"};
    case VariantKind::FlushAtSync:
        return VariantAdvice{
            "call fflush only before each FlushFileBuffers (and let the stream's buffer fill between them) "
            "instead of after every line",
            "fprintf(f, \"%s\\n\", line);   /* no fflush(f) here */\n"
            "...\n"
            "fflush(f);             /* only where the data must be durable: */\n"
            "_commit(_fileno(f));   /* FlushFileBuffers */",
            "C++: '\\n' instead of std::endl (which flushes), and flush() before the sync; Linux: the same, "
            "with fsync(fileno(f))",
            "a reader of the file sees lines when the buffer fills or at the sync, not at once; a crash of "
            "the process loses what its buffer holds (a power cut loses no more than before)"};
    case VariantKind::GroupCommit:
        return VariantAdvice{
            "let the threads that flush one file share a FlushFileBuffers: one thread flushes for all the "
            "records written so far while the others wait for it",
            "AcquireSRWLockExclusive(&m);  mine = ++asked;      /* after this thread's write */\n"
            "while (durable < mine) {\n"
            "    if (flushing) { SleepConditionVariableSRW(&done, &m, INFINITE, 0); continue; }\n"
            "    flushing = TRUE;  upto = asked;  ReleaseSRWLockExclusive(&m);\n"
            "    FlushFileBuffers(h);                           /* one flush for every waiter */\n"
            "    AcquireSRWLockExclusive(&m);  flushing = FALSE;  durable = upto;\n"
            "    WakeAllConditionVariable(&done);\n"
            "}\n"
            "ReleaseSRWLockExclusive(&m);",
            "C++: std::mutex and std::condition_variable the same way; Linux: the same with fdatasync and "
            "pthreads",
            "a thread may wait for a flush another began (its latency is a flush and a half at worst); each "
            "record is still durable before its thread goes on"};
    case VariantKind::WriterPool:
        return VariantAdvice{
            fmt::format("write the files from a pool of {} threads, each file still written, flushed, closed "
                        "and renamed into place in that order",
                        kWriterPoolThreads),
            "/* each of 4 threads takes the files i, i + 4, i + 8, ... */\n"
            "for (i = first; i < n; i += 4) {\n"
            "    h = CreateFileW(tmp[i], GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);\n"
            "    WriteFile(h, data[i], size[i], &done, NULL);\n"
            "    FlushFileBuffers(h);  CloseHandle(h);\n"
            "    MoveFileExW(tmp[i], final[i], MOVEFILE_REPLACE_EXISTING);\n"
            "}",
            "C++: std::thread or std::async over the list of files; Windows' thread pool: "
            "SubmitThreadpoolWork; "
            "Linux: the same with open, write, fsync and rename",
            "the files are published in another order than one after another: a reader that expects them in "
            "order must not rely on it; a device that does not gain from flushes in flight together gains "
            "nothing"};
    case VariantKind::RewriteSegment:
        return VariantAdvice{
            "write each log file ahead to its full size once (or reuse the last one, as databases recycle "
            "their log segments), then overwrite it in place",
            "/* ahead of time, once: the segment's blocks written and durable */\n"
            "static char zeros[64 * 1024];\n"
            "HANDLE h = CreateFileW(path, GENERIC_WRITE, 0, NULL, OPEN_ALWAYS, 0, NULL);\n"
            "for (off = 0; off < segment_size; off += sizeof zeros)\n"
            "    WriteFile(h, zeros, sizeof zeros, &done, NULL);\n"
            "FlushFileBuffers(h);\n"
            "/* then each record, in place (OPEN_EXISTING, no truncation, no FILE_APPEND_DATA): */\n"
            "OVERLAPPED at = {0};  at.Offset = (DWORD)offset;  at.OffsetHigh = (DWORD)(offset >> 32);\n"
            "WriteFile(h, record, len, &done, &at);  offset += len;\n"
            "FlushFileBuffers(h);   /* no new end, no new clusters to make durable */",
            "Linux: the same with pwrite and fdatasync; C++: none in the standard library (an fstream opened "
            "in|out does not truncate)",
            "measured without writing the segment ahead (done before the timed part, as for a segment "
            "reused), and without creating the file: a new segment costs one more write of its size and a "
            "flush; after a power cut the file has its full size with old bytes past the last record, so a "
            "reader must find where the records end (a length or a checksum in each)"};
    case VariantKind::SyncAtClose:
        return VariantAdvice{
            "flush each file once, at its end, instead of at every point",
            "/* the flushes before the last removed */\nFlushFileBuffers(h);\nCloseHandle(h);",
            "Linux: one fsync before close",
            "a power cut loses everything written since the file was opened: the program's "
            "own durability points are gone"};
    case VariantKind::DirectBatch:
        return VariantAdvice{
            "gather the writes between two syncs in a sector-aligned buffer of your own and write it to a "
            "handle opened FILE_FLAG_NO_BUFFERING | FILE_FLAG_WRITE_THROUGH, one WriteFile per batch of up "
            "to 1 MiB, instead of writes through the cache and FlushFileBuffers",
            "HANDLE h = CreateFileW(path, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS,\n"
            "                       FILE_FLAG_NO_BUFFERING | FILE_FLAG_WRITE_THROUGH, NULL);\n"
            "char *batch = VirtualAlloc(NULL, 1 << 20, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);\n"
            "/* each record copied into batch at `used`; at each sync point: */\n"
            "ULONGLONG start = written / 4096 * 4096;                /* the partial block again */\n"
            "ULONGLONG end = (written + used + 4095) / 4096 * 4096;  /* padded to a whole block */\n"
            "OVERLAPPED at = {0};  at.Offset = (DWORD)start;  at.OffsetHigh = (DWORD)(start >> 32);\n"
            "WriteFile(h, batch, (DWORD)(end - start), &done, &at);  /* durable when it returns */\n"
            "/* keep the last partial block at the buffer's start; at the end, the size: */\n"
            "FILE_END_OF_FILE_INFO eof;  eof.EndOfFile.QuadPart = written;\n"
            "SetFileInformationByHandle(h, FileEndOfFileInfo, &eof, sizeof eof);  FlushFileBuffers(h);",
            "Linux: open with O_DIRECT | O_DSYNC, a posix_memalign'ed buffer, pwrite, then ftruncate; C++: "
            "none in the standard library",
            "the buffer, its offsets and its sizes must be multiples of the volume's sector (4 KiB covers "
            "every sector size in use), and the program keeps the last partial block to write it again; no "
            "cache (a reader of the file reads from the disk); between two syncs the bytes wait in the "
            "program's buffer, not in the system's cache, so a crash of the process loses them where "
            "WriteFile had handed them over; until the end the file ends with up to 4,095 B of padding "
            "(cut then, and flushed, as the replay does)"};
    case VariantKind::MmapBatch:
        return VariantAdvice{
            "gather the writes between two syncs in a batch buffer mapped from a file of its own and write "
            "it to a handle opened FILE_FLAG_NO_BUFFERING | FILE_FLAG_WRITE_THROUGH at each sync point, one "
            "WriteFile per batch of up to 1 MiB",
            "HANDLE scratch = CreateFileW(batch_path, GENERIC_READ | GENERIC_WRITE, 0, NULL, CREATE_ALWAYS,\n"
            "                             FILE_ATTRIBUTE_TEMPORARY | FILE_FLAG_DELETE_ON_CLOSE, NULL);\n"
            "HANDLE map = CreateFileMappingW(scratch, NULL, PAGE_READWRITE, 0, 1 << 20, NULL);\n"
            "char *batch = MapViewOfFile(map, FILE_MAP_WRITE, 0, 0, 1 << 20);\n"
            "HANDLE h = CreateFileW(path, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS,\n"
            "                       FILE_FLAG_NO_BUFFERING | FILE_FLAG_WRITE_THROUGH, NULL);\n"
            "/* each record copied into batch; at each sync point, as for direct-batch: */\n"
            "WriteFile(h, batch, (DWORD)(end - start), &done, &at);  /* whole blocks, durable */",
            "Linux: mmap(MAP_SHARED) of the batch file, pwrite to an O_DIRECT | O_DSYNC descriptor; C++: "
            "none "
            "in the standard library",
            "what direct-batch costs (sector-aligned offsets and sizes, the partial block written again, "
            "padding until the end), and a mapped file as large as the batch, whose dirty pages the system "
            "also writes back; a program that keeps that file can find the batch in it after a crash of the "
            "process (with recovery code of its own: the replay's is deleted at its close, and it measures "
            "only the writing), a power cut still loses it"};
    case VariantKind::Overlapped:
        return VariantAdvice{
            "open the file FILE_FLAG_OVERLAPPED and put the writes between two syncs in flight together "
            "(up to 63), then FlushFileBuffers once every one completed, instead of one WriteFile after "
            "another",
            "HANDLE h = CreateFileW(path, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, FILE_FLAG_OVERLAPPED, "
            "NULL);\n"
            "OVERLAPPED ov[63];  HANDLE ev[63];  /* ev[i] = CreateEventW(NULL, TRUE, FALSE, NULL) */\n"
            "for (i = 0; i < n; i++) {                     /* the writes, in flight together */\n"
            "    memset(&ov[i], 0, sizeof ov[i]);  ov[i].hEvent = ev[i];\n"
            "    ov[i].Offset = (DWORD)offset;  ov[i].OffsetHigh = (DWORD)(offset >> 32);\n"
            "    if (!WriteFile(h, rec[i], len[i], NULL, &ov[i]) && GetLastError() != ERROR_IO_PENDING)\n"
            "        fail();\n"
            "    offset += len[i];\n"
            "}\n"
            "for (i = 0; i < n; i++)                       /* each completion checked, a short one too */\n"
            "    if (!GetOverlappedResult(h, &ov[i], &done, TRUE) || done != len[i])\n"
            "        fail();\n"
            "FlushFileBuffers(h);                          /* after every write before it */",
            "Linux: io_uring (the io-uring way); C++: none in the standard library (asio's random-access "
            "handles)",
            "every WriteFile on the handle takes its offset (an overlapped handle has no file position); "
            "each "
            "buffer must stay unchanged until its write completed, and each completion must be checked; the "
            "cache manager completes many cached writes at once, and NTFS makes a write that extends the "
            "file "
            "wait for itself (a file written from its start gains little unless its end is set ahead, which "
            "the replay does not do), so what is gained is in the writes that would have waited; at most 63 "
            "writes in flight here, so a run of more between two syncs waits for them every 63"};
    default:
        return std::nullopt;
    }
}

} // namespace

VariantAdvice adviceFor(const ReplayVariant& variant, trace::System system)
{
    if (system == trace::System::Windows || variant.kind == VariantKind::Overlapped)
        if (std::optional<VariantAdvice> words = windowsAdviceFor(variant))
            return *std::move(words);
    switch (variant.kind) {
    case VariantKind::StdioBuffer: {
        const std::string size = formatBytes(variant.bytes);
        return {fmt::format("give each stream a {} buffer, and fflush it before each fsync", size),
                fmt::format("FILE *f = fopen(path, \"w\");\n"
                            "static char buffer[{}];\n"
                            "setvbuf(f, buffer, _IOFBF, sizeof buffer); /* before the first write */\n"
                            "...\n"
                            "fflush(f);          /* the buffer to the system */\n"
                            "fsync(fileno(f));   /* then to the disk, as before */",
                            variant.bytes),
                "C++: std::ofstream's rdbuf()->pubsetbuf(buffer, size) before open(); Windows: setvbuf "
                "works the same in the C runtime (_commit(_fileno(f)) for the sync)",
                fmt::format("{} of memory per open stream; the bytes wait longer in the process before a "
                            "sync (a crash of the process, not of the machine, loses them)",
                            size)};
    }
    case VariantKind::Coalesce:
        return {
            "collect each record in memory and write it with one call instead of many small ones",
            "char record[4096];\n"
            "size_t used = 0;\n"
            "used += snprintf(record + used, sizeof record - used, \"%s;\", field);  /* each piece */\n"
            "fwrite(record, 1, used, f);   /* or write(fd, record, used) */",
            "C++: build the record in a std::string and write it once; Windows: one WriteFile per record; "
            "writev(2) keeps pieces apart in one call",
            "a buffer as large as the largest record (at most 1 MiB here)"};
    case VariantKind::Fdatasync:
        return {
            "call fdatasync instead of fsync where the file's size has not changed since its last sync",
            "fdatasync(fd);   /* instead of fsync(fd): the data, and only the metadata needed to read it */",
            "Windows: FlushFileBuffers has no data-only form; NtFlushBuffersFileEx with "
            "FLUSH_FLAGS_FILE_DATA_SYNC_ONLY is its equivalent",
            "none; the file's times (mtime) may not survive a power cut"};
    case VariantKind::PreallocFdatasync:
        return {"preallocate each file to its final size when you create it, then fdatasync instead of fsync",
                "int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);\n"
                "posix_fallocate(fd, 0, final_size);   /* the size is there from the start */\n"
                "...\n"
                "fdatasync(fd);   /* no size change left to make durable */",
                "Windows: SetFileInformationByHandle(FileAllocationInfo) then SetEndOfFile; C++: none in the "
                "standard library (std::filesystem::resize_file writes no blocks)",
                "the final size must be known when the file is created; a reader sees zeros past the data "
                "written so far"};
    case VariantKind::FlushAtSync:
        return {
            "call fflush only before fsync (and let the stream's buffer fill between them) instead of after "
            "every line",
            "fprintf(f, \"%s\\n\", line);   /* no fflush(f) here */\n"
            "...\n"
            "fflush(f);           /* only where the data must be durable: */\n"
            "fsync(fileno(f));",
            "C++: '\\n' instead of std::endl (which flushes), and flush() before the sync; Windows: the same "
            "in the C runtime, then _commit(_fileno(f))",
            "a reader of the file (tail -f) sees lines when the buffer fills or at the sync, not at once; a "
            "crash of the process loses what its buffer holds (a power cut loses no more than before)"};
    case VariantKind::SyncfsBatch:
        return {"write and close the whole batch of files first, make them durable with one syncfs, then "
                "rename each into place",
                "for (i = 0; i < n; i++) {               /* each file written and closed, no fsync */\n"
                "    fd = open(tmp[i], O_WRONLY | O_CREAT | O_TRUNC, 0644);\n"
                "    write(fd, data[i], size[i]);\n"
                "    if (i < n - 1) close(fd);\n"
                "}\n"
                "syncfs(fd);  close(fd);                /* every file durable at once */\n"
                "for (i = 0; i < n; i++)\n"
                "    rename(tmp[i], final[i]);           /* then published, as before only when durable */",
                "Linux only (syncfs since 2.6.39); C++: std::filesystem::rename for the renames, syncfs "
                "through any descriptor on the filesystem; Windows has no call for it without an "
                "administrator's volume handle",
                "syncfs writes every dirty file of that filesystem, other programs' too, so its time grows "
                "with their writes; the files are published later: a power cut before the batch's renames "
                "finds none of its files under their new names, where the program would have published "
                "those written so far (each file published is still durable)"};
    case VariantKind::GroupCommit:
        return {
            "let the threads that sync one file share a sync: one thread syncs for all the records "
            "written so far while the others wait for it",
            "pthread_mutex_lock(&m);  mine = ++asked;            /* after this thread's write */\n"
            "while (durable < mine) {\n"
            "    if (syncing) { pthread_cond_wait(&done, &m); continue; }\n"
            "    syncing = 1;  upto = asked;  pthread_mutex_unlock(&m);\n"
            "    fdatasync(fd);                                 /* one sync for every waiter */\n"
            "    pthread_mutex_lock(&m);  syncing = 0;  durable = upto;\n"
            "    pthread_cond_broadcast(&done);\n"
            "}\n"
            "pthread_mutex_unlock(&m);",
            "C++: std::mutex and std::condition_variable the same way; Windows: the same with "
            "FlushFileBuffers, SRWLOCK and CONDITION_VARIABLE",
            "a thread may wait for a sync another began (its latency is a sync and a half at worst); each "
            "record is still durable before its thread goes on"};
    case VariantKind::Gather:
        return {
            "hand each record's pieces to one writev instead of a write each, the pieces left where they are",
            "struct iovec piece[3] = {{header, header_len}, {body, body_len}, {\"\\n\", 1}};\n"
            "writev(fd, piece, 3);   /* one call, no copy into one buffer */",
            "Linux and POSIX: writev, pwritev; C++: none in the standard library (asio's gather writes); "
            "Windows: WriteFileGather only for unbuffered, page-aligned pieces, so a single WriteFile of a "
            "buffer there",
            "at most 1,024 pieces a call (IOV_MAX); the pieces must stay unchanged until the call returns"};
    case VariantKind::WriterPool:
        return {
            fmt::format("write the files from a pool of {} threads, each file still written, synced, closed "
                        "and renamed into place in that order",
                        kWriterPoolThreads),
            "/* each of 4 threads takes the files i, i + 4, i + 8, ... */\n"
            "for (i = first; i < n; i += 4) {\n"
            "    fd = open(tmp[i], O_WRONLY | O_CREAT | O_TRUNC, 0644);\n"
            "    write(fd, data[i], size[i]);\n"
            "    fsync(fd);  close(fd);\n"
            "    rename(tmp[i], final[i]);\n"
            "}",
            "C++: std::thread or std::async over the list of files; Windows: the same with CreateFile, "
            "WriteFile, FlushFileBuffers and MoveFileEx on a thread pool (SubmitThreadpoolWork)",
            "the files are published in another order than one after another: a reader that expects them in "
            "order must not rely on it; a device that does not gain from syncs in flight together gains "
            "nothing"};
    case VariantKind::StdioUnlocked:
        return {
            "write through each stream with the unlocked calls (fwrite_unlocked, fputc_unlocked) where one "
            "thread owns it, or take its lock once around a batch (flockfile)",
            "flockfile(f);                             /* once, around the batch */\n"
            "for (i = 0; i < n; i++)\n"
            "    fwrite_unlocked(rec[i], 1, len[i], f); /* no lock taken per call */\n"
            "funlockfile(f);",
            "glibc: fwrite_unlocked, fputc_unlocked, fputs_unlocked; Windows (the Universal CRT): "
            "_fwrite_nolock, _fputc_nolock, with _lock_file/_unlock_file; C++: one std::ofstream per "
            "thread (it takes no lock of its own)",
            "a stream shared between threads must then be locked by the program (flockfile), or its "
            "buffer is corrupted"};
    case VariantKind::RewriteSegment:
        return {
            "write each log file ahead to its full size once (or reuse the last one, as databases recycle "
            "their log segments), then overwrite it in place and sync with fdatasync",
            "/* ahead of time, once: the segment's blocks written and durable */\n"
            "static char zeros[64 * 1024];   /* 64 KiB writes: see the cost */\n"
            "int fd = open(path, O_WRONLY | O_CREAT, 0644);\n"
            "for (off = 0; off < segment_size; off += sizeof zeros)\n"
            "    pwrite(fd, zeros, sizeof zeros, off);\n"
            "fsync(fd);\n"
            "/* then each record, in place (no O_TRUNC, no O_APPEND): */\n"
            "pwrite(fd, record, len, offset);  offset += len;\n"
            "fdatasync(fd);   /* no new size, no new blocks: only the data */",
            "Windows: the same with CreateFile(OPEN_ALWAYS) on the written-ahead file, WriteFile at the "
            "offset and FlushFileBuffers; C++: none in the standard library (an fstream opened in|out "
            "does not truncate)",
            "measured without writing the segment ahead (done before the timed part, as for a segment "
            "reused), and without creating the file (its folder entry is there already): a new segment "
            "costs one more write of its size and a sync; after a power cut the file has its "
            "full size with old bytes past the last record, so a reader must find where the records "
            "end (a length or a checksum in each); how the segment is written ahead matters on Linux 6.x, "
            "whose page cache keeps a file in pieces as large as the writes that made it: overwriting one "
            "written ahead in 4 KiB writes took a third longer here than one written in 64 KiB writes, "
            "which is what IOLab writes ahead with"};
    case VariantKind::DirectBatch:
        return {"gather the writes between two syncs in an aligned buffer of your own and write it with "
                "O_DIRECT | O_DSYNC, one call per batch of up to 1 MiB, instead of writes through the page "
                "cache and a sync",
                "int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_DIRECT | O_DSYNC, 0644);\n"
                "void *batch;  posix_memalign(&batch, 4096, 1 << 20);\n"
                "/* each record copied into batch at `used`; at each sync point: */\n"
                "size_t start = written / 4096 * 4096;                 /* the partial block again */\n"
                "size_t end = (written + used + 4095) / 4096 * 4096;   /* padded to a whole block */\n"
                "pwrite(fd, batch, end - start, start);                /* durable when it returns */\n"
                "/* keep the last partial block at the buffer's start; at the end: */\n"
                "ftruncate(fd, written);",
                "Windows: CreateFile with FILE_FLAG_NO_BUFFERING | FILE_FLAG_WRITE_THROUGH, sector-aligned "
                "buffers from VirtualAlloc, then SetFileInformationByHandle(FileEndOfFileInfo) for the size; "
                "C++: none in the standard library",
                "the buffer, its offsets and its sizes must be aligned to the device's block (4 KiB here), "
                "and the program keeps the last partial block to write it again; no page cache (a reader "
                "of the file reads from the disk); between two syncs the bytes wait in the program's buffer, "
                "not in the kernel, so a crash of the process (a kill, the OOM killer) loses them where "
                "write(2) had handed them over; until the close the file ends with up to 4,095 B of "
                "padding (cut then, with an fdatasync, as the replay does); some file systems refuse "
                "O_DIRECT (tmpfs before Linux 6.6)"};
    case VariantKind::MmapBatch:
        return {
            "gather the writes between two syncs in a batch buffer mapped from a file of its own "
            "(MAP_SHARED) "
            "and write it with O_DIRECT | O_DSYNC at each sync point, one call per batch of up to 1 MiB",
            "int scratch = open(batch_path, O_RDWR | O_CREAT, 0600);  ftruncate(scratch, 1 << 20);\n"
            "char *batch = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_SHARED, scratch, 0);\n"
            "int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_DIRECT | O_DSYNC, 0644);\n"
            "/* each record copied into batch at `used`; at each sync point, as for direct-batch: */\n"
            "pwrite(fd, batch, end - start, start);   /* whole blocks, durable when it returns */",
            "Windows: CreateFileMapping and MapViewOfFile for the batch, WriteFile to a handle opened "
            "FILE_FLAG_NO_BUFFERING | FILE_FLAG_WRITE_THROUGH; C++: none in the standard library",
            "what direct-batch costs (aligned offsets and sizes, the partial block written again, padding "
            "until the close, no O_DIRECT on some file systems), and a mapped file as large as the batch, "
            "whose dirty pages the kernel also writes back; a program that keeps that file can find the "
            "batch in it after a crash of the process (with recovery code of its own: the replay unlinks "
            "the file, and measures only the writing), a power cut still loses it"};
    case VariantKind::IoUring:
        return {
            "queue the writes between two syncs and the sync itself on io_uring and submit them together "
            "(one call for up to 63 requests), the sync drained after the writes, instead of a system "
            "call for each",
            "struct io_uring ring;  io_uring_queue_init(64, &ring, 0);\n"
            "for (i = 0; i < n; i++) {                        /* the writes, queued */\n"
            "    sqe = io_uring_get_sqe(&ring);\n"
            "    io_uring_prep_write(sqe, fd, rec[i], len[i], offset);  offset += len[i];\n"
            "}\n"
            "sqe = io_uring_get_sqe(&ring);\n"
            "io_uring_prep_fsync(sqe, fd, 0);\n"
            "sqe->flags |= IOSQE_IO_DRAIN;                   /* after every write before it */\n"
            "io_uring_submit_and_wait(&ring, n + 1);         /* one call; then each completion checked */",
            "liburing on Linux 5.1 or later (IORING_FSYNC_DATASYNC for fdatasync); Windows: overlapped "
            "WriteFile on a FILE_FLAG_OVERLAPPED handle, then FlushFileBuffers once they completed (the "
            "overlapped way); C++: none in the standard library",
            "a kernel with io_uring allowed (kernel.io_uring_disabled, or a container's seccomp profile, "
            "can refuse it); each buffer must stay unchanged until its completion, and each completion "
            "must be checked, a short write too; a write queued and not yet submitted is still in the "
            "process (a crash of it loses what write(2) had handed over); at most 63 requests in flight "
            "here, so a run of more writes between two syncs takes one call per 63"};
    case VariantKind::Overlapped: // windowsAdviceFor's
        break;
    case VariantKind::SyncAtClose:
        return {"sync each file once, at its end, instead of at every point",
                "/* the syncs before the last removed */\nfsync(fd);\nclose(fd);",
                "Windows: one FlushFileBuffers before CloseHandle",
                "a power cut loses everything written since the file was opened: the program's own "
                "durability points are gone"};
    }
    return {};
}

} // namespace iolab
