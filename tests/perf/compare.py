#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Races each plain loop against iolab-cli on the same parameters, alternating A/B, and prints median ratios.

usage: compare.py BUILD_DIR TARGET_DIR [--pairs N] [--only NAME,...] [--skip NAME,...] [--wine] [--latency-cost]

--only keeps the cases whose name contains one of the words (e.g. --only "1 B,verified"); the extra groups run
when named: sampling, verify (pipe verification on vs off), vmsplice (vmsplice vs pipe-write). --skip leaves
out the cases whose name contains one of its words (e.g. --skip "pipe,vmsplice" for the file rows alone).

With --latency-cost, only the cost of latency recording runs: iolab-cli with --latency on against --latency off
on the same case (LATENCY_CASES), alternating, as the median of the per-pair ratios of MB/s (on/off); --only
and --skip pick among those rows too. The uring rows race plain_uring (io_uring written by hand) against the
uring-* strategies.

With --wine, BUILD_DIR is the Windows cross build (build/windows): plain_windows.exe races iolab-cli.exe, both
under wine (start a persistent `wineserver -p` first), on the Windows cases below.

Each pair runs the plain program and iolab-cli once each (the order alternates from pair to pair); one
discarded pair first warms the page cache and this VM's memory. Both sides warm up the way IOLab does: the
plain program runs once untimed before the measured run, and iolab-cli runs one warm-up repetition, because
this VM hands freed memory back to its host and the first large buffered write after that is 2-5x slower. The ratio is IOLab's apparent MB/s over the
plain loop's, per pair; the median over pairs is reported. Also: sampling on vs off, and vmsplice vs
pipe-write, both measured by iolab-cli, alternating.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

K = 1024
M = K * K

