#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""How faithful a replay is (issue 37): programs nobody here wrote, each recorded with `iolab-cli record` and
replayed with `iolab-cli run --replay`, alternately, round after round, on the same filesystem. For each
program: the median over the rounds of the program's own time inside its file calls (as the recorder timed
them) and of the replay's (one measured repetition after a warm-up, per round), and their ratio; the target is
replay / recorded within 0.85-1.15.

    tests/perf/replay_fidelity.py BUILD_DIR [--rounds 5] [--folder DIR] [--rows 2000] [--only NAME]

The programs' files and the replays' target go into --folder (default: a temporary folder under the current
folder's filesystem, not /tmp when that is a tmpfs) and are removed at the end.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile


def sql_script(path, mode, rows):
    with open(path, "w") as out:
        out.write(f"PRAGMA journal_mode={mode};\nPRAGMA synchronous=FULL;\ncreate table t(a, b);\n")
        for i in range(rows):
            out.write(f"insert into t values({i}, 'row {i} of the fidelity check');\n")


def prepare_tar(work):
    src = os.path.join(work, "src")
    os.makedirs(src, exist_ok=True)
    for i in range(300):
        with open(os.path.join(src, f"f{i:03}.txt"), "w") as out:
            out.write(("line %d of file %d\n" % (i, i)) * (20 + (i * 37) % 400))
    subprocess.run(["tar", "-cf", os.path.join(work, "in.tar"), "-C", work, "src"], check=True)
    shutil.rmtree(src)


def prepare_gzip(work):
    with open(os.path.join(work, "big"), "w") as out:
        for i in range(1_500_000):
            out.write(f"line {i * 7919 % 1_000_003}\n")


def programs(rows):
    """name, what it is, prepare(work), reset(work), command(work)"""
    def sqlite(mode):
        return (
            f"sqlite3-{mode.lower()}",
            f"sqlite3: {rows} rows, one transaction each, journal_mode={mode}, synchronous=FULL",
            lambda w: sql_script(os.path.join(w, "script.sql"), mode, rows),
            lambda w: [os.remove(os.path.join(w, n)) for n in os.listdir(w) if n.startswith("db.sqlite")],
            lambda w: ["sqlite3", os.path.join(w, "db.sqlite"), ".read " + os.path.join(w, "script.sql")],
        )

    return [
        sqlite("DELETE"),
        sqlite("WAL"),
        ("tar", "tar -xf: 300 files, 2.6 MiB",
         prepare_tar,
         lambda w: (shutil.rmtree(os.path.join(w, "out"), ignore_errors=True), os.makedirs(os.path.join(w, "out"))),
         lambda w: ["tar", "-xf", os.path.join(w, "in.tar"), "-C", os.path.join(w, "out")]),
        ("dd", "dd bs=4k count=2000 oflag=dsync",
         lambda w: None,
         lambda w: os.path.exists(os.path.join(w, "out")) and os.remove(os.path.join(w, "out")),
         lambda w: ["dd", "if=/dev/zero", "of=" + os.path.join(w, "out"), "bs=4k", "count=2000", "oflag=dsync",
                    "status=none"]),
        ("gzip", "gzip -k of a 17 MiB text file",
         prepare_gzip,
         lambda w: os.path.exists(os.path.join(w, "big.gz")) and os.remove(os.path.join(w, "big.gz")),
         lambda w: ["gzip", "-k", os.path.join(w, "big")]),
    ]


def record(cli, trace, command):
    if os.path.exists(trace):
        os.remove(trace)
    subprocess.run([cli, "record", "--quiet", "--output", trace, "--"] + command, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def replay(cli, trace, target, result):
    subprocess.run([cli, "run", "--target", target, "--replay", trace, "--reps", "1", "--warmups", "1",
                    "--quiet", "--no-summary", "--json", result], check=True, stdout=subprocess.DEVNULL)
    with open(result) as f:
        case = json.load(f)["cases"][0]
    measured = [r for r in case["repetitions"] if not r["warmup"]]
    return case["replay"]["recordedInsideSeconds"], measured[0]["insideSeconds"], case["replay"]["calls"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--rows", type=int, default=2000)
    parser.add_argument("--folder")
    parser.add_argument("--only")
    args = parser.parse_args()
    cli = os.path.join(args.build, "app/cli/iolab-cli")
    folder = args.folder or tempfile.mkdtemp(prefix="iolab-replay-fidelity-", dir=os.getcwd())
    print(f"{'program':<58} {'calls':>7} {'recorded':>9} {'replayed':>9} {'ratio':>6}")
    worst = 0.0
    try:
        for name, words, prepare, reset, command in programs(args.rows):
            if args.only and name != args.only:
                continue
            work = os.path.join(folder, name)
            target = os.path.join(folder, name + "-target")
            os.makedirs(work, exist_ok=True)
            os.makedirs(target, exist_ok=True)
            prepare(work)
            trace = os.path.join(folder, name + ".iolab-trace")
            result = os.path.join(folder, name + ".json")
            recorded, replayed, ratios = [], [], []
            calls = 0
            for _ in range(args.rounds):
                reset(work)
                record(cli, trace, command(work))
                program_s, replay_s, calls = replay(cli, trace, target, result)
                recorded.append(program_s)
                replayed.append(replay_s)
                ratios.append(replay_s / program_s)
            a, b = statistics.median(recorded), statistics.median(replayed)
            worst = max(worst, abs(b / a - 1))
            print(f"{words:<58} {calls:>7} {a * 1000:>7.1f}ms {b * 1000:>7.1f}ms {b / a:>6.2f}"
                  f"   (per round: {' '.join(f'{r:.2f}' for r in ratios)})")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"largest difference of the medians: {worst * 100:.0f}% (target: 15%)")


if __name__ == "__main__":
    main()
