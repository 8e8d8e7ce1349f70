#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Races iolab-cli's io_uring strategies against fio on the same job, alternating A/B, and prints median ratios.

usage: fio_compare.py BUILD_DIR TARGET_DIR [--pairs N] [--only NAME,...] [--percentiles]

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


def run_iolab(build, args, target):
    """Runs one measured repetition after one warm-up; returns (MB/s, p50 ns, p99 ns) of the measured one."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        out = f.name
    try:
        subprocess.run([os.path.join(build, "app/cli/iolab-cli"), "run", "--target", target, "--reps", "1",
                        "--warmups", "1", "--quiet", "--json", out, *args], check=True, capture_output=True,
                       text=True)
        with open(out) as f:
            case = json.load(f)["cases"][0]
        if case["status"] != "ok":
            raise RuntimeError(f"iolab case {case['case']['label']}: {case['reason']}")
        rep = case["repetitions"][-1]
        latency = rep.get("callLatency") or case.get("callLatency") or {}
        return rep["apparentMBps"], latency.get("p50Ns", 0), latency.get("p99Ns", 0)
    finally:
        os.unlink(out)


def run_fio(args, target, direction):
    """Runs fio once on a file in TARGET_DIR (removed before and after); returns jobs[0][direction]."""
    path = os.path.join(target, "fio-bench.dat")
    if os.path.exists(path):
        os.unlink(path)
    try:
        out = subprocess.run(["fio", "--name=iolab-compare", f"--filename={path}", "--direct=1", "--numjobs=1",
                              "--output-format=json", *args], check=True, capture_output=True, text=True)
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
                               lambda: run_iolab(opts.build, [*sized, "--latency", "on"], opts.target)[1:])
        f50, f99 = statistics.median(f[0] for f in fio), statistics.median(f[1] for f in fio)
        i50, i99 = statistics.median(i[0] for i in iolab), statistics.median(i[1] for i in iolab)
        print(f"{name:40} {f50:9.0f} {i50:9.0f} {100 * (i50 / f50 - 1):+6.1f}% {f99:9.0f} {i99:9.0f} "
              f"{100 * (i99 / f99 - 1):+6.1f}%", flush=True)
        print(f"{'':40} fio p50/p99 per run: {' '.join(f'{a:.0f}/{b:.0f}' for a, b in fio)}")
        print(f"{'':40} IOLab p50/p99 per run: {' '.join(f'{a:.0f}/{b:.0f}' for a, b in iolab)}", flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("target")
    parser.add_argument("--pairs", type=int, default=8, help="even, so each side runs first equally often")
    parser.add_argument("--only", default="")
    parser.add_argument("--percentiles", action="store_true", help="p50 and p99 of 4 KiB direct writes at QD1")
    parser.add_argument("--size", default="64M",
                        help="file size of the percentile rows (a p99 over more writes holds stiller per run)")
    opts = parser.parse_args()
    only = [s for s in opts.only.split(",") if s]
    if opts.percentiles:
        percentile_rows(opts, only)
    else:
        iops_rows(opts, only)
    return 0


if __name__ == "__main__":
    sys.exit(main())