# name, plain program, plain args (after the path: chunk, total, extra, or as the program takes them), iolab args
CASES = [
    ("stdio 1 B, default buffer", "plain_stdio", (1, 256 * M, 0),
     ["--strategy", "stdio", "--chunk", "1", "--buffer", "default", "--size", "256M"]),
    # stdio-unlocked against a C loop written `fwrite_unlocked(p, 1, 1, f)`, which glibc expands inline.
    ("stdio-unlocked 1 B, default buffer", "plain_putc", ("fwrite_unlocked", 1, 256 * M, 0),
     ["--strategy", "stdio-unlocked", "--chunk", "1", "--buffer", "default", "--size", "256M"]),
    ("stdio-unlocked 1 B, 64K buffer", "plain_putc", ("fwrite_unlocked", 1, 256 * M, 64 * K),
     ["--strategy", "stdio-unlocked", "--chunk", "1", "--buffer", "64K", "--size", "256M"]),
    ("stdio-unlocked 4 B, default buffer", "plain_putc", ("fwrite_unlocked", 4, 512 * M, 0),
     ["--strategy", "stdio-unlocked", "--chunk", "4", "--buffer", "default", "--size", "512M"]),
    # stdio-unlocked-call against the C++ loop, where g++ keeps the library call whatever the size.
    ("stdio-unlocked-call 1 B, default buffer", "plain_stdio_unlocked", (1, 256 * M, 0),
     ["--strategy", "stdio-unlocked-call", "--chunk", "1", "--buffer", "default", "--size", "256M"]),
    ("putc-unlocked 1 B, default buffer", "plain_putc", ("putc_unlocked", 1, 256 * M, 0),
     ["--strategy", "putc-unlocked", "--chunk", "1", "--buffer", "default", "--size", "256M"]),
    ("putc 1 B, default buffer", "plain_putc", ("putc", 1, 128 * M, 0),
     ["--strategy", "putc", "--chunk", "1", "--buffer", "default", "--size", "128M"]),
    ("fputc 1 B, default buffer", "plain_putc", ("fputc", 1, 128 * M, 0),
     ["--strategy", "fputc", "--chunk", "1", "--buffer", "default", "--size", "128M"]),
    # glibc's putc and fputc skip the FILE lock until a process starts its first thread; IOLab always has
    # threads, so the like-for-like plain loop starts (and joins) one first.
    ("putc 1 B, plain with a thread", "plain_putc", ("putc", 1, 128 * M, 0, 1),
     ["--strategy", "putc", "--chunk", "1", "--buffer", "default", "--size", "128M"]),
    ("fputc 1 B, plain with a thread", "plain_putc", ("fputc", 1, 128 * M, 0, 1),
     ["--strategy", "fputc", "--chunk", "1", "--buffer", "default", "--size", "128M"]),
    ("stdio 4 KiB, default buffer", "plain_stdio", (4 * K, 256 * M, 0),
     ["--strategy", "stdio", "--chunk", "4K", "--buffer", "default", "--size", "256M"]),
    ("write 64 KiB", "plain_write", (64 * K, 1024 * M, 0),
     ["--strategy", "write", "--chunk", "64K", "--size", "1G"]),
    ("write 4 KiB", "plain_write", (4 * K, 256 * M, 0),
     ["--strategy", "write", "--chunk", "4K", "--size", "256M"]),
    # On Linux a process with a second thread pays more per read(2)/write(2) of a file (fdget_pos takes a
    # reference and the position lock); IOLab always has one, so the like-for-like plain loop keeps one waiting.
    ("write 4 KiB, plain with a thread", "plain_write", (4 * K, 256 * M, 0, 1),
     ["--strategy", "write", "--chunk", "4K", "--size", "256M"]),
    ("direct 1 MiB", "plain_write", (1 * M, 512 * M, 1),
     ["--strategy", "direct", "--chunk", "1M", "--size", "512M"]),
    ("mmap-window 4 KiB", "plain_mmap_window", (4 * K, 128 * M, 0),
     ["--strategy", "mmap-window", "--chunk", "4K", "--size", "128M"]),
    ("mmap-batch-direct 4 KiB", "plain_mmap_batch_direct", (4 * K, 128 * M, 0),
     ["--strategy", "mmap-batch-direct", "--chunk", "4K", "--size", "128M"]),
    ("pipe-write 64 KiB", "plain_pipe", (64 * K, 2048 * M, 0),
     ["--strategy", "pipe-write", "--chunk", "64K", "--size", "2G", "--no-pipe-verify"]),
    ("vmsplice 64 KiB", "plain_pipe", (64 * K, 2048 * M, 1),
     ["--strategy", "vmsplice", "--chunk", "64K", "--size", "2G", "--no-pipe-verify"]),
    ("read 4 KiB, warm", "plain_read", (4 * K, 1024 * M, 1),
     ["--strategy", "read", "--chunk", "4K", "--size", "1G", "--cache", "warm"]),
    ("read 4 KiB, warm, plain with a thread", "plain_read", (4 * K, 1024 * M, 1, 1),
     ["--strategy", "read", "--chunk", "4K", "--size", "1G", "--cache", "warm"]),
    ("read 1 MiB, warm", "plain_read", (1 * M, 2048 * M, 1),
     ["--strategy", "read", "--chunk", "1M", "--size", "2G", "--cache", "warm"]),
    ("read 1 MiB, cold", "plain_read", (1 * M, 1024 * M, 0),
     ["--strategy", "read", "--chunk", "1M", "--size", "1G"]),
    ("read-direct 1 MiB, cold", "plain_read", (1 * M, 1024 * M, 2),
     ["--strategy", "read-direct", "--chunk", "1M", "--size", "1G"]),
    # io_uring with O_DIRECT: plain_uring's hand-written queue (registered file and buffers) against IOLab's.
    ("uring-random-read-direct 4 KiB QD1", "plain_uring", (4 * K, 64 * M, 0, 1),
     ["--strategy", "uring-random-read-direct", "--chunk", "4K", "--size", "64M", "--qd", "1"]),
    ("uring-random-read-direct 4 KiB QD32", "plain_uring", (4 * K, 256 * M, 0, 32),
     ["--strategy", "uring-random-read-direct", "--chunk", "4K", "--size", "256M", "--qd", "32"]),
    ("uring-write-direct 1 MiB QD1", "plain_uring", (1 * M, 512 * M, 1, 1),
     ["--strategy", "uring-write-direct", "--chunk", "1M", "--size", "512M", "--qd", "1"]),
    ("uring-write-direct 1 MiB QD32", "plain_uring", (1 * M, 1024 * M, 1, 32),
     ["--strategy", "uring-write-direct", "--chunk", "1M", "--size", "1G", "--qd", "32"]),
    ("pipe-write 256 KiB", "plain_pipe", (256 * K, 2048 * M, 0),
     ["--strategy", "pipe-write", "--chunk", "256K", "--size", "2G", "--no-pipe-verify"]),
    ("vmsplice 256 KiB", "plain_pipe", (256 * K, 4096 * M, 1),
     ["--strategy", "vmsplice", "--chunk", "256K", "--size", "4G", "--no-pipe-verify"]),
]
# The pipe strategies with IOLab's default verification, against a plain reader that verifies the same way:
# read(2) 256 KiB at a time (IOLab's read size) and memcmp each read against an expanded pattern.
for _chunk, _label in [(64 * K, "64K"), (256 * K, "256K"), (1 * M, "1M")]:
    for _mode, _strategy in [(2, "pipe-write"), (3, "vmsplice")]:
        CASES.append((f"{_strategy} {_label}, verified", "plain_pipe", (_chunk, 2048 * M, _mode, 256 * K),
                      ["--strategy", _strategy, "--chunk", _label, "--size", "2G"]))

