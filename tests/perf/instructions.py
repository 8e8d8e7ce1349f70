#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Instructions per byte of the per-byte stdio loops, IOLab against the plain C loop, under callgrind.

Callgrind counts instructions, not seconds, so the figure holds still on a loaded machine where wall-clock
ratios of these loops swing by 10%. Each side runs twice, at SMALL and at 2 x SMALL bytes; the difference
divided by SMALL is the marginal cost of one more byte, with start-up, the pattern's set-up and the final
fsync cancelled out.

    python3 tests/perf/instructions.py build/dev [/path/on/a/disk]

Without a path it works in a temporary folder it removes again (the test suite runs it so, as the ctest test
perf.instructions). Exits non-zero when a case's IOLab loop costs more than LIMIT times the plain loop's instructions per byte,
so that a change which puts a load back into the 1-byte loop shows (the issue-16 regression was 11.3 -> 13.3).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

SMALL = 4 * 1024 * 1024
LIMIT = 1.03

# name, plain_putc arguments after the path and before the byte count, iolab-cli arguments without --size
CASES = [
    ("stdio-unlocked 1 B", ["fwrite_unlocked", "1"], ["--strategy", "stdio-unlocked", "--chunk", "1"]),
    ("stdio-unlocked 4 B", ["fwrite_unlocked", "4"], ["--strategy", "stdio-unlocked", "--chunk", "4"]),
    ("putc-unlocked 1 B", ["putc_unlocked", "1"], ["--strategy", "putc-unlocked", "--chunk", "1"]),
    ("putc 1 B (plain with a thread)", ["putc", "1"], ["--strategy", "putc", "--chunk", "1"]),
]


def instructions(command, env=None):
    with tempfile.NamedTemporaryFile(suffix=".callgrind", delete=False) as f:
        out = f.name
    try:
        run = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *command],
                             capture_output=True, text=True, check=True, env=env)
        found = re.search(r"Collected : (\d+)", run.stderr)
        if not found:
            raise RuntimeError(f"no instruction count from callgrind for {command}")
        return int(found.group(1))
    finally:
        os.unlink(out)


def per_byte(make_command, env=None):
    return (instructions(make_command(2 * SMALL), env) - instructions(make_command(SMALL), env)) / SMALL


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("target", nargs="?", help="a folder to write in (default: a temporary one)")
    opts = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (installer/dev.sh installs it)")
        return 1
    if opts.target is None:
        with tempfile.TemporaryDirectory(prefix="iolab-instructions-") as scratch:
            opts.target = scratch
            return measure(opts)
    return measure(opts)


def measure(opts):
    cli = os.path.join(opts.build, "app/cli/iolab-cli")
    plain = os.path.join(opts.build, "tests/perf/plain_putc")
    path = os.path.join(opts.target, "plain-instructions.dat")

    # iolab-cli's log and state go to a folder of their own, not the user's.
    state = tempfile.mkdtemp(prefix="iolab-instructions-state-")
    env = dict(os.environ, XDG_STATE_HOME=state)

    print(f"{'case':34} {'plain':>8} {'IOLab':>8} {'IOLab/plain':>12}  (instructions per byte, marginal)")
    worst = 0.0
    for name, plain_args, iolab_args in CASES:
        threaded = ["0", "1"] if "thread" in name else []
        plain_cost = per_byte(lambda n: [plain, path, *plain_args, str(n), *threaded])
        iolab_cost = per_byte(lambda n: [cli, "run", "--target", opts.target, "--reps", "1", "--warmups", "0",
                                         "--quiet", "--no-sampling", "--buffer", "default", *iolab_args,
                                         "--size", str(n)], env)
        ratio = iolab_cost / plain_cost
        worst = max(worst, ratio)
        print(f"{name:34} {plain_cost:8.2f} {iolab_cost:8.2f} {ratio:12.3f}")
    if os.path.exists(path):
        os.unlink(path)
    shutil.rmtree(state, ignore_errors=True)
    if worst > LIMIT:
        print(f"IOLab's loop costs {worst:.3f}x the plain loop's instructions (limit {LIMIT})")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
