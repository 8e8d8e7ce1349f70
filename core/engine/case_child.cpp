// SPDX-License-Identifier: MIT
#include "core/engine/case_child.h"

#include "core/base/error.h"
#include "core/engine/deadline.h"
#include "core/engine/exposure.h"
#include "core/engine/job_execution.h"
#include "core/engine/pattern.h"
#include "core/engine/registry.h"
#include "core/model/case_json.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <new>
#include <thread>

namespace iolab {

namespace childlink {

namespace {

template <std::size_t N> void copyText(std::array<char, N>& into, std::string_view text)
{
    const std::size_t n = std::min(text.size(), N - 1);
    std::memcpy(into.data(), text.data(), n);
    into[n] = '\0';
}

template <std::size_t N> std::string textOf(const std::array<char, N>& from)
{
    return std::string(from.data(), strnlen(from.data(), N));
}

} // namespace

std::int64_t nanosecondsOf(TimingClock::time_point at)
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(at.time_since_epoch()).count();
}

TimingClock::time_point timePointOf(std::int64_t nanoseconds)
{
    return TimingClock::time_point(
        std::chrono::duration_cast<TimingClock::duration>(std::chrono::nanoseconds(nanoseconds)));
}

void Link::initialize(std::byte* base, std::uint32_t threads, std::int64_t parentPid,
                      std::string_view request)
{
    auto* header = new (base) Header{};
    header->magic = kMagic;
    header->version = kVersion;
    header->threads = threads;
    header->requestBytes = request.size();
    header->parentPid = parentPid;
    for (std::uint32_t t = 0; t < threads; ++t) {
        new (base + progressOffset(t)) Progress{};
        new (base + threadEndOffset(threads, t)) ThreadEnd{};
    }
    new (base + latencyOffset(threads)) CallLatency{};
    std::memcpy(base + requestOffset(threads), request.data(), request.size());
}

bool Link::valid() const
{
    if (m_size < kHeaderBytes)
        return false;
    const Header& h = header();
    return h.magic == kMagic && h.version == kVersion && h.threads >= 1 && h.threads <= kMaxThreads &&
           blockBytes(h.threads, h.requestBytes) <= m_size;
}

std::string_view Link::request() const
{
    const Header& h = header();
    return {reinterpret_cast<const char*>(m_base + requestOffset(h.threads)), h.requestBytes};
}

std::uint64_t Link::acknowledgedBytes() const
{
    std::uint64_t sum = 0;
    for (std::uint32_t t = 0; t < header().threads; ++t)
        sum += progress(t).bytes.load(std::memory_order_relaxed);
    return sum;
}

void Link::publishOutcome(const Outcome& outcome, State state) const
{
    Header& h = header();
    h.status = static_cast<std::int32_t>(outcome.status);
    h.code = outcome.errorCode;
    copyText(h.operation, outcome.operation);
    copyText(h.message, outcome.message);
    setState(state);
}

Outcome Link::outcome() const
{
    const Header& h = header();
    return {static_cast<Status>(h.status), h.code, textOf(h.operation), textOf(h.message)};
}

} // namespace childlink

std::string childRequestToJson(const ChildRequest& request)
{
    nlohmann::json threads = nlohmann::json::array();
    for (const auto& t : request.threads) {
        threads.push_back({{"path", t.path}, {"auxPath", t.auxPath}, {"bytes", t.bytes}});
        if (t.holdAtBytes != Progress::kNoHold)
            threads.back()["holdAtBytes"] = t.holdAtBytes;
    }
    nlohmann::json target;
    to_json(target, request.target);
    return nlohmann::json{{"case", caseToJson(request.testCase)},
                          {"target", target},
                          {"threads", threads},
                          {"everyCall", request.everyCall},
                          {"measured", request.measured},
                          {"latency", request.latency}}
        .dump();
}

ChildRequest childRequestFromJson(std::string_view text)
{
    try {
        const auto j = nlohmann::json::parse(text);
        ChildRequest request;
        request.testCase = caseFromJson(j.at("case"));
        from_json(j.at("target"), request.target);
        for (const auto& t : j.at("threads"))
            request.threads.push_back({t.at("path").get<std::string>(), t.at("auxPath").get<std::string>(),
                                       t.at("bytes").get<std::uint64_t>(),
                                       t.value("holdAtBytes", Progress::kNoHold)});
        request.everyCall = j.at("everyCall").get<bool>();
        request.measured = j.at("measured").get<bool>();
        request.latency = j.at("latency").get<bool>();
        return request;
    } catch (const nlohmann::json::exception& e) {
        throw InputError(fmt::format("case child request: {}", e.what()));
    }
}