# The reader in a process of its own (issue 39): IOLab's forked reader (--reader process) against a plain loop
# whose forked reader reads and checks every byte the same way (plain_pipe's mode + 4).
for _chunk, _label in [(64 * K, "64K"), (1 * M, "1M")]:
    for _mode, _strategy in [(6, "pipe-write"), (7, "vmsplice")]:
        CASES.append((f"{_strategy} {_label}, verified, reader process", "plain_pipe",
                      (_chunk, 2048 * M, _mode, 256 * K),
                      ["--strategy", _strategy, "--chunk", _label, "--size", "2G", "--reader", "process"]))

# Latency recording on against off (iolab-cli both sides): name, iolab args. stdio 1 B is a case `auto` leaves
# untimed (a clock read costs as much as the call); `on` forces it, and the row says what that costs.
LATENCY_CASES = [
    ("write 4 KiB", ["--strategy", "write", "--chunk", "4K", "--size", "256M"]),
    ("direct 4 KiB", ["--strategy", "direct", "--chunk", "4K", "--size", "64M"]),
    ("stdio 1 B, default buffer", ["--strategy", "stdio", "--chunk", "1", "--buffer", "default", "--size", "8M"]),
]

# The Windows backend under wine: name, plain_windows mode, plain args, iolab args.
WINE_CASES = [
    ("stdio 1 B, default buffer", "stdio", (1, 64 * M, 0),
     ["--strategy", "stdio", "--chunk", "1", "--buffer", "default", "--size", "64M"]),
    ("stdio 4 KiB, default buffer", "stdio", (4 * K, 256 * M, 0),
     ["--strategy", "stdio", "--chunk", "4K", "--buffer", "default", "--size", "256M"]),
    ("write 4 KiB", "write", (4 * K, 256 * M, 0),
     ["--strategy", "write", "--chunk", "4K", "--size", "256M"]),
    ("write 64 KiB", "write", (64 * K, 1024 * M, 0),
     ["--strategy", "write", "--chunk", "64K", "--size", "1G"]),
    ("direct 1 MiB", "write", (1 * M, 512 * M, 1),
     ["--strategy", "direct", "--chunk", "1M", "--size", "512M"]),
    ("pipe-write 64 KiB", "pipe", (64 * K, 1024 * M, 0),
     ["--strategy", "pipe-write", "--chunk", "64K", "--size", "1G", "--no-pipe-verify"]),
]

WINE = False


def windows_path(path):
    return "Z:" + path.replace("/", "\\") if WINE else path


def run_plain(build, program, args, target):
    path = os.path.join(target, "plain-bench.dat")
    if WINE:
        command = ["wine", os.path.join(build, "tests/perf/plain_windows.exe"), program, windows_path(path),
                   *map(str, args)]
    else:
        command = [os.path.join(build, "tests/perf", program), path, *map(str, args)]
    subprocess.run(command, check=True, capture_output=True, text=True)  # warm-up, as IOLab's
    out = subprocess.run(command, check=True, capture_output=True, text=True)
    wall, cpu = out.stdout.split()
    return float(wall), float(cpu)


