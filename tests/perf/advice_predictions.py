#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Is IOLab's advice worth taking (issue 38, section 4)? Each write pattern of advice_programs is recorded as
written, and `iolab-cli advise` names the fastest way that keeps its durability, with the speed-up it predicts
(the durable rate of the way's replay against the program's own calls' replay). The program with that advice
applied by hand (advice_programs PATTERN VARIANT) is then timed against the program as written, alternately, round after round,
and the real speed-up (the median wall time as written over the median advised) is set beside the
prediction. Target: real / predicted within 0.75-1.25.

    tests/perf/advice_predictions.py BUILD_DIR [--rounds 7] [--folder DIR] [--only PATTERN]

Then the same for a real program nobody here wrote, where a setting applies the advice: dd writing 32 MiB in
512-byte blocks with conv=fsync, against dd with bs=1M (IOLab's `coalesce`: the writes between two sync points
as calls of at most 1 MiB), or with bs=1M oflag=direct,dsync (`direct-batch`: batches of 1 MiB written
O_DIRECT | O_DSYNC).

Files go into --folder (default: a temporary folder under the current folder's filesystem) and are removed.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import time

# The ways each pattern of advice_programs.c can apply by hand.
APPLIED = {"logger": {"flush-at-sync", "prealloc-fdatasync", "rewrite-segment"},
           "records": {"coalesce", "prealloc-fdatasync", "rewrite-segment", "direct-batch", "mmap-batch"},
           "smallfiles": {"syncfs-batch", "writer-pool"}, "appender": {"group-commit"}}
# What a way's program does before the timed part, as IOLab's replay of it does: rewrite-segment overwrites a
# file written ahead (a recycled log segment), which advice_programs PATTERN segment-ahead writes.
AHEAD = {"rewrite-segment": "segment-ahead"}


def run_program(command, folder, ahead=None):
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    if ahead:
        subprocess.run(ahead, check=True, stderr=subprocess.DEVNULL)
    os.sync()  # the last round's removals written back, outside the time: both versions start alike
    start = time.perf_counter()
    subprocess.run(command, check=True, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def replay_pair(cli, matrix, target, work):
    """One repetition each of the program's calls and the way, replayed: their times to run."""
    result = os.path.join(work, "pair-result.json")
    subprocess.run([cli, "run", "--matrix", matrix, "--target", target, "--reps", "1", "--warmups", "0", "--quiet",
                    "--json", result], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(result) as f:
        cases = json.load(f)["cases"]
    seconds = []
    for case in cases:
        measured = [r["returnSeconds"] for r in case["repetitions"] if not r.get("warmup")]
        seconds.append(statistics.median(measured))
    return seconds[0], seconds[1]


def subjects(program, files):
    """Each subject: its name, a function giving its command line for a version ("as-is" or a way), and the
    ways it can apply by hand."""
    for pattern, applied in APPLIED.items():
        yield pattern, (lambda version, pattern=pattern: [program, pattern, version, files]), applied
    out = os.path.join(files, "dd.out")
    dd = {"as-is": ["dd", "if=/dev/zero", "of=" + out, "bs=512", "count=65536", "conv=fsync"],
          "coalesce": ["dd", "if=/dev/zero", "of=" + out, "bs=1M", "count=32", "conv=fsync"],
          # direct-batch: 1 MiB batches written O_DIRECT | O_DSYNC, each durable (no fsync left to make)
          "direct-batch": ["dd", "if=/dev/zero", "of=" + out, "bs=1M", "count=32", "oflag=direct,dsync"]}
    yield "dd", (lambda version: dd[version]), {"coalesce", "direct-batch"}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--folder")
    parser.add_argument("--only")
    parser.add_argument("--reps", type=int, default=7, help="advise's measured repetitions per way")
    args = parser.parse_args()
    cli = os.path.join(args.build, "app/cli/iolab-cli")
    program = os.path.join(args.build, "tests/perf/advice_programs")
    work = tempfile.mkdtemp(prefix="iolab-advice-", dir=args.folder or os.getcwd())
    rows = []
    try:
        files = os.path.join(work, "files")
        for pattern, command, applied in subjects(program, files):
            if args.only and pattern != args.only:
                continue
            trace = os.path.join(work, pattern + ".iolab-trace")
            shutil.rmtree(files, ignore_errors=True)
            os.makedirs(files)
            subprocess.run([cli, "record", "--quiet", "--output", trace, "--"] + command("as-is"), check=True,
                           stderr=subprocess.DEVNULL)
            target = os.path.join(work, "target")
            os.makedirs(target, exist_ok=True)
            advise = subprocess.run([cli, "advise", trace, "--target", target, "--quiet", "--reps", str(args.reps)],
                                    capture_output=True, text=True)
            if advise.returncode != 0:
                raise SystemExit(f"iolab-cli advise on {pattern} failed ({advise.returncode}):\n"
                                 f"{advise.stderr}{advise.stdout[-3000:]}")
            said = advise.stdout
            answer = said[said.index("\nYour program\n"):]
            flat = re.sub(r"\n  +", " ", answer)
            named = re.search(r"if you .*? \(([a-z0-9-]+)\): [^(]*\(([0-9.]+)x your program's speed\)", flat)
            if named is None:
                # No way faster beyond the noise: the prediction is then that the way applied by hand, as IOLab
                # measured it among the others, gains what IOLab's figure says (about nothing).
                named = re.search(r" - (" + "|".join(map(re.escape, applied or {"-"})) +
                                  r"): [^\n]*?, ([0-9.]+)x your program's speed;", flat)
                if named is None:
                    rows.append((pattern, "none named", None, None, None, applied))
                    print(f"{pattern}: no way named ({flat.splitlines()[2][:120]}...)", flush=True)
                    continue
                print(f"{pattern}: no way named; {named.group(1)} measured at {named.group(2)}x", flush=True)
            variant, predicted = named.group(1), float(named.group(2))
            if variant not in applied:
                rows.append((pattern, variant, predicted, None, None, applied))
                print(f"{pattern}: IOLab named {variant}, which advice_programs does not apply by hand", flush=True)
                continue
            # The machine drifts between advise's run and the programs' (the same pair of ways measured minutes
            # apart moved by a third here): each round also replays the program's calls and the way, one
            # repetition each, between the two programs, so that IOLab's figure and the real one are taken
            # side by side. The table gives both IOLab figures.
            matrix = os.path.join(work, "pair.json")
            with open(matrix, "w") as out:
                json.dump({"groups": [{"strategies": ["replay"], "replay": [trace],
                                       "replay-variant": ["recorded", variant]}]}, out)
            as_is, advised, replay_as_is, replay_advised = [], [], [], []
            ahead = command(AHEAD[variant]) if variant in AHEAD else None
            run_program(command("as-is"), files)  # a warm-up of each
            run_program(command(variant), files, ahead)
            for _ in range(args.rounds):
                as_is.append(run_program(command("as-is"), files))
                own, way = replay_pair(cli, matrix, target, work)
                replay_as_is.append(own)
                replay_advised.append(way)
                advised.append(run_program(command(variant), files, ahead))
            real = statistics.median(as_is) / statistics.median(advised)
            side = statistics.median(replay_as_is) / statistics.median(replay_advised)
            rows.append((pattern, variant, predicted, side, real, applied))
            print(f"{pattern}: {variant} predicted {predicted:.2f}x by advise, {side:.2f}x by its replays "
                  f"beside the programs; real {real:.2f}x (as written {statistics.median(as_is) * 1e3:.1f} ms, "
                  f"advised {statistics.median(advised) * 1e3:.1f} ms, medians of {args.rounds}); "
                  f"real/predicted {real / predicted:.2f} and {real / side:.2f}", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("\n| pattern | IOLab's advice | predicted by advise | by its replays beside the programs | real | "
          "real / predicted (advise, beside) |")
    print("|---|---|---|---|---|---|")
    for pattern, variant, predicted, side, real, applied in rows:
        def x(v):
            return "-" if v is None else f"{v:.2f}x"
        ratios = "-" if real is None else f"{real / predicted:.2f}, {real / side:.2f}"
        print(f"| {pattern} | {variant} | {x(predicted)} | {x(side)} | {x(real)} | {ratios} |")


if __name__ == "__main__":
    main()
