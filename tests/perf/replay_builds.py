#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Two builds' replay of one trace, raced: the time inside the replayed calls (the replay's median of its
measured repetitions), the builds alternating round by round, and the ratio new/old per round.

    tests/perf/replay_builds.py OLD_BUILD NEW_BUILD TRACE TARGET [--rounds 7]

For a change to the replay job's shape (platform/common/replay_job): a trace of many cheap calls (dd to the
page cache) shows what the job adds to each call; one of synced writes is the device's noise.
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile


def inside(cli, trace, target, out):
    subprocess.run([cli, "run", "--target", target, "--replay", trace, "--reps", "3", "--warmups", "1",
                    "--quiet", "--no-summary", "--json", out], check=True, capture_output=True)
    case = json.load(open(out))["cases"][0]
    return statistics.median(r["insideSeconds"] for r in case["repetitions"] if not r.get("warmup"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("trace")
    parser.add_argument("target")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    builds = {name: os.path.join(path, "app/cli/iolab-cli") for name, path in (("old", args.old), ("new", args.new))}
    seen = {"old": [], "new": []}
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "result.json")
        for r in range(args.rounds):
            for name in ("old", "new") if r % 2 == 0 else ("new", "old"):
                seen[name].append(inside(builds[name], args.trace, args.target, out))
    ratios = [n / o for n, o in zip(seen["new"], seen["old"])]
    for name in ("old", "new"):
        print(f"{name}: median {statistics.median(seen[name]) * 1e3:.1f} ms inside the calls")
    print(f"new/old per round: {', '.join(f'{x:.3f}' for x in ratios)}; median {statistics.median(ratios):.3f}")


if __name__ == "__main__":
    main()
