#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A case run in a case child (the memory budget's way) against the same case run in iolab-cli's own process.

usage: child_compare.py BUILD_DIR TARGET_DIR [--pairs N] [--runs N] [--limit SIZE] [--latency off|auto]
                        [--only STRATEGY]

Issue 17 asks that running a case in a child process cost nothing: >= 0.97x the in-process rate for `write`
at 4 KiB and `direct` at 1 MiB. The only cases that run in a child are those under a memory limit, so the child
side is the same case with a limit far above anything it can use (--limit, 16G by default): the cgroup's cap
never binds, and what is left is the child process, its link block and the cgroup's accounting.

This VM's disk moves by 40% from one second to the next, so the two sides alternate case by case inside one
iolab-cli run (a matrix file of 2 x N groups), each case one repetition of 1 GiB after one warm-up repetition;
neighbours share the disk's mood. Which side of a pair goes first is drawn at random (seeded): the disk's rate
swings in waves of a few seconds, and a fixed order (AB BA AB ...) puts same-side cases next to each other, so
one run could come out 0.84x and the next 1.07x from the waves alone. Matrix files refuse duplicate cases, so
pair i writes 1024+i MiB on both sides. --runs repeats the whole run and pools the pairs. The ratio
child/in-process is taken per pair, and the median of the ratios is printed with their middle half (IQR).

Both sides take the same --latency (auto by default, as a user's run does: the child times its calls and hands
its histograms over, as IOLab's own process does); --latency off compares the loops without any clock read.
Needs what the memory limit needs (root on cgroup v1, a delegated subtree on v2).
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile

CASES = [("write", "4K"), ("direct", "1M")]


def matrix(strategy, chunk, pairs, limit, latency, order):
    groups = []
    for pair in range(pairs):
        sides = [None, limit] if order.random() < 0.5 else [limit, None]
        for side in sides:
            group = {"strategies": [strategy], "chunks": [chunk], "sizes": [f"{1024 + pair}M"],
                     "latencies": [latency]}
            if side:
                group["memoryLimits"] = [side]
            groups.append(group)
    return {"name": f"child against in-process, {strategy} {chunk}", "groups": groups}


def quartiles(values):
    """The middle half of the per-pair ratios: how far one pair's ratio can be trusted."""
    if len(values) < 4:
        return "-"
    q = statistics.quantiles(values, n=4)
    return f"{q[0]:.3f}-{q[2]:.3f}"


def race(cli, target, strategy, chunk, pairs, limit, latency, order):
    with tempfile.TemporaryDirectory() as out:
        matrix_path = os.path.join(out, "m.json")
        result = os.path.join(out, "r.json")
        with open(matrix_path, "w") as f:
            json.dump(matrix(strategy, chunk, pairs, limit, latency, order), f)
        command = [cli, "run", "--target", target, "--matrix", matrix_path, "--reps", "1", "--warmups", "1",
                   "--json", result, "--quiet"]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"iolab-cli failed ({done.returncode}): {done.stderr or done.stdout[-2000:]}")
        cases = json.load(open(result))["cases"]
    by_pair = {}
    for case in cases:
        spec = case["case"]
        if case["status"] != "ok":
            sys.exit(f"{spec['label']}: {case['status']}: {case['reason']}")
        side = "child" if spec.get("memoryLimit", "none") != "none" else "own"
        by_pair.setdefault(spec["totalBytes"], {})[side] = (case["apparentMBps"]["median"],
                                                             case["durableMBps"]["median"])
    return [p for p in by_pair.values() if len(p) == 2]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("target")
    parser.add_argument("--pairs", type=int, default=20)
    parser.add_argument("--runs", type=int, default=1, help="iolab-cli runs per case, their pairs pooled")
    parser.add_argument("--seed", type=int, default=17, help="the seed of the sides' order")
    parser.add_argument("--limit", default="16G")
    parser.add_argument("--latency", default="auto", choices=["off", "auto"],
                        help="both sides' call timing")
    parser.add_argument("--only", choices=[s for s, _ in CASES], help="one case only")
    args = parser.parse_args()
    cli = os.path.join(args.build, "app", "cli", "iolab-cli")
    print(f"{'case':<14} {'pairs':>5} {'in-process MB/s':>16} {'child MB/s':>11} {'apparent ratio':>15} "
          f"{'durable ratio':>14} {'apparent IQR':>13}")
    for strategy, chunk in CASES:
        if args.only and strategy != args.only:
            continue
        order = random.Random(args.seed)
        pairs = []
        for _ in range(args.runs):
            pairs += race(cli, args.target, strategy, chunk, args.pairs, args.limit, args.latency, order)
        apparent = [p["child"][0] / p["own"][0] for p in pairs]
        durable = [p["child"][1] / p["own"][1] for p in pairs]
        print(f"{strategy + ' ' + chunk:<14} {len(pairs):>5} {statistics.median(p['own'][0] for p in pairs):>16.1f} "
              f"{statistics.median(p['child'][0] for p in pairs):>11.1f} {statistics.median(apparent):>15.3f} "
              f"{statistics.median(durable):>14.3f} {quartiles(apparent):>13}")


if __name__ == "__main__":
    main()
