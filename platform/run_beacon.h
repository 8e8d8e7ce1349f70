// SPDX-License-Identifier: MIT
// A sign, seen by every IOLab process on this machine, that a run is writing somewhere on one filesystem.
// Two runs in one target folder find each other by their run folders (liveRunsIn); two runs in different
// folders of one filesystem (or Windows volume) only by this. A beacon writes nothing on any disk and goes
// away with its process, even a killed one: Linux binds an abstract unix socket named after the filesystem's
// device number and the pid (listed in /proc/net/unix); Windows creates a named mutex after the volume's
// serial number and the pid, and others look for it by the pids of running processes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace iolab {

class RunBeacon
{
public:
    RunBeacon() = default;
    // Lights the beacon for the filesystem holding `folder`; a folder it cannot identify lights none (the
    // beacon is a courtesy to other runs, never a reason to fail this one).
    explicit RunBeacon(const std::string& folder);
    ~RunBeacon();
    RunBeacon(RunBeacon&& other) noexcept;
    RunBeacon& operator=(RunBeacon&& other) noexcept;
    RunBeacon(const RunBeacon&) = delete;
    RunBeacon& operator=(const RunBeacon&) = delete;

    bool lit() const { return m_handle != kNone; }

private:
    static constexpr std::intptr_t kNone = -1;
    std::intptr_t m_handle = kNone; // the socket (Linux) or mutex handle (Windows)
};

// Whether process `pid` (this one included) has a beacon lit on the filesystem holding `folder`.
bool beaconLit(const std::string& folder, long pid);

// The processes other than this one whose beacon is lit on the filesystem holding `folder`, in pid order.
// Empty when the folder cannot be identified.
std::vector<long> runsOnFilesystemOf(const std::string& folder);

} // namespace iolab
