#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""How far this machine gets towards the published pipe record (issue 39): iolab-cli's vmsplice with the
variants the record adds one at a time, alternating in rounds, and one CPU's memcpy rate beside them.

usage: pipe_record.py BUILD_DIR [--rounds N] [--chunk 1M] [--size 8G] [--verify] [--variants NAME,...] [--plain]

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
import time

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


# The plain loop (plain_pipe) doing what each variant does: 1 vmsplice, 4 forked reader, 8 THP buffers,
# 16 spinning reader, 128 writer on CPU 0 and reader on CPU 1; "article" is the record's own loop (no copy
# into the buffers, 32, and a spinning writer, 64, as well), which only the plain loop runs, as it does the
# two steps between.
PLAIN = {
    "plain": 1 + 128,
    "thp": 1 + 8 + 128,
    "spin": 1 + 16 + 128,
    "thp+spin": 1 + 8 + 16 + 128,
    "process": 1 + 4 + 128,
    "process thp+spin": 1 + 4 + 8 + 16 + 128,
    "same": 1,
    "same thp": 1 + 8,
    "same process": 1 + 4,
    "article": 1 + 8 + 16 + 32 + 64 + 128,
    # The article's loop one step back each way: its writer blocking, or copying each chunk in as IOLab's does.
    "article, writer blocks": 1 + 8 + 16 + 32 + 128,
    "article, writer copies": 1 + 8 + 16 + 64 + 128,
}
PLAIN_ONLY = ["article", "article, writer blocks", "article, writer copies"]


def run_plain(build, mode, chunk, size, same_cpu):
    command = [os.path.join(build, "tests/perf/plain_pipe"), "x", str(chunk), str(size), str(mode)]
    if same_cpu:
        command = ["taskset", "-c", "0", *command]
    subprocess.run(command, check=True, capture_output=True, text=True)  # warm-up, as IOLab's
    return float(subprocess.run(command, check=True, capture_output=True, text=True).stdout.split()[0])


def bytes_of(text):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    return int(text[:-1]) * units[text[-1]] if text[-1] in units else int(text)


def idle_share(seconds=1.0):
    """The share of the machine's CPU time that was idle over `seconds` (/proc/stat)."""
    def read():
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
        return fields[3] + fields[4], sum(fields)
    idle0, total0 = read()
    time.sleep(seconds)
    idle1, total1 = read()
    return (idle1 - idle0) / max(1, total1 - total0)


def wait_for_quiet(most_seconds):
    """Waits until the machine has been at least 90% idle for a second (other work off both CPUs)."""
    waited = 0.0
    while waited < most_seconds and idle_share() < 0.9:
        waited += 1.0
    return waited


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
    parser.add_argument("--plain", action="store_true",
                        help="also run the plain loop of each variant (and the article's own) in each round")
    parser.add_argument("--quiet-wait", type=float, default=0.0,
                        help="before each round, wait up to this many seconds for a second of an idle machine "
                             "(a shared machine's builds take the reader's CPU)")
    opts = parser.parse_args()
    names = [v for v in opts.variants.split(",") if v]
    base = ["--strategy", "vmsplice", "--chunk", opts.chunk, "--size", opts.size]
    if not opts.verify:
        base.append("--no-pipe-verify")
    if opts.verify:
        base_mode = 2
    else:
        base_mode = 0
    runs = [(n, False) for n in names]
    if opts.plain:
        runs += [(n, True) for n in names if n in PLAIN] + [(n, True) for n in PLAIN_ONLY] * (not opts.verify)
    figures = {run: [] for run in runs}
    for r in range(opts.rounds):
        if opts.quiet_wait > 0:
            waited = wait_for_quiet(opts.quiet_wait)
            print(f"round {r + 1}: waited {waited:.0f} s for a quiet machine", flush=True)
        for n, plain in (runs if r % 2 == 0 else list(reversed(runs))):
            if plain:
                figures[(n, True)].append(run_plain(opts.build, PLAIN[n] + base_mode, bytes_of(opts.chunk),
                                                    bytes_of(opts.size), n.startswith("same")))
            else:
                figures[(n, False)].append(run_iolab(opts.build, [*base, *VARIANTS[n]]))
    print(f"vmsplice {opts.chunk}, {opts.size}, {'verified' if opts.verify else 'reader splices to /dev/null'}, "
          f"{opts.rounds} rounds")
    print(f"{'variant':28} {'MB/s':>9} {'GiB/s':>7} {'/plain':>7} {'best GiB/s':>10}  per round")
    for run in runs:
        n, plain = run
        m = statistics.median(figures[run])
        base_run = ("plain", plain)
        ratio = (f"{statistics.median(a / b for a, b in zip(figures[run], figures[base_run])):7.3f}"
                 if base_run in figures else "")
        name = f"{n} (plain loop)" if plain else n
        print(f"{name:28} {m:9.0f} {m * 1e6 / 2**30:7.2f} {ratio:>7} {max(figures[run]) * 1e6 / 2**30:10.2f}  "
              f"{' '.join(f'{x:.0f}' for x in figures[run])}")
    if opts.plain:
        print("IOLab / plain loop, median of the per-round ratios:")
        for n in names:
            if (n, True) in figures:
                ratios = [a / b for a, b in zip(figures[(n, False)], figures[(n, True)])]
                print(f"  {n:26} {statistics.median(ratios):.3f}  {' '.join(f'{x:.3f}' for x in ratios)}")
    bw = os.path.join(opts.build, "tests/perf/memcpy_bandwidth")
    for span in ["268435456", "1048576"]:
        out = subprocess.run([bw, "1048576" if span != "1048576" else "262144", span], check=True,
                             capture_output=True, text=True).stdout.strip()
        print(f"memcpy, one CPU: {out}")


if __name__ == "__main__":
    main()
