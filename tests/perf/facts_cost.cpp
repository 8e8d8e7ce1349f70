// SPDX-License-Identifier: MIT
// How long gathering a target's system facts takes (issue 18 asks for under 200 ms): inspectTarget, then
// gatherSystemFacts, each timed over N rounds for every folder given; prints the median and the slowest.
//   facts_cost [--rounds N] FOLDER...
#include "platform/platform.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

double milliseconds(std::chrono::steady_clock::duration d)
{
    return std::chrono::duration<double, std::milli>(d).count();
}

} // namespace

int main(int argc, char** argv)
{
    int rounds = 50;
    std::vector<std::string> folders;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
            rounds = std::max(1, std::atoi(argv[++i]));
        else
            folders.emplace_back(argv[i]);
    }
    if (folders.empty()) {
        std::fprintf(stderr, "usage: facts_cost [--rounds N] FOLDER...\n");
        return 2;
    }
    for (const auto& folder : folders) {
        std::vector<double> inspect;
        std::vector<double> facts;
        std::size_t count = 0;
        for (int r = 0; r < rounds; ++r) {
            const auto started = std::chrono::steady_clock::now();
            const auto target = iolab::inspectTarget(folder);
            const auto inspected = std::chrono::steady_clock::now();
            const auto gathered = iolab::gatherSystemFacts(target);
            const auto done = std::chrono::steady_clock::now();
            inspect.push_back(milliseconds(inspected - started));
            facts.push_back(milliseconds(done - inspected));
            count = 0;
            for (const auto& section : gathered.sections)
                count += section.facts.size();
        }
        std::sort(inspect.begin(), inspect.end());
        std::sort(facts.begin(), facts.end());
        std::printf("%s: %zu facts; gatherSystemFacts median %.2f ms, slowest %.2f ms; inspectTarget median "
                    "%.2f ms (%d rounds)\n",
                    folder.c_str(), count, facts[facts.size() / 2], facts.back(), inspect[inspect.size() / 2],
                    rounds);
    }
    return 0;
}
