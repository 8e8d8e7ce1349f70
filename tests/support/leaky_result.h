// SPDX-License-Identifier: MIT
// A result carrying every kind of name a shared result must not (core/formats/result_redact.h): the host's
// name, a target under a user's home folder, a recorded trace's path, a Windows user's folder in a reason, a
// serial number and a MAC address among the facts. Used by the redaction tests of the core, the CLI's
// report and the PDF.
#pragma once

#include "core/model/result.h"

#include <string>
#include <vector>

namespace iolab::test {

// What must not survive redaction, each as it appears in the result.
inline const std::vector<std::string> kLeakyNames = {"alices-laptop", "alice", "acme-secret",
                                                     "S3Z9NB0K123456X", "52:54:00:AB:CD:EF"};

inline RunResult leakyResult()
{
    RunResult r;
    r.toolVersion = "0.6.0";
    r.startedAt = "2026-11-30T10:00:00Z";
    r.finishedAt = "2026-11-30T10:01:00Z";
    r.host = {"alices-laptop", "Debian GNU/Linux 12", "Linux 6.1", "AMD EPYC", 2, 24ULL << 30};
    r.target.path = "/home/alice/acme-secret/bench";
    r.target.mountPoint = "/home";
    r.target.fsType = "ext4";
    r.target.device = "nvme0n1";
    r.system.gathered = true;
    r.system.sections = {
        {"Device",
         {{"device.model", "Model", "Samsung SSD 980", "", "/sys/block/nvme0n1/device/model"},
          {"device.serial", "Serial number", "S3Z9NB0K123456X", "", "/sys/block/nvme0n1/device/serial"}}},
        {"Machine",
         {{"machine.nic", "Network", "eth0 52:54:00:AB:CD:EF, up", "", "/sys/class/net"},
          {"kernel.dirty", "vm.dirty_ratio on alices-laptop", "20%", "", "/proc/sys/vm/dirty_ratio"}}}};
    r.matrix.name = "other ways of writing what acme-secret.iolab-trace wrote";
    r.programAdvice = {"Your program (acme-secret.iolab-trace) spent 12 ms in file I/O."};
    r.warnings = {"another IOLab run was writing into /home/alice/acme-secret/bench/iolab-run-2"};
    Case write{"write", Direction::Write, 65536, 1 << 20, {}, {}, 1, TargetKind::Directory};
    Case replay = write;
    replay.strategy = "replay";
    replay.extraAxes["replay"] = "/home/alice/traces/acme-secret.iolab-trace";
    for (const Case& c : {write, replay}) {
        CaseResult cr;
        cr.index = static_cast<std::uint32_t>(r.cases.size());
        cr.testCase = c;
        for (std::uint32_t i = 0; i < 3; ++i) {
            RepetitionResult rep;
            rep.index = i;
            rep.bytes = 1 << 20;
            rep.returnSeconds = 0.010 + 0.001 * i;
            rep.durableSeconds = 0.020 + 0.001 * i;
            rep.apparentMBps = 1.048576 / rep.returnSeconds;
            rep.durableMBps = 1.048576 / rep.durableSeconds;
            cr.repetitions.push_back(rep);
        }
        cr.apparentMBps.median = 95.3;
        cr.durableMBps.median = 49.9;
        r.cases.push_back(cr);
    }
    r.cases[1].status = Status::Failed;
    r.cases[1].reason = R"(open C:\Users\alice\acme-secret\log.db failed on alices-laptop: Access is denied)";
    return r;
}

} // namespace iolab::test
