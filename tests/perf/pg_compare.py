#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Races iolab-cli's sync lab against PostgreSQL's pg_test_fsync on the same disk, alternating, and prints ops/s.

usage: pg_compare.py BUILD_DIR TARGET_DIR [--pairs N] [--seconds S] [--shape rewrite|overwrite] [--size SIZE]

pg_test_fsync -s S writes one 8 kB block per op at offset 0 of a 16 MB file it wrote beforehand, for S seconds,
and reports ops/sec per sync method. IOLab runs the same three methods at 8 KiB per write, each bounded by the
same S seconds (--duration): fdatasync (write + fdatasync-every:1), fsync (write + fsync-every:1) and
open_datasync (direct + O_DSYNC). By default (--shape rewrite) each IOLab write lands on the first block of its
file again, as pg_test_fsync's do (preallocate rewrite), and the size is a cap the time limit always reaches
first (1 TiB: a rewrite needs one block of space). --shape overwrite writes the next block of a file written
beforehand instead (the sync-lab preset's overwriting rows, 64 MiB unless --size says otherwise), which is a
different workload: a database filling its preallocated log. IOLab's ops/s is its apparent MB/s over 8 KiB, the
time of the calls alone as pg_test_fsync counts it. Each pair runs both tools, the order alternating; the
medians over the pairs are reported with IOLab's over pg_test_fsync's, and the median and range of the per-pair
ratios (the two runs of a pair are neighbours in time, so their ratio shares the disk's mood).

pg_test_fsync comes with Debian's `postgresql` package: installed here when missing (as root), never by the test
command.
"""
import argparse
import glob
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

METHODS = ["open_datasync", "fdatasync", "fsync"]
BLOCK = 8192


def pg_test_fsync():
    found = shutil.which("pg_test_fsync") or next(iter(sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_test_fsync"))), None)
    if found:
        return found
    if os.geteuid() != 0:
        sys.exit("pg_test_fsync is missing: install Debian's postgresql package (apt-get install postgresql)")
    subprocess.run(["apt-get", "-o", "DPkg::Lock::Timeout=300", "install", "-y", "--no-install-recommends",
                    "postgresql"], check=True, stdout=subprocess.DEVNULL)
    return next(iter(sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_test_fsync"))))


def run_pg(tool, target, seconds):
    path = os.path.join(target, "pg_test_fsync.out")
    out = subprocess.run([tool, "-s", str(seconds), "-f", path], check=True, capture_output=True, text=True).stdout
    if os.path.exists(path):
        os.remove(path)
    rates = {}
    section = ""
    for line in out.splitlines():
        if line.startswith("Compare"):
            section = line
        m = re.match(r"\s+(\S+)\s+([0-9.]+) ops/sec", line)
        if m and "one 8kB write" in section and m.group(1) in METHODS:
            rates[m.group(1)] = float(m.group(2))
    return rates


def run_iolab(build, target, seconds, shape, size):
    matrix = {
        "name": "pg-compare",
        "groups": [
            {"strategies": ["write"], "chunks": ["8K"], "sizes": [size],
             "syncs": ["fdatasync-every:1", "fsync-every:1"], "preallocate": [shape],
             "timeLimits": [f"{seconds}s"]},
            {"strategies": ["direct"], "chunks": ["8K"], "sizes": [size], "syncs": ["O_DSYNC"],
             "preallocate": [shape], "timeLimits": [f"{seconds}s"]},
        ],
    }
    with tempfile.TemporaryDirectory() as tmp:
        mpath = os.path.join(tmp, "m.json")
        rpath = os.path.join(tmp, "r.json")
        with open(mpath, "w") as f:
            json.dump(matrix, f)
        subprocess.run([os.path.join(build, "app", "cli", "iolab-cli"), "run", "--target", target, "--matrix", mpath,
                        "--reps", "1", "--warmups", "0", "--quiet", "--no-summary", "--json", rpath],
                       check=True, stdout=subprocess.DEVNULL)
        with open(rpath) as f:
            result = json.load(f)
    rates = {}
    for c in result["cases"]:
        case = c["case"]
        sync = case["sync"]
        name = {"fdatasync-every:1": "fdatasync", "fsync-every:1": "fsync", "O_DSYNC": "open_datasync"}[sync]
        rates[name] = c["apparentMBps"]["median"] * 1e6 / BLOCK
    return rates


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("target")
    parser.add_argument("--pairs", type=int, default=2, help="even, so each tool runs first equally often")
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--shape", choices=["rewrite", "overwrite"], default="rewrite",
                        help="IOLab's preallocation: rewrite one block as pg_test_fsync does (default), or overwrite "
                             "a pre-written file front to back")
    parser.add_argument("--size", default=None,
                        help="IOLab's size per method: 1T for rewrite (the time limit ends it), 64M (the sync-lab "
                             "preset's cap) for overwrite, which pre-writes that much")
    opts = parser.parse_args()
    size = opts.size or ("1T" if opts.shape == "rewrite" else "64M")
    tool = pg_test_fsync()
    pg, iolab = {m: [] for m in METHODS}, {m: [] for m in METHODS}
    for i in range(opts.pairs):
        order = [("pg", run_pg, (tool, opts.target, opts.seconds)),
                 ("iolab", run_iolab, (opts.build, opts.target, opts.seconds, opts.shape, size))]
        if i % 2:
            order.reverse()
        for name, fn, args in order:
            rates = fn(*args)
            for m in METHODS:
                (pg if name == "pg" else iolab)[m].append(rates.get(m, float("nan")))
    print(f"{'method (8 KiB, ' + opts.shape + ')':28} {'pg_test_fsync ops/s':>20} {'IOLab ops/s':>12} {'IOLab/pg':>9} "
          f"{'per-pair ratio':>15} {'range':>12}")
    worst = 0.0
    for m in METHODS:
        a, b = statistics.median(pg[m]), statistics.median(iolab[m])
        ratio = b / a if a else float("nan")
        worst = max(worst, abs(ratio - 1))
        pairs = [y / x for x, y in zip(pg[m], iolab[m]) if x]
        print(f"{m:28} {a:20.1f} {b:12.1f} {ratio:9.3f} {statistics.median(pairs):15.3f} "
              f"{min(pairs):6.3f}-{max(pairs):.3f}   pg {pg[m]}  iolab {[round(x, 1) for x in iolab[m]]}")
    print(f"largest difference: {worst * 100:.1f}% ({'within' if worst <= 0.10 else 'outside'} the 10% the issue asks)")
    return 0 if worst <= 0.10 else 1


if __name__ == "__main__":
    sys.exit(main())
