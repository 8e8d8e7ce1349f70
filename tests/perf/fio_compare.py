#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Races iolab-cli's io_uring strategies against fio on the same job, alternating A/B, and prints median ratios.

usage: fio_compare.py BUILD_DIR TARGET_DIR [--pairs N] [--only NAME,...] [--fifo]
                      [--percentiles | --exported | --versus OTHER_IOLAB_CLI | --groups 0,1,4,8,16 | --uring |
                       --mix]

IOPS rows (CrystalDiskMark's names): fio --ioengine=io_uring --direct=1 --numjobs=1 with the same block size,
queue depth and file size as iolab-cli's case, against the case; the ratio is IOLab's IOPS (apparent MB/s over
the chunk) over fio's (jobs[0].read.iops or write.iops), per pair, and the median over pairs is reported.
fio reads a file it lays out before the timed part; IOLab writes its data set before the timed part too. Writes
go to a new file on both sides (fio's file is removed before each run; with --fallocate=none fio neither
fallocates nor truncates it to size, so its writes extend it as IOLab's do). Random reads pick offsets with replacement on both sides (fio --norandommap).

With --percentiles: direct 4 KiB writes at queue depth 1 with latency on, IOLab's p50 and p99 per call
(the measured repetition's callLatency) against fio's total-latency percentiles (--lat_percentiles=1,
jobs[0].write.lat_ns.percentile: submission and completion, since IOLab times from before the submitting call), for
`direct` against fio's psync engine and `uring-write-direct --qd 1` against io_uring --iodepth=1; each row is
the median over the pairs of each side's figure, and IOLab's over fio's.

With --exported (issue 34): fio runs IOLab's own exported job, unchanged. For each case (the cdm and
health-check presets' queued rows), iolab-cli runs the case once, `iolab-cli export-job RESULT --case 1 --as fio`
writes its job, and then each pair runs iolab-cli (1 warm-up, 1 measured repetition) and `fio JOB` (which lays
its file out in TARGET_DIR and reads or writes it; the file is removed after each run); the ratio is IOLab's
apparent MB/s over fio's bw_bytes, per pair.

With --versus OTHER_IOLAB_CLI: BUILD_DIR's iolab-cli against another iolab-cli binary (a build of an earlier
commit, copied aside) on the same queued cases: the ratio is BUILD_DIR's MB/s over the other's, per pair.

With --groups: plain_uring (tests/perf/plain_uring.cpp) reading 4 KiB at random at QD32 from a 256 MiB file,
each GROUP (how many prepared requests it hands to the kernel without waiting; 0: only with the wait, as
IOLab's loop did before issue 34; 1: each on its own, as fio; a trailing f: on a ring set up with fio's flags,
COOP_TASKRUN, SINGLE_ISSUER and DEFER_TASKRUN) against the first, in a rotating order per round.

With --uring (issue 39): each of io_uring's own options as an IOLab variant (--uring) against the fio job with
the matching option (fixedbufs=1, registerfiles=1, sqthread_poll=1, hipri=1), 4 KiB direct random reads at QD32
of a 256 MiB file in TARGET_DIR, alternating A/B: the ratio is IOLab's IOPS over fio's, per pair, with each
side's MB per CPU second (fio's usr_cpu + sys_cpu of its runtime; IOLab's getrusage of the process, which counts
the SQPOLL thread: it is a thread of the process. fio's figure is its job thread's alone (its fio_getrusage asks
RUSAGE_THREAD), so on the sqthread_poll rows it leaves fio's poller out and the CPU column is not comparable). fio's sqthread_poll registers the file too, so its row is
IOLab's registerfiles+sqpoll. hipri (iopoll) is run once on each side first: where the device has no poll
queues, IOLab refuses the case before it runs and fio fails its requests ("Operation not supported"); the row
is then skipped with both answers printed.

With --mix (issue 39): a read/write mix (--read-percent 70, fio's --rw=randrw --rwmixread=70) of 4 KiB direct
requests at random offsets of a file both sides lay out before the timed part, alternating A/B: IOLab's
read-random-direct (pread/pwrite, one thread) against fio's psync engine, and uring-random-read-direct at QD32
against fio's io_uring at --iodepth=32, uniform and with a zipf:1.2 hot spot (fio's random_distribution). Each
row's ratio is IOLab's IOPS over fio's, per pair, for all requests and for each way (reads, writes): IOLab's
from the repetition's mix figures, fio's jobs[0].read.iops and write.iops. Neither side's figure includes an
fsync (IOLab's apparent rate; fio without end_fsync).

With --cpu N every timed process runs on CPU N alone (taskset), all its threads and processes: fio's job and
its parent, IOLab's worker and its sampler. Left to the scheduler, a synchronous job at queue depth 1 runs at
what its placement gives it (fio's psync mix pinned ran 1.36x fio's unpinned, in one alternation).

With --fifo every timed process (iolab-cli, fio, plain_uring) runs under SCHED_FIFO (chrt -f 10, root only),
so that other work on a shared machine does not decide the figure: the nearest this VM comes to idle CPUs.
Without it, the figures are those of the machine as it is, busy or not; report which.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

from compare import alternate

K = 1024
M = K * K

# name, bytes per request, iolab args, fio args
IOPS_CASES = [
    ("RND4K Q32T1 read", 4 * K,
     ["--strategy", "uring-random-read-direct", "--chunk", "4K", "--qd", "32", "--size", "512M"],
     ["--rw=randread", "--bs=4k", "--iodepth=32", "--size=512M", "--norandommap"]),
    ("SEQ1M Q8T1 write", 1 * M,
     ["--strategy", "uring-write-direct", "--chunk", "1M", "--qd", "8", "--size", "1G"],
     ["--rw=write", "--bs=1M", "--iodepth=8", "--size=1G", "--fallocate=none"]),
    # fsync-every on a queue: IOLab queues the fsync in line (IOSQE_IO_DRAIN); fio waits for the queue to empty
    # and then queues its fsync.
    ("SEQ64K Q8T1 write, fsync every 16", 64 * K,
     ["--strategy", "uring-write-direct", "--chunk", "64K", "--qd", "8", "--size", "256M", "--sync",
      "fsync-every:16"],
     ["--rw=write", "--bs=64k", "--iodepth=8", "--size=256M", "--fallocate=none", "--fsync=16"]),
]

# name, iolab args, fio args (4 KiB direct writes at queue depth 1, latency on). With --fallocate=none fio
# creates an empty file and its writes extend it (strace: no ftruncate, no fallocate), as IOLab's new file; the
# "preallocated" rows give both sides a full-size file with its blocks reserved (IOLab --preallocate fallocate,
# fio --fallocate=native), where no write extends the file.
PERCENTILE_CASES = [
    ("direct 4K vs fio psync", ["--strategy", "direct", "--chunk", "4K", "--size", "64M"],
     ["--ioengine=psync", "--fallocate=none"]),
    ("uring-write-direct QD1 vs fio io_uring", ["--strategy", "uring-write-direct", "--chunk", "4K", "--qd", "1",
                                                "--size", "64M"],
     ["--ioengine=io_uring", "--iodepth=1", "--fallocate=none"]),
    ("direct 4K preallocated vs fio psync", ["--strategy", "direct", "--chunk", "4K", "--size", "64M",
                                             "--preallocate", "fallocate"],
     ["--ioengine=psync", "--fallocate=native"]),
    ("uring QD1 preallocated vs fio io_uring", ["--strategy", "uring-write-direct", "--chunk", "4K", "--qd", "1",
                                                "--size", "64M", "--preallocate", "fallocate"],
     ["--ioengine=io_uring", "--iodepth=1", "--fallocate=native"]),
]


# Set by --fifo: the prefix that runs a timed process under SCHED_FIFO.
PRIORITY = []

# name, iolab args: the cdm and health-check presets' queued rows (resources/presets/), 4 KiB at QD32 first.
EXPORTED_CASES = [
    ("cdm RND4K Q32T1 read (128 MiB)",
     ["--strategy", "uring-random-read-direct", "--chunk", "4K", "--qd", "32", "--size", "128M"]),
    ("health-check RND4K Q32T1 read (256 MiB or 2 s)",
     ["--strategy", "uring-random-read-direct", "--chunk", "4K", "--qd", "32", "--size", "256M", "--duration", "2s"]),
    ("health-check SEQ1M Q8T1 write (1 GiB or 2 s)",
     ["--strategy", "uring-write-direct", "--chunk", "1M", "--qd", "8", "--size", "1G", "--duration", "2s"]),
    ("health-check SEQ1M Q8T1 read (1 GiB or 2 s)",
     ["--strategy", "uring-read-direct", "--chunk", "1M", "--qd", "8", "--size", "1G", "--duration", "2s"]),
    ("health-check RND4K Q1T1 read (256 MiB or 2 s)",
     ["--strategy", "uring-random-read-direct", "--chunk", "4K", "--qd", "1", "--size", "256M", "--duration", "2s"]),
]


def cli_path(build):
    return build if os.path.isfile(build) else os.path.join(build, "app/cli/iolab-cli")


def run_iolab(build, args, target, json_out=None):
    """Runs one measured repetition after one warm-up; returns (MB/s, p50 ns, p99 ns, MB per CPU second) of the
    measured one. BUILD may be a build folder or an iolab-cli binary; with json_out the result JSON is kept there."""
    if json_out:
        out = json_out
    else:
        with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
            out = f.name
    try:
        subprocess.run([*PRIORITY, cli_path(build), "run", "--target", target, "--reps", "1",
                        "--warmups", "1", "--quiet", "--json", out, *args], check=True, capture_output=True,
                       text=True)
        with open(out) as f:
            case = json.load(f)["cases"][0]
        if case["status"] != "ok":
            raise RuntimeError(f"iolab case {case['case']['label']}: {case['reason']}")
        rep = case["repetitions"][-1]
        latency = rep.get("callLatency") or case.get("callLatency") or {}
        cpu = rep["cpuUserSeconds"] + rep["cpuSystemSeconds"]
        return (rep["apparentMBps"], latency.get("p50Ns", 0), latency.get("p99Ns", 0),
                rep["bytes"] / cpu / 1e6 if cpu > 0 else 0.0)
    finally:
        if not json_out:
            os.unlink(out)


def run_fio(args, target, direction):
    """Runs fio once on a file in TARGET_DIR (removed before and after); returns jobs[0][direction]."""
    path = os.path.join(target, "fio-bench.dat")
    if os.path.exists(path):
        os.unlink(path)
    try:
        out = subprocess.run([*PRIORITY, "fio", "--name=iolab-compare", f"--filename={path}", "--direct=1",
                              "--numjobs=1", "--output-format=json", *args], check=True, capture_output=True,
                             text=True)
        return json.loads(out.stdout)["jobs"][0][direction]
    finally:
        if os.path.exists(path):
            os.unlink(path)


def iops_rows(opts, only):
    print(f"{'case':22} {'fio IOPS':>10} {'IOLab IOPS':>11} {'ratio':>7}  (medians of {opts.pairs} pairs)")
    for name, request, iolab_args, fio_args in IOPS_CASES:
        if only and not any(o in name for o in only):
            continue
        direction = "read" if "read" in name else "write"
        # fio --ioengine=io_uring; --ioengine and the rest follow the case's own arguments.
        fio, iolab = alternate(
            opts.pairs, lambda: run_fio(["--ioengine=io_uring", *fio_args], opts.target, direction)["iops"],
            lambda: run_iolab(opts.build, iolab_args, opts.target)[0] * 1e6 / request)
        ratios = [b / a for a, b in zip(fio, iolab)]
        print(f"{name:22} {statistics.median(fio):10.0f} {statistics.median(iolab):11.0f} "
              f"{statistics.median(ratios):7.3f}  ratios {' '.join(f'{r:.3f}' for r in ratios)}", flush=True)


def percentile_rows(opts, only):
    print(f"{'case':40} {'fio p50':>9} {'IOLab p50':>9} {'diff':>7} {'fio p99':>9} {'IOLab p99':>9} {'diff':>7}"
          f"  (ns, medians of {opts.pairs} runs each, alternating)")
    for name, iolab_args, fio_args in PERCENTILE_CASES:
        if only and not any(o in name for o in only):
            continue

        def fio_run():
            # lat_ns (submission + completion): io_uring can complete a write inside the submitting
            # io_uring_enter, and then clat_ns holds about 1 us and the write's time is in slat_ns; IOLab's
            # timer starts before the submitting call. For psync, lat_ns and clat_ns are the same call.
            lat = run_fio(["--rw=write", "--bs=4k", f"--size={opts.size}", "--lat_percentiles=1", *fio_args],
                          opts.target, "write")["lat_ns"]["percentile"]
            return lat["50.000000"], lat["99.000000"]

        sized = [opts.size if previous == "--size" else arg for previous, arg in zip(["", *iolab_args], iolab_args)]
        fio, iolab = alternate(opts.pairs, fio_run,
                               lambda: run_iolab(opts.build, [*sized, "--latency", "on"], opts.target)[1:3])
        f50, f99 = statistics.median(f[0] for f in fio), statistics.median(f[1] for f in fio)
        i50, i99 = statistics.median(i[0] for i in iolab), statistics.median(i[1] for i in iolab)
        print(f"{name:40} {f50:9.0f} {i50:9.0f} {100 * (i50 / f50 - 1):+6.1f}% {f99:9.0f} {i99:9.0f} "
              f"{100 * (i99 / f99 - 1):+6.1f}%", flush=True)
        print(f"{'':40} fio p50/p99 per run: {' '.join(f'{a:.0f}/{b:.0f}' for a, b in fio)}")
        print(f"{'':40} IOLab p50/p99 per run: {' '.join(f'{a:.0f}/{b:.0f}' for a, b in iolab)}", flush=True)


def remove_fio_files(target):
    for name in os.listdir(target):
        if name.startswith("iolab-case-"):
            os.unlink(os.path.join(target, name))


def run_fio_job(job, target):
    """Runs fio on a job file (its files in TARGET_DIR, removed afterwards); returns (MB/s, MB per CPU second)
    of its reads or writes."""
    try:
        out = subprocess.run([*PRIORITY, "fio", "--output-format=json", job], check=True, capture_output=True,
                             text=True)
        j = json.loads(out.stdout)["jobs"][0]
        mbps = (j["read"] if j["read"]["io_bytes"] else j["write"])["bw_bytes"] / 1e6
        busy = (j["usr_cpu"] + j["sys_cpu"]) / 100  # of the job's runtime
        return mbps, mbps / busy if busy > 0 else 0.0
    finally:
        remove_fio_files(target)


def ratio_line(name, a_name, a, b_name, b, request):
    """One row from (MB/s, MB per CPU second) per run: both sides' medians (and IOPS for requests under 1 MiB),
    b over a per pair, and b's CPU efficiency over a's."""
    ratios = [y[0] / x[0] for x, y in zip(a, b)]
    cpu = [y[1] / x[1] for x, y in zip(a, b) if x[1] > 0 and y[1] > 0]
    iops = lambda v: f" ({v * 1e6 / request / 1000:.1f}k IOPS)" if request < M else ""
    ma, mb = statistics.median(x[0] for x in a), statistics.median(y[0] for y in b)
    print(f"{name}\n  {a_name} {ma:.1f} MB/s{iops(ma)}, {b_name} {mb:.1f} MB/s{iops(mb)}; "
          f"{b_name}/{a_name} median {statistics.median(ratios):.3f} (range {min(ratios):.3f}-{max(ratios):.3f}, "
          f"above 1 in {sum(r > 1 for r in ratios)} of {len(ratios)} pairs); "
          f"MB per CPU second {statistics.median(cpu) if cpu else 0:.3f}\n"
          f"  per pair: {' '.join(f'{r:.3f}' for r in ratios)}", flush=True)


def request_bytes(args):
    chunk = args[args.index("--chunk") + 1]
    return int(chunk[:-1]) * (M if chunk.endswith("M") else K)


def exported_rows(opts, only):
    print(f"IOLab against fio running IOLab's own exported job, {opts.pairs} pairs each"
          f"{', SCHED_FIFO' if PRIORITY else ''}:", flush=True)
    with tempfile.TemporaryDirectory() as scratch:
        for name, args in EXPORTED_CASES:
            if only and not any(o in name for o in only):
                continue
            result = os.path.join(scratch, "result.json")
            run_iolab(opts.build, args, opts.target, json_out=result)
            job = os.path.join(scratch, "case.fio")
            with open(job, "w") as f:
                f.write(subprocess.run([cli_path(opts.build), "export-job", result, "--case", "1", "--as", "fio"],
                                       check=True, capture_output=True, text=True).stdout)
            fio, iolab = alternate(opts.pairs, lambda: run_fio_job(job, opts.target),
                                   lambda: run_iolab(opts.build, args, opts.target)[::3])
            ratio_line(name, "fio", fio, "IOLab", iolab, request_bytes(args))


def versus_rows(opts, only):
    print(f"{opts.build} against {opts.versus}, {opts.pairs} pairs each{', SCHED_FIFO' if PRIORITY else ''}:",
          flush=True)
    for name, args in EXPORTED_CASES:
        if only and not any(o in name for o in only):
            continue
        other, this = alternate(opts.pairs, lambda: run_iolab(opts.versus, args, opts.target)[::3],
                                lambda: run_iolab(opts.build, args, opts.target)[::3])
        ratio_line(name, "other", other, "this", this, request_bytes(args))


def group_rows(opts):
    groups = opts.groups.split(",")
    path = os.path.join(opts.target, "plain-uring-groups.dat")
    # "8" is GROUP 8 on a ring set up as IOLab's; "8f" the same on a ring set up with fio's flags.
    command = lambda g: [*PRIORITY, os.path.join(opts.build, "tests/perf/plain_uring"), path, str(4 * K),
                         str(256 * M), "0", "32", g.rstrip("f"), "1" if g.endswith("f") else "0"]
    figures = {g: [] for g in groups}
    for r in range(opts.pairs + 1):
        order = groups[r % len(groups):] + groups[:r % len(groups)]
        for g in (order if r % 2 == 0 else order[::-1]):
            out = subprocess.run(command(g), check=True, capture_output=True, text=True).stdout
            if r > 0:  # the first round warms up
                figures[g].append(tuple(float(v) for v in out.split()[:2]))
    print(f"plain_uring, 4 KiB random reads at QD32 of 256 MiB, {opts.pairs} rounds"
          f"{', SCHED_FIFO' if PRIORITY else ''}:")
    for g in groups[1:]:
        ratio_line(f"GROUP {g} against GROUP {groups[0]}", f"GROUP {groups[0]}", figures[groups[0]], f"GROUP {g}",
                   figures[g], 4 * K)

# name, IOLab's --uring value, fio's options: 4 KiB direct random reads at QD32 (fio's sqthread_poll registers
# the file too: registerfiles+sqpoll is its match).
URING_BASE_IOLAB = ["--strategy", "uring-random-read-direct", "--chunk", "4K", "--qd", "32", "--size", "256M"]
URING_BASE_FIO = ["--ioengine=io_uring", "--rw=randread", "--bs=4k", "--iodepth=32", "--size=256M",
                  "--norandommap"]
URING_VARIANTS = [
    ("plain", "plain", []),
    ("fixedbufs", "fixedbufs", ["--fixedbufs=1"]),
    ("registerfiles", "registerfiles", ["--registerfiles=1"]),
    ("fixedbufs+registerfiles", "fixedbufs+registerfiles", ["--fixedbufs=1", "--registerfiles=1"]),
    ("sqthread_poll", "registerfiles+sqpoll", ["--sqthread_poll=1"]),
    ("sqthread_poll+fixedbufs", "fixedbufs+registerfiles+sqpoll", ["--sqthread_poll=1", "--fixedbufs=1"]),
]


def run_fio_cpu(args, target):
    """run_fio, returning (MB/s, MB per CPU second) of the reads."""
    path = os.path.join(target, "fio-bench.dat")
    if os.path.exists(path):
        os.unlink(path)
    try:
        out = subprocess.run([*PRIORITY, "fio", "--name=iolab-compare", f"--filename={path}", "--direct=1",
                              "--numjobs=1", "--output-format=json", *args], check=True, capture_output=True,
                             text=True)
        j = json.loads(out.stdout)["jobs"][0]
        mbps = j["read"]["bw_bytes"] / 1e6
        busy = (j["usr_cpu"] + j["sys_cpu"]) / 100
        return mbps, mbps / busy if busy > 0 else 0.0
    finally:
        if os.path.exists(path):
            os.unlink(path)


def uring_rows(opts, only):
    print(f"io_uring's options, IOLab against fio, 4 KiB direct random reads at QD32 of 256 MiB, {opts.pairs} pairs"
          f" each{', SCHED_FIFO' if PRIORITY else ''}:", flush=True)
    # hipri / iopoll first: does either side run it here?
    # Every case refused: iolab-cli says why on stderr and exits 2, with no result.
    iolab = subprocess.run([cli_path(opts.build), "run", "--target", opts.target, "--reps", "1", "--warmups", "0",
                            "--quiet", *URING_BASE_IOLAB, "--uring", "iopoll"], capture_output=True, text=True)
    refused = [line.split(": ", 1)[1] for line in iolab.stderr.splitlines() if "uring=iopoll: " in line]
    path = os.path.join(opts.target, "fio-bench.dat")
    # hipri is io_uring's own option: fio takes it only after --ioengine.
    fio = subprocess.run(["fio", "--name=iolab-compare", f"--filename={path}", "--direct=1", *URING_BASE_FIO,
                          "--hipri=1"], capture_output=True, text=True)
    if os.path.exists(path):
        os.unlink(path)
    fio_error = next((line.strip() for line in (fio.stderr + fio.stdout).splitlines() if "err" in line), "")
    print(f"iopoll / hipri\n  IOLab: {'refused: ' + refused[0] if refused else 'ran (exit ' + str(iolab.returncode) + ')'}"
          f"\n  fio (exit {fio.returncode}): {fio_error or 'ran'}", flush=True)
    if only == ["iopoll"]:
        return
    for name, uring, fio_args in URING_VARIANTS:
        if only and not any(o == name for o in only):
            continue
        fio, iolab = alternate(opts.pairs, lambda: run_fio_cpu([*URING_BASE_FIO, *fio_args], opts.target),
                               lambda: run_iolab(opts.build, [*URING_BASE_IOLAB, "--uring", uring],
                                                 opts.target)[::3])
        ratio_line(f"{name} (IOLab --uring {uring})", "fio", fio, "IOLab", iolab, 4 * K)


# name, IOLab's arguments, fio's: a 70% read mix of 4 KiB direct requests at random offsets.
MIX_CASES = [
    ("read-random-direct, uniform, vs psync",
     ["--strategy", "read-random-direct", "--chunk", "4K", "--size", "64M"],
     ["--ioengine=psync", "--size=64M"]),
    ("uring-random-read-direct QD32, uniform, vs io_uring",
     ["--strategy", "uring-random-read-direct", "--chunk", "4K", "--qd", "32", "--size", "256M"],
     ["--ioengine=io_uring", "--iodepth=32", "--size=256M"]),
    ("uring-random-read-direct QD32, zipf:1.2, vs io_uring",
     ["--strategy", "uring-random-read-direct", "--chunk", "4K", "--qd", "32", "--size", "256M",
      "--random-dist", "zipf:1.2"],
     ["--ioengine=io_uring", "--iodepth=32", "--size=256M", "--random_distribution=zipf:1.2"]),
]


def run_iolab_mix(build, args, target):
    """One measured repetition of a mix after one warm-up: (all, read, write) IOPS of the measured one."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        out = f.name
    try:
        subprocess.run([*PRIORITY, cli_path(build), "run", "--target", target, "--reps", "1", "--warmups", "1",
                        "--quiet", "--json", out, "--read-percent", "70", *args], check=True,
                       capture_output=True, text=True)
        with open(out) as f:
            case = json.load(f)["cases"][0]
        if case["status"] != "ok":
            raise RuntimeError(f"iolab case {case['case']['label']}: {case['reason']}")
        mix = case["repetitions"][-1]["mix"]
        return (mix["reads"]["iops"] + mix["writes"]["iops"], mix["reads"]["iops"], mix["writes"]["iops"])
    finally:
        os.unlink(out)


def run_fio_mix(args, target):
    """fio's randrw at 70% reads (no end_fsync): (all, read, write) IOPS."""
    path = os.path.join(target, "fio-bench.dat")
    if os.path.exists(path):
        os.unlink(path)
    try:
        out = subprocess.run([*PRIORITY, "fio", "--name=iolab-compare", f"--filename={path}", "--direct=1",
                              "--numjobs=1", "--output-format=json", "--rw=randrw", "--rwmixread=70", "--bs=4k",
                              "--norandommap", *args], check=True, capture_output=True, text=True)
        j = json.loads(out.stdout)["jobs"][0]
        return (j["read"]["iops"] + j["write"]["iops"], j["read"]["iops"], j["write"]["iops"])
    finally:
        if os.path.exists(path):
            os.unlink(path)


def mix_rows(opts, only):
    print(f"70% read mixes of 4 KiB direct requests, IOLab against fio, {opts.pairs} pairs each"
          f"{', SCHED_FIFO' if PRIORITY else ''}:", flush=True)
    for name, iolab_args, fio_args in MIX_CASES:
        if only and not any(o in name for o in only):
            continue
        fio, iolab = alternate(opts.pairs, lambda: run_fio_mix(fio_args, opts.target),
                               lambda: run_iolab_mix(opts.build, iolab_args, opts.target))
        print(name, flush=True)
        for way, i in (("all", 0), ("reads", 1), ("writes", 2)):
            ratios = [b[i] / a[i] for a, b in zip(fio, iolab)]
            print(f"  {way:6} fio {statistics.median(a[i] for a in fio) / 1000:6.1f}k IOPS, IOLab "
                  f"{statistics.median(b[i] for b in iolab) / 1000:6.1f}k; IOLab/fio median "
                  f"{statistics.median(ratios):.3f} (range {min(ratios):.3f}-{max(ratios):.3f}, above 1 in "
                  f"{sum(r > 1 for r in ratios)} of {len(ratios)})", flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("target")
    parser.add_argument("--pairs", type=int, default=8, help="even, so each side runs first equally often")
    parser.add_argument("--only", default="")
    parser.add_argument("--percentiles", action="store_true", help="p50 and p99 of 4 KiB direct writes at QD1")
    parser.add_argument("--size", default="64M",
                        help="file size of the percentile rows (a p99 over more writes holds stiller per run)")
    parser.add_argument("--exported", action="store_true", help="IOLab against fio on IOLab's own exported job")
    parser.add_argument("--versus", metavar="OTHER_IOLAB_CLI", help="this build against another iolab-cli")
    parser.add_argument("--groups", metavar="G,G,...", help="plain_uring's submission groups, the first the base")
    parser.add_argument("--uring", action="store_true", help="io_uring's options, IOLab's variants against fio's")
    parser.add_argument("--mix", action="store_true", help="read/write mixes against fio's randrw")
    parser.add_argument("--fifo", action="store_true", help="every timed process under SCHED_FIFO (root)")
    parser.add_argument("--cpu", type=int, help="every timed process (all its threads) on this one CPU")
    opts = parser.parse_args()
    only = [s for s in opts.only.split(",") if s]
    if opts.fifo:
        if os.geteuid() != 0:
            sys.exit("--fifo runs the timed processes under SCHED_FIFO, which takes root")
        PRIORITY[:] = ["chrt", "-f", "10"]
    if opts.cpu is not None:
        PRIORITY.extend(["taskset", "-c", str(opts.cpu)])
    if opts.percentiles:
        percentile_rows(opts, only)
    elif opts.exported:
        exported_rows(opts, only)
    elif opts.versus:
        versus_rows(opts, only)
    elif opts.groups:
        group_rows(opts)
    elif opts.uring:
        uring_rows(opts, only)
    elif opts.mix:
        mix_rows(opts, only)
    else:
        iops_rows(opts, only)
    return 0


if __name__ == "__main__":
    sys.exit(main())
