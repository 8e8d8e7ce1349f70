#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Read/write mixes and hot spots (issue 39, part 3) against tools nobody here wrote.

1. strace's count of IOLab's calls: read-random with --read-percent 70 on this machine's disk. Every pread64
   and pwrite64 of the data file, as strace -f -y logs them, must be exactly the reads and writes IOLab's
   result reports (warm-up included), and the writes about 30% of them.
2. fio's own hot spots: the share of requests on the hottest 1% and 10% of the blocks, from fio's I/O log
   (write_iolog) of randread with random_distribution=zipf:1.2 and pareto:0.9, against the same shares of
   the offsets IOLab's read-random asked for under strace. They must agree within 4 points, and IOLab's
   must match within 3 what samples of the same size drawn from the distribution itself give.
3. The kernel's block counters (root only): uring-random-read-direct with --read-percent 70 on a loop
   device; the sectors the device read and wrote in the run, less the data set's writing, must be the bytes
   IOLab reports each way within 3% (plus 2 MiB of filesystem metadata).

Parts that cannot run here (no strace, no fio, not root) are skipped with the reason; the test fails if
one fails, and exits 77 (skipped) only when none could run. Usage: mix_against_tools.py IOLAB_CLI
"""
import collections
import glob
import itertools
import json
import math
import random
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
CHUNK = 4096
BLOCKS = 4096  # 16 MiB files of 4 KiB blocks


def run(*args, **kw):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kw).stdout


def without_leak_check():
    """The environment for a sanitized iolab-cli under strace: LeakSanitizer needs ptrace itself and fails the
    traced program's exit, so its check is left to every other test."""
    asan = os.environ.get("ASAN_OPTIONS", "")
    return dict(os.environ, ASAN_OPTIONS=(asan + ":" if asan else "") + "detect_leaks=0")


def iolab(cli, *args):
    return run(cli, "run", "--no-summary", "--no-sampling", *args)


def traced_calls(log, syscalls):
    """(syscall, offset, size, fd path) of every call in strace -ff -y's logs of `syscalls`, the data files'."""
    pattern = re.compile(r"(?:\[pid\s+\d+\]\s+)?(\d+\s+)?(" + "|".join(syscalls) +
                         r")\((\d+)<([^>]*)>, .*, (\d+), (\d+)\)\s+= (-?\d+)")
    calls = []
    for path in sorted(glob.glob(log + ".*")):  # strace -ff: one file per thread, no call split in two
        with open(path) as f:
            for line in f:
                m = pattern.search(line)
                if m and m.group(4).endswith(".dat"):
                    calls.append((m.group(2), int(m.group(6)), int(m.group(5)), m.group(4)))
    return calls


