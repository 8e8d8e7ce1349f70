#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What IOLab's recorder costs a program: record_loops's write(2) and one-byte stdio loops, timed by the loop
itself, run alternately without and with libiolab-record.so preloaded (as iolab-cli record runs a program),
medians of the rounds, and the ratio recorded / plain for each loop (issue 37's targets: the 4 KiB write loop
at most 1.1x, the one-byte fwrite loop stated, 2x at most).

    tests/perf/record_overhead.py BUILD_DIR [--rounds 7] [--folder DIR]

The files go into --folder (default: a temporary folder under /tmp) and are removed; the recorder's parts go
into a folder of their own there, removed after each run. A warm-up round of each comes first, not counted.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import tempfile

LOOPS = [
    ("write4k", 256 << 20, "write(2), 4 KiB chunks, 256 MiB to the page cache"),
    ("fwrite1", 64 << 20, "fwrite of 1 byte, 64 MiB, default buffer"),
    ("fputc", 64 << 20, "fputc of 1 byte, 64 MiB, default buffer"),
]


def run(program, mode, path, size, library, parts):
    env = dict(os.environ)
    if library:
        os.makedirs(parts, exist_ok=True)
        env["LD_PRELOAD"] = library
        env["IOLAB_RECORD_DIR"] = parts
    out = subprocess.run([program, mode, path, str(size)], env=env, check=True, capture_output=True, text=True)
    if library:
        shutil.rmtree(parts, ignore_errors=True)
    os.remove(path)
    return float(out.stdout.strip())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--folder")
    args = parser.parse_args()
    program = os.path.join(args.build, "tests/perf/record_loops")
    library = os.path.join(args.build, "platform/libiolab-record.so")
    folder = args.folder or tempfile.mkdtemp(prefix="iolab-record-overhead-")
    path = os.path.join(folder, "loop.out")
    parts = os.path.join(folder, "parts")
    print(f"{'loop':<46} {'plain':>9} {'recorded':>9} {'ratio':>6}")
    for mode, size, words in LOOPS:
        run(program, mode, path, size, None, parts)
        run(program, mode, path, size, library, parts)
        plain, recorded, ratios = [], [], []
        for _ in range(args.rounds):
            a = run(program, mode, path, size, None, parts)
            b = run(program, mode, path, size, library, parts)
            plain.append(a)
            recorded.append(b)
            ratios.append(b / a)
        print(f"{words:<46} {statistics.median(plain):8.3f}s {statistics.median(recorded):8.3f}s "
              f"{statistics.median(ratios):5.2f}x  (rounds' ratios {min(ratios):.2f}-{max(ratios):.2f})")
    if not args.folder:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