void Progress::holdForKill() noexcept
{
    holdState.store(Held, std::memory_order_release);
    // Untimed, in a probe's child only: it waits here, right after the call that reached its point, until the
    // runner kills the process; the runner's stop (a cancelled run) lets the loop end as cancelled.
    // Acquire: what the stopping thread read or wrote before its stop (a test looks at the queue's requests
    // still in flight) happens before the loop goes on and reaps them.
    while (stop == nullptr || !stop->load(std::memory_order_acquire))
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

int runCaseChild(const childlink::Link& link, const Registry& registry, SystemProbe* probe)
{
    using childlink::nanosecondsOf;
    using childlink::State;
    ChildRequest request;
    try {
        request = childRequestFromJson(link.request());
    } catch (const InputError& e) {
        link.publishOutcome({Status::Failed, 0, "case child", e.what()}, State::Failed);
        return 2;
    }
    const Strategy* strategy = registry.find(request.testCase.strategy);
    if (strategy == nullptr || request.threads.size() != link.header().threads) {
        link.publishOutcome({Status::Failed, 0, "case child",
                             fmt::format("no strategy '{}' in this program, or a thread count that does not "
                                         "match the block",
                                         request.testCase.strategy)},
                            State::Failed);
        return 2;
    }

    const Pattern pattern(request.testCase.chunkBytes, request.testCase.pattern);
    std::vector<std::unique_ptr<Job>> jobs;
    // The threads' own histograms, as the runner's own process keeps them; merged into the block at the end.
    std::vector<std::unique_ptr<CallLatency>> latency;
    for (std::uint32_t t = 0; t < request.threads.size(); ++t) {
        JobSpec spec;
        spec.testCase = request.testCase;
        spec.thread = t;
        spec.bytes = request.threads[t].bytes;
        spec.path = request.threads[t].path;
        spec.auxPath = request.threads[t].auxPath;
        spec.pattern = &pattern;
        spec.target = request.target;
        if (request.measured && request.latency) {
            latency.push_back(std::make_unique<CallLatency>());
            spec.latency = latency.back().get();
        }
        Outcome outcome;
        auto job = strategy->prepare(spec, outcome);
        if (job == nullptr) {
            if (outcome.ok())
                outcome = {Status::Failed, 0, "prepare", "the strategy could not start"};
            link.publishOutcome(outcome, State::Failed);
            return 0;
        }
        jobs.push_back(std::move(job));
        Progress& progress = link.progress(t);
        progress.stop = &link.header().stop;
        progress.everyCall = request.everyCall;
        progress.holdAtBytes = request.threads[t].holdAtBytes;
    }

    link.setState(State::Ready);
    // Polled, untimed: Windows has no wait on an address across processes, so both OSes poll.
    while (link.header().go.load(std::memory_order_acquire) == 0 &&
           !link.header().stop.load(std::memory_order_relaxed))
        std::this_thread::sleep_for(std::chrono::microseconds(100));
    if (link.header().stop.load(std::memory_order_relaxed)) {
        link.publishOutcome(Outcome::cancelled(), State::Finished);
        return 0;
    }
    link.setState(State::Running);

    // A measured run ends at the case's time limit, counted from the moment its clock starts.
    std::atomic<bool> timeUp{false};
    std::optional<Deadline> deadline;
    const bool limited = request.measured && request.testCase.timeLimitMs != 0;
    for (std::uint32_t t = 0; t < jobs.size(); ++t)
        link.progress(t).timeUp = limited ? &timeUp : nullptr;
    const ProcessCounters cpuBefore = probe != nullptr ? probe->process() : ProcessCounters{};
    std::vector<Outcome> outcomes(jobs.size());
    // As the runner's executeJobs does; what the runner's exposure needs beyond the thread's Progress goes
    // into the block.
    const bool jobEndsDurable =
        exposurePlan(request.testCase, strategy->info()).point != DurablePoint::RunEnd;
    const auto execute = [&](std::uint32_t t) {
        ThreadExposure exposure;
        outcomes[t] = executeJob(*jobs[t], link.progress(t), jobEndsDurable, exposure);
        link.threadEnd(t) = {nanosecondsOf(exposure.ended), exposure.durable};
        // A probe's thread that ended without reaching its point: the runner must not wait for it to hold.
        auto running = static_cast<std::uint32_t>(Progress::Running);
        link.progress(t).holdState.compare_exchange_strong(running, Progress::Ended,
                                                           std::memory_order_release);
    };
    const auto started = executeThreads(static_cast<std::uint32_t>(jobs.size()), execute, [&] {
        if (limited)
            deadline.emplace(request.testCase.timeLimitMs, timeUp);
    });
    const auto returned = TimingClock::now();
    deadline.reset();
    const ProcessCounters cpuAfter = probe != nullptr ? probe->process() : ProcessCounters{};
    childlink::Header& h = link.header();
    h.startedNs = nanosecondsOf(started);
    h.returnedNs = nanosecondsOf(returned);
    if (!latency.empty()) {
        CallLatency& merged = link.latency();
        for (const auto& thread : latency) {
            merged.calls.merge(thread->calls);
            merged.syncs.merge(thread->syncs);
        }
        h.latencyRecorded = 1;
    }
    h.timeLimitReached = timeUp.load(std::memory_order_relaxed) && !h.stop.load(std::memory_order_relaxed);
    h.cpuUserSeconds = cpuAfter.userSeconds - cpuBefore.userSeconds;
    h.cpuSystemSeconds = cpuAfter.systemSeconds - cpuBefore.systemSeconds;
    Outcome outcome;
    for (std::size_t t = 0; t < jobs.size(); ++t) {
        mergeOutcome(outcome, std::move(outcomes[t]));
        mergeOutcome(outcome, jobs[t]->finish());
    }
    jobs.clear();
    link.publishOutcome(outcome, State::Finished);
    return 0;
}

} // namespace iolab