def hot_shares(offsets):
    """The share of requests on the hottest 1% and 10% of the blocks, by the requests' own counts."""
    counts = sorted(collections.Counter(o // CHUNK for o in offsets).values(), reverse=True)
    total = sum(counts)
    return tuple(sum(counts[:max(1, BLOCKS * p // 100)]) / total for p in (1, 10))


def simulated_shares(draw, runs=20):
    """hot_shares() of BLOCKS draws from the distribution itself, averaged over `runs` simulations: what the
    statistic should read for a sample of this size (the hottest blocks by their counts include some that
    were lucky, so it reads above the distribution's own shares)."""
    rng = random.Random(39)
    totals = [0.0, 0.0]
    for _ in range(runs):
        shares = hot_shares([draw(rng) * CHUNK for _ in range(BLOCKS)])
        totals = [t + s for t, s in zip(totals, shares)]
    return tuple(t / runs for t in totals)


def zipf_draw(theta):
    weights = [k ** -theta for k in range(1, BLOCKS + 1)]
    cumulative = list(itertools.accumulate(weights))
    return lambda rng: rng.choices(range(BLOCKS), cum_weights=cumulative)[0]


def pareto_draw(h):
    e = math.log(h) / math.log(1 - h)  # fio's exponent
    return lambda rng: min(BLOCKS - 1, int(BLOCKS * rng.random() ** e))


def strace_counts(cli, work):
    target = os.path.join(work, "strace")
    os.mkdir(target)
    log = os.path.join(work, "strace.log")
    out = os.path.join(work, "strace.json")
    run("strace", "-ff", "-y", "-qq", "-e", "trace=pread64,pwrite64", "-o", log, cli, "run", "--no-summary",
        "--no-sampling", "--target", target, "--strategy", "read-random", "--chunk", "4K", "--size", "16M",
        "--threads", "2", "--read-percent", "70", "--reps", "2", "--warmups", "1", "--json", out,
        env=without_leak_check())
    calls = traced_calls(log, ["pread64", "pwrite64"])
    traced = collections.Counter(name for name, _, size, _ in calls if size == CHUNK)
    with open(out) as f:
        result = json.load(f)
    case = result["cases"][0]
    assert case["status"] == "ok", case["reason"]
    reads = sum(r["mix"]["reads"]["ops"] for r in case["repetitions"])
    writes = sum(r["mix"]["writes"]["ops"] for r in case["repetitions"])
    print(f"strace: {traced['pread64']} pread64, {traced['pwrite64']} pwrite64 of 4 KiB on the data file; "
          f"IOLab: {reads} reads, {writes} writes")
    assert traced["pread64"] == reads, f"strace saw {traced['pread64']} reads, IOLab reports {reads}"
    assert traced["pwrite64"] == writes, f"strace saw {traced['pwrite64']} writes, IOLab reports {writes}"
    share = writes / (reads + writes)
    assert abs(share - 0.30) < 0.02, f"writes were {share:.3f} of the requests, not 0.30"
    print(f"  writes {share:.3f} of the requests (asked: 0.30)")


def fio_offsets(work, dist):
    folder = os.path.join(work, "fio-" + dist.replace(":", "-"))
    os.mkdir(folder)
    log = os.path.join(folder, "iolog")
    run("fio", "--name=hot", f"--directory={folder}", "--rw=randread", "--bs=4k", "--size=16m",
        "--ioengine=psync", "--norandommap", f"--random_distribution={dist}", f"--write_iolog={log}",
        "--output-format=terse")
    offsets = []
    with open(log) as f:
        for line in f:
            parts = line.split()  # version 2: file action offset length; version 3: a time first
            if len(parts) >= 4 and parts[-3] == "read":
                offsets.append(int(parts[-2]))
    return offsets


def iolab_offsets(cli, work, dist):
    target = os.path.join(work, "iolab-" + dist.replace(":", "-"))
    os.mkdir(target)
    log = os.path.join(work, "offsets-" + dist.replace(":", "-") + ".log")
    run("strace", "-ff", "-y", "-qq", "-e", "trace=pread64", "-o", log, cli, "run", "--no-summary",
        "--no-sampling", "--target", target, "--strategy", "read-random", "--chunk", "4K", "--size", "16M",
        "--random-dist", dist, "--reps", "1", "--warmups", "0", env=without_leak_check())
    return [offset for _, offset, size, _ in traced_calls(log, ["pread64"]) if size == CHUNK]


def hot_spots(cli, work):
    for dist, draw in (("zipf:1.2", zipf_draw(1.2)), ("pareto:0.9", pareto_draw(0.9))):
        expected = simulated_shares(draw)
        fio = hot_shares(fio_offsets(work, dist))
        ours_offsets = iolab_offsets(cli, work, dist)
        assert len(ours_offsets) == BLOCKS, f"{len(ours_offsets)} reads traced, {BLOCKS} expected"
        ours = hot_shares(ours_offsets)
        print(f"{dist}: hottest 1%/10% of blocks get fio {fio[0]:.3f}/{fio[1]:.3f}, IOLab "
              f"{ours[0]:.3f}/{ours[1]:.3f}, samples of the distribution {expected[0]:.3f}/{expected[1]:.3f}")
        for i, part in enumerate(("1%", "10%")):
            assert abs(fio[i] - ours[i]) < 0.04, f"{dist}: the hottest {part} differ from fio's"
            assert abs(expected[i] - ours[i]) < 0.03, f"{dist}: the hottest {part} differ from the distribution"


def device_counters(cli, work):
    if os.geteuid() != 0:
        return "needs root: a loop device and a mount"
    if shutil.which("losetup") is None or shutil.which("mkfs.ext4") is None:
        return "needs losetup and mkfs.ext4"
    backing = os.path.join(work, "disk.img")
    with open(backing, "wb") as f:
        f.truncate(256 * 1024 * 1024)
    mount = os.path.join(work, "mnt")
    os.mkdir(mount)
    loop = run("losetup", "--find", "--show", backing).strip()
    mounted = False
    try:
        run("mkfs.ext4", "-q", "-F", "-E", "lazy_itable_init=0,lazy_journal_init=0", loop)
        run("mount", loop, mount)
        mounted = True
        stat = f"/sys/block/{os.path.basename(loop)}/stat"

        def sectors():
            fields = open(stat).read().split()
            return int(fields[2]) * 512, int(fields[6]) * 512

        out = os.path.join(work, "loop.json")
        before = sectors()
        iolab(cli, "--target", mount, "--strategy", "uring-random-read-direct", "--chunk", "4K", "--size",
              "32M", "--qd", "8", "--read-percent", "70", "--reps", "2", "--warmups", "1", "--json", out)
        run("sync")
        after = sectors()
        with open(out) as f:
            case = json.load(f)["cases"][0]
        assert case["status"] == "ok", case["reason"]
        read = sum(r["mix"]["reads"]["bytes"] for r in case["repetitions"])
        written = sum(r["mix"]["writes"]["bytes"] for r in case["repetitions"]) + case["dataSetBytes"]
        device_read = after[0] - before[0]
        device_written = after[1] - before[1]
        print(f"loop device: read {device_read} B, wrote {device_written} B; IOLab: read {read} B, wrote "
              f"{written} B (data set included)")
        slack = 2 * 1024 * 1024
        assert abs(device_read - read) <= 0.03 * read + slack, "the device read other than IOLab says"
        assert abs(device_written - written) <= 0.03 * written + slack, "the device wrote other than IOLab says"
    finally:
        if mounted:
            subprocess.run(["umount", mount], check=False)
        subprocess.run(["losetup", "-d", loop], check=False)
    return None


def main():
    cli = os.path.abspath(sys.argv[1])
    skipped = []
    ran = 0
    with tempfile.TemporaryDirectory(prefix="iolab-mix-") as work:
        if shutil.which("strace") is None:
            skipped.append("strace's counts and offsets: strace is not installed")
        else:
            strace_counts(cli, work)
            ran += 1
            if shutil.which("fio") is None:
                skipped.append("fio's hot spots: fio is not installed")
            else:
                hot_spots(cli, work)
                ran += 1
        why = device_counters(cli, work)
        if why:
            skipped.append(f"the loop device's counters: {why}")
        else:
            ran += 1
    for s in skipped:
        print(f"skipped part: {s}")
    if ran == 0:
        print("SKIPPED: " + "; ".join(skipped))
        sys.exit(SKIP)


if __name__ == "__main__":
    main()