def run_iolab(build, args, target, extra=()):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        out = f.name
    try:
        cli = ["wine", os.path.join(build, "app/cli/iolab-cli.exe")] if WINE else [os.path.join(build, "app/cli/iolab-cli")]
        subprocess.run([*cli, "run", "--target", windows_path(target), "--reps", "1",
                        "--warmups", "1", "--quiet", "--json", windows_path(out), *args, *extra],
                       check=True, capture_output=True, text=True)
        with open(out) as f:
            result = json.load(f)
        case = result["cases"][0]
        if case["status"] != "ok":
            raise RuntimeError(f"iolab case {case['case']['label']}: {case['reason']}")
        rep = case["repetitions"][-1]
        cpu = rep["cpuUserSeconds"] + rep["cpuSystemSeconds"]
        return rep["apparentMBps"], rep["bytes"] / cpu / 1e6 if cpu > 0 else 0.0
    finally:
        os.unlink(out)


SETTLE = 0.0


def settled(f):
    """Lets the device finish the previous run's write-back before the next run starts."""
    os.sync()
    time.sleep(SETTLE)
    return f()


def alternate(pairs, a, b):
    """Runs a() and b() in alternating order; returns the lists of a and b figures (first pair discarded)."""
    xs, ys = [], []
    for i in range(pairs + 1):
        if i % 2 == 0:
            x = settled(a)
            y = settled(b)
        else:
            y = settled(b)
            x = settled(a)
        if i > 0:
            xs.append(x)
            ys.append(y)
    return xs, ys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("target")
    parser.add_argument("--pairs", type=int, default=8, help="even, so each side runs first equally often")
    parser.add_argument("--settle", type=float, default=0.0, help="seconds of rest before each run")
    parser.add_argument("--only", default="")
    parser.add_argument("--skip", default="", help="leave out the cases whose name contains one of the words")
    parser.add_argument("--wine", action="store_true", help="the Windows build under wine")
    parser.add_argument("--latency-cost", action="store_true",
                        help="only latency recording on against off (LATENCY_CASES)")
    opts = parser.parse_args()
    global SETTLE, WINE
    SETTLE = opts.settle
    WINE = opts.wine
    only = [s for s in opts.only.split(",") if s]
    skip = [s for s in opts.skip.split(",") if s]

    if opts.latency_cost:
        return latency_cost(opts, only, skip)

    print(f"{'case':38} {'plain MB/s':>11} {'IOLab MB/s':>11} {'ratio':>7} {'CPU ratio':>9}  "
          f"(medians of {opts.pairs} pairs; CPU ratio: MB per CPU second, IOLab over plain)")
    for name, program, plain_args, iolab_args in (WINE_CASES if WINE else CASES):
        if (only and not any(o in name for o in only)) or any(w in name for w in skip):
            continue
        plain, iolab = alternate(opts.pairs, lambda: run_plain(opts.build, program, plain_args, opts.target),
                                 lambda: run_iolab(opts.build, iolab_args, opts.target))
        ratios = [b[0] / a[0] for a, b in zip(plain, iolab)]
        cpu_ratios = [b[1] / a[1] for a, b in zip(plain, iolab) if a[1] > 0 and b[1] > 0]
        print(f"{name:38} {statistics.median(p[0] for p in plain):11.1f} "
              f"{statistics.median(i[0] for i in iolab):11.1f} {statistics.median(ratios):7.3f} "
              f"{statistics.median(cpu_ratios) if cpu_ratios else 0:9.3f}  "
              f"ratios {' '.join(f'{r:.3f}' for r in ratios)}", flush=True)

    if WINE:
        return 0
    def group_wanted(group, rows):
        """An extra group runs when named (or when nothing is), and not when a --skip word is in its rows."""
        return (not only or group in only) and not any(w in row for w in skip for row in rows)

    if group_wanted("sampling", ["sampling, stdio-unlocked 1 B", "sampling, write 64 KiB", "sampling, write 4 KiB"]):
        by_name = {case[0]: case[3] for case in CASES}
        # Without sampling no sampler thread runs: at 4 KiB the difference is mostly the second thread's cost
        # to every write(2) (fdget_pos), which the "plain with a thread" row shows on the plain side.
        for name, args in [("sampling, stdio-unlocked 1 B", by_name["stdio-unlocked 1 B, default buffer"]),
                           ("sampling, write 64 KiB", by_name["write 64 KiB"]),
                           ("sampling, write 4 KiB", by_name["write 4 KiB"])]:
            on, off = alternate(opts.pairs, lambda: run_iolab(opts.build, args, opts.target),
                                lambda: run_iolab(opts.build, args, opts.target, ["--no-sampling"]))
            ratios = [a[0] / b[0] for a, b in zip(on, off)]
            print(f"{name + ' (on/off)':38} {statistics.median(b[0] for b in off):11.1f} "
                  f"{statistics.median(a[0] for a in on):11.1f} "
                  f"{statistics.median(ratios):7.3f}  ratios {' '.join(f'{r:.3f}' for r in ratios)}", flush=True)

    if group_wanted("verify", ["verify on/off, pipe-write", "verify on/off, vmsplice"]):
        for strategy in ["pipe-write", "vmsplice"]:
            for chunk in ["64K", "256K", "1M"]:
                args = ["--strategy", strategy, "--chunk", chunk, "--size", "2G"]
                on, off = alternate(opts.pairs, lambda: run_iolab(opts.build, args, opts.target),
                                    lambda: run_iolab(opts.build, args, opts.target, ["--no-pipe-verify"]))
                ratios = [a[0] / b[0] for a, b in zip(on, off)]
                cpu_ratios = [a[1] / b[1] for a, b in zip(on, off) if a[1] > 0 and b[1] > 0]
                print(f"{'verify on/off, ' + strategy + ' ' + chunk:38} {statistics.median(b[0] for b in off):11.1f} "
                      f"{statistics.median(a[0] for a in on):11.1f} {statistics.median(ratios):7.3f} "
                      f"{statistics.median(cpu_ratios) if cpu_ratios else 0:9.3f}  "
                      f"ratios {' '.join(f'{r:.3f}' for r in ratios)}", flush=True)

    if group_wanted("vmsplice", ["vmsplice / pipe-write"]):
        for chunk in ["64K", "256K"]:
            base = ["--chunk", chunk, "--size", "2G", "--no-pipe-verify"]
            vm, pw = alternate(opts.pairs, lambda: run_iolab(opts.build, ["--strategy", "vmsplice", *base], opts.target),
                               lambda: run_iolab(opts.build, ["--strategy", "pipe-write", *base], opts.target))
            ratios = [a[0] / b[0] for a, b in zip(vm, pw)]
            print(f"{'vmsplice / pipe-write ' + chunk:38} {statistics.median(b[0] for b in pw):11.1f} "
                  f"{statistics.median(a[0] for a in vm):11.1f} "
                  f"{statistics.median(ratios):7.3f}  ratios {' '.join(f'{r:.3f}' for r in ratios)}", flush=True)


def latency_cost(opts, only, skip):
    """iolab-cli --latency on against --latency off, alternating; the median of the per-pair ratios (on/off)."""
    print(f"{'case (latency on/off)':38} {'off MB/s':>11} {'on MB/s':>11} {'ratio':>7} {'CPU ratio':>9}  "
          f"(medians of {opts.pairs} pairs)")
    for name, args in LATENCY_CASES:
        if (only and not any(o in name for o in only)) or any(w in name for w in skip):
            continue
        on, off = alternate(opts.pairs, lambda: run_iolab(opts.build, args, opts.target, ["--latency", "on"]),
                            lambda: run_iolab(opts.build, args, opts.target, ["--latency", "off"]))
        ratios = [a[0] / b[0] for a, b in zip(on, off)]
        cpu_ratios = [a[1] / b[1] for a, b in zip(on, off) if a[1] > 0 and b[1] > 0]
        print(f"{name:38} {statistics.median(b[0] for b in off):11.1f} {statistics.median(a[0] for a in on):11.1f} "
              f"{statistics.median(ratios):7.3f} {statistics.median(cpu_ratios) if cpu_ratios else 0:9.3f}  "
              f"ratios {' '.join(f'{r:.3f}' for r in ratios)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
