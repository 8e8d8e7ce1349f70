#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""GUI figures for issue 3: start-up time, GUI-thread stalls during a run, and memory after a long run.

    python3 tests/perf/gui_perf.py build/dev /path/on/the/disk/to/test [--long-seconds 120]

Needs a display; without DISPLAY it starts Xvfb :97 (Debian: xvfb). Every figure comes from iolab's own
--perf-report: start-up is main() to the first show event (the process's wall time around it is printed too),
stalls are the lateness of a 10 ms timer on the GUI thread, RSS is read at exit.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def run_gui(binary, args, env, timeout):
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "perf.json")
        start = time.monotonic()
        subprocess.run([binary, *args, "--perf-report", report], env=env, timeout=timeout, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wall = time.monotonic() - start
        with open(report) as f:
            data = json.load(f)
        data["wallSeconds"] = wall
        return data


def settings_file(folder, target, repetitions=3, warmups=1):
    path = os.path.join(folder, "settings.ini")
    with open(path, "w") as f:
        f.write(f"[General]\ntarget={target}\n[run]\nrepetitions={repetitions}\nwarmups={warmups}\n")
    return path


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("target")
    parser.add_argument("--starts", type=int, default=7)
    parser.add_argument("--long-seconds", type=float, default=120)
    args = parser.parse_args()
    binary = os.path.join(args.build, "app/gui/iolab")
    env = dict(os.environ)
    xvfb = None
    if not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY"):
        if not shutil.which("Xvfb"):
            sys.exit("no display and no Xvfb: install xvfb or run under a desktop session")
        xvfb = subprocess.Popen(["Xvfb", ":97", "-screen", "0", "1600x1000x24"], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        time.sleep(1)
        env["DISPLAY"] = ":97"
    try:
        with tempfile.TemporaryDirectory() as tmp:
            common = ["--data-dir", os.path.join(tmp, "data")]

            starts = []
            for _ in range(args.starts):
                s = settings_file(tmp, args.target)
                starts.append(run_gui(binary, common + ["--settings", s, "--quit-after-shown"], env, 60))
            shown = [r["startToShownMs"] for r in starts]
            wall = [r["wallSeconds"] * 1000 for r in starts]
            print(f"start to shown window: median {statistics.median(shown):.0f} ms "
                  f"(min {min(shown)}, max {max(shown)}, {len(shown)} starts); "
                  f"whole process incl. exit: median {statistics.median(wall):.0f} ms")

            s = settings_file(tmp, args.target)
            quick = run_gui(binary, common + ["--settings", s, "--preset", "quick", "--run", "--quit-after-run"],
                            env, 1800)
            print(f"quick preset on {args.target}: {quick['stallTicks']} ticks, GUI stall p50 "
                  f"{quick['stallP50Ms']:.1f} ms, p99 {quick['stallP99Ms']:.1f} ms, max {quick['stallMaxMs']:.1f} ms;"
                  f" {quick['samplesSeen']} samples; RSS at exit {quick['rssBytes'] / 2**20:.1f} MiB")

            # One case that lasts about --long-seconds: unbuffered 1-byte fwrite to the null device, a syscall
            # per byte (~1.2 us here), so the sampler delivers 10 samples a second throughout.
            size = int(args.long_seconds * 0.8e6)
            matrix = {"name": "long", "strategies": ["stdio"], "chunks": ["1"], "sizes": [str(size)],
                      "buffers": ["none"]}
            matrix_path = os.path.join(tmp, "long.json")
            with open(matrix_path, "w") as f:
                json.dump(matrix, f)
            s = settings_file(tmp, "null:", repetitions=1, warmups=0)
            long_run = run_gui(binary, common + ["--settings", s, "--matrix", matrix_path, "--run",
                                                 "--quit-after-run"], env,
                               args.long_seconds * 10 + 600)
            print(f"long run ({long_run['wallSeconds']:.0f} s, {long_run['samplesSeen']} samples per series): "
                  f"RSS {long_run['rssAtOneMinuteBytes'] / 2**20:.1f} MiB a minute in, "
                  f"{long_run['rssAtLastSampleBytes'] / 2**20:.1f} MiB at the last sample, "
                  f"{long_run['rssBytes'] / 2**20:.1f} MiB at exit (after saving the result), chart points held "
                  f"{long_run['chartPointsHeld']}, GUI stall p99 {long_run['stallP99Ms']:.1f} ms, "
                  f"max {long_run['stallMaxMs']:.1f} ms")
    finally:
        if xvfb is not None:
            xvfb.terminate()


if __name__ == "__main__":
    main()
