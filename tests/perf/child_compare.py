#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A case run in a case child (the memory budget's way) against the same case run in iolab-cli's own process.

usage: child_compare.py BUILD_DIR TARGET_DIR [--pairs N] [--limit SIZE]

Issue 17 asks that running a case in a child process cost nothing: >= 0.97x the in-process rate for `write`
at 4 KiB and `direct` at 1 MiB. The only cases that run in a child are those under a memory limit, so the child
side is the same case with a limit far above anything it can use (--limit, 16G by default): the cgroup's cap
never binds, and what is left is the child process, its link block and the cgroup's accounting. Each pair runs
both sides, the order alternating, each one iolab-cli run of 1 warm-up and 3 measured repetitions; the medians
of the per-pair ratios of the median apparent and durable MB/s are printed. Needs what the memory limit needs
(root on cgroup v1, a delegated subtree on v2).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

CASES = [("write", "4K", "1G"), ("direct", "1M", "1G")]


def run(cli, target, strategy, chunk, size, limit):
    with tempfile.TemporaryDirectory() as out:
        result = os.path.join(out, "r.json")
        command = [cli, "run", "--target", target, "--strategy", strategy, "--chunk", chunk, "--size", size,
                   "--reps", "3", "--warmups", "1", "--json", result]
        if limit:
            command += ["--memory-limit", limit]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"iolab-cli failed ({done.returncode}): {done.stderr or done.stdout[-2000:]}")
        case = json.load(open(result))["cases"][0]
        if case["status"] != "ok":
            sys.exit(f"{strategy} {chunk}: {case['status']}: {case['reason']}")
        return case["apparentMBps"]["median"], case["durableMBps"]["median"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("target")
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--limit", default="16G")
    args = parser.parse_args()
    cli = os.path.join(args.build, "app", "cli", "iolab-cli")
    print(f"{'case':<14} {'in-process MB/s':>16} {'child MB/s':>12} {'apparent ratio':>15} {'durable ratio':>14}")
    for strategy, chunk, size in CASES:
        own, child, apparent, durable = [], [], [], []
        for pair in range(args.pairs):
            sides = [None, args.limit] if pair % 2 == 0 else [args.limit, None]
            got = {}
            for limit in sides:
                got[limit] = run(cli, args.target, strategy, chunk, size, limit)
            own.append(got[None][0])
            child.append(got[args.limit][0])
            apparent.append(got[args.limit][0] / got[None][0])
            durable.append(got[args.limit][1] / got[None][1])
        print(f"{strategy + ' ' + chunk:<14} {statistics.median(own):>16.1f} {statistics.median(child):>12.1f} "
              f"{statistics.median(apparent):>15.3f} {statistics.median(durable):>14.3f}")


if __name__ == "__main__":
    main()
