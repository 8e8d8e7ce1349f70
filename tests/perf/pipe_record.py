#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""How far this machine gets towards the published pipe record (issue 39): iolab-cli's vmsplice with the
variants the record adds one at a time, alternating in rounds, and one CPU's memcpy rate beside them.

usage: pipe_record.py BUILD_DIR [--rounds N] [--chunk 1M] [--size 8G] [--verify] [--variants NAME,...]

mazzo.li, "How fast are Linux pipes anyway?" (2022): vmsplice into splice ~32 GiB/s, with huge pages ~51 GiB/s,
with busy-looping ~62 GiB/s, the reader splicing to /dev/null (IOLab's --no-pipe-verify) on a CPU of its own.
Each round runs every variant once (`--reps 1 --warmups 1`), the order reversed every other round; the table
holds each variant's median MB/s, its median ratio to `plain` (the variant paired with plain in the same
round) and its best round: with the reader on the other CPU, a build running beside takes that CPU and
the round with it, so the best round is what the machine gets when left alone. Then memcpy_bandwidth on one CPU: from memory (256 MiB span) and from the cache (1 MiB span).
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile

VARIANTS = {
    "plain": ["--reader-cpu", "other"],
    "thp": ["--reader-cpu", "other", "--pipe-pages", "thp"],
    "spin": ["--reader-cpu", "other", "--reader-wait", "spin"],
    "thp+spin": ["--reader-cpu", "other", "--pipe-pages", "thp", "--reader-wait", "spin"],
    "process": ["--reader-cpu", "other", "--reader", "process"],
    "process thp+spin": ["--reader-cpu", "other", "--reader", "process", "--pipe-pages", "thp",
                         "--reader-wait", "spin"],
    "same": ["--reader-cpu", "same"],
    "same thp": ["--reader-cpu", "same", "--pipe-pages", "thp"],
    "same process": ["--reader-cpu", "same", "--reader", "process"],
}


def run_iolab(build, args):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        out = f.name
    try:
        subprocess.run([os.path.join(build, "app/cli/iolab-cli"), "run", "--target", tempfile.gettempdir(),
                        "--reps", "1", "--warmups", "1", "--quiet", "--json", out, *args],
                       check=True, capture_output=True, text=True)
        with open(out) as f:
            case = json.load(f)["cases"][0]
        if case["status"] != "ok":
            raise RuntimeError(f"{case['case']['label']}: {case['reason']}")
        return case["repetitions"][-1]["apparentMBps"]
    finally:
        os.unlink(out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--chunk", default="1M")
    parser.add_argument("--size", default="8G")
    parser.add_argument("--verify", action="store_true", help="the reader checks every byte (IOLab's default)")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    opts = parser.parse_args()
    names = [v for v in opts.variants.split(",") if v]
    base = ["--strategy", "vmsplice", "--chunk", opts.chunk, "--size", opts.size]
    if not opts.verify:
        base.append("--no-pipe-verify")
    figures = {n: [] for n in names}
    for r in range(opts.rounds):
        for n in (names if r % 2 == 0 else list(reversed(names))):
            figures[n].append(run_iolab(opts.build, [*base, *VARIANTS[n]]))
    print(f"vmsplice {opts.chunk}, {opts.size}, {'verified' if opts.verify else 'reader splices to /dev/null'}, "
          f"{opts.rounds} rounds")
    print(f"{'variant':20} {'MB/s':>9} {'GiB/s':>7} {'/plain':>7} {'best GiB/s':>10}  per round")
    for n in names:
        m = statistics.median(figures[n])
        ratio = (f"{statistics.median(a / b for a, b in zip(figures[n], figures['plain'])):7.3f}"
                 if "plain" in figures else "")
        print(f"{n:20} {m:9.0f} {m * 1e6 / 2**30:7.2f} {ratio:>7} {max(figures[n]) * 1e6 / 2**30:10.2f}  "
              f"{' '.join(f'{x:.0f}' for x in figures[n])}")
    bw = os.path.join(opts.build, "tests/perf/memcpy_bandwidth")
    for span in ["268435456", "1048576"]:
        out = subprocess.run([bw, "1048576" if span != "1048576" else "262144", span], check=True,
                             capture_output=True, text=True).stdout.strip()
        print(f"memcpy, one CPU: {out}")


if __name__ == "__main__":
    main()
