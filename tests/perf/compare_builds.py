#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Races two builds' iolab-cli against each other on compare.py's cases, alternating, and prints the median
ratio new/old per case: what a change did to the loops' speed, measured in one run on one machine.

usage: compare_builds.py OLD_BUILD NEW_BUILD TARGET_DIR [--pairs N] [--cpu N] [--only NAME,...]
                         [--skip NAME,...]

Each pair runs both builds once on the same case (the order alternates from pair to pair, and one discarded
pair warms the page cache and this VM's memory first); each iolab-cli run has one warm-up repetition, as in
compare.py. --cpu N pins this script and both builds' runs to one CPU: on this 2-core VM an unpinned pair's
ratio swings 0.6-1.5x with where the scheduler puts the writer, the reader and the sampler, which no code
change did (vmsplice 64K verified: 0.915 unpinned, 0.988 pinned, over 20 pairs each). The ratio is the new
build's apparent MB/s over the old one's, per pair; the median over pairs is reported with every pair's
ratio, and the CPU ratio (MB per CPU second, new over old) beside it. Build the old side with the same
compile flags, e.g.: git worktree add /tmp/old <commit> && cmake --preset dev -S /tmp/old
-DIOLAB_BUILD_GUI=OFF && cmake --build /tmp/old/build/dev --target iolab-cli (a commit before the platform
library's 64-byte alignment needs it added, or the comparison measures code placement, not the change)."""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402  (the cases and the runner, shared)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("target")
    parser.add_argument("--pairs", type=int, default=4, help="even, so each side runs first equally often")
    parser.add_argument("--cpu", type=int, default=None, help="pin every run to this CPU (Linux)")
    parser.add_argument("--only", default="")
    parser.add_argument("--skip", default="")
    opts = parser.parse_args()
    if opts.cpu is not None:
        os.sched_setaffinity(0, {opts.cpu})  # inherited by every iolab-cli this script starts
    only = [s for s in opts.only.split(",") if s]
    skip = [s for s in opts.skip.split(",") if s]
    print(f"{'case':38} {'old MB/s':>10} {'new MB/s':>10} {'new/old':>8} {'CPU':>6}  "
          f"(medians of {opts.pairs} pairs; CPU: MB per CPU second, new over old)")
    lowest = None
    for name, _program, _plain_args, iolab_args in compare.CASES:
        if (only and not any(o in name for o in only)) or any(w in name for w in skip):
            continue
        old, new = compare.alternate(opts.pairs, lambda: compare.run_iolab(opts.old, iolab_args, opts.target),
                                     lambda: compare.run_iolab(opts.new, iolab_args, opts.target))
        ratios = [b[0] / a[0] for a, b in zip(old, new)]
        cpu = [b[1] / a[1] for a, b in zip(old, new) if a[1] > 0 and b[1] > 0]
        median = statistics.median(ratios)
        lowest = median if lowest is None else min(lowest, median)
        old_rate = statistics.median(o[0] for o in old)
        new_rate = statistics.median(n[0] for n in new)
        print(f"{name:38} {old_rate:10.1f} {new_rate:10.1f} "
              f"{median:8.3f} {statistics.median(cpu) if cpu else 0:6.3f}  "
              f"ratios {' '.join(f'{r:.3f}' for r in ratios)}", flush=True)
    if lowest is not None:
        print(f"lowest median new/old: {lowest:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
