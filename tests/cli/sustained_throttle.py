#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The sustained write against a real kernel throttle (issue 39, part 1).

A small ext4 filesystem on a loop device; iolab-cli runs in a child cgroup of cgroup v1's blkio controller,
whose blkio.throttle.write_bps_device holds the loop device at FAST bytes/s. Once the file IOLab writes has
reached SWITCH bytes, this script lowers the throttle to SLOW: a "fast cache" of a known size, then the rate
behind it. IOLab's until-steady (past-cache) write must report the drop within 10% of the bytes written
when the throttle changed, and the steady rate within 10% of SLOW.

Needs root (losetup, mount, a cgroup) and cgroup v1's blkio controller; exits 77 (skipped) with the reason
where either is missing. Usage: sustained_throttle.py IOLAB_CLI (IOLAB_KEEP_RESULT=FILE keeps the result JSON)
"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import time

FAST = 120_000_000  # bytes/s before the switch
SLOW = 30_000_000  # after
SWITCH = 300_000_000  # bytes of the data file when the throttle drops
CGROUP_ROOT = "/sys/fs/cgroup/blkio"
SKIP = 77


def skip(why):
    print(f"SKIPPED: {why}")
    sys.exit(SKIP)


def run(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout.strip()


def mib_or_gib(text):
    """'362.0 MiB' -> bytes (IOLab's formatBytes)."""
    number, unit = text.split()
    scale = {"B": 1, "bytes": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}[unit]
    return float(number) * scale


def mbps(text):
    number, unit = text.split()
    return float(number) * {"MB/s": 1e6, "GB/s": 1e9, "kB/s": 1e3}[unit]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    cli = sys.argv[1]
    if os.geteuid() != 0:
        skip("needs root: a loop device, a mount and a blkio cgroup")
    if not os.path.exists(os.path.join(CGROUP_ROOT, "blkio.throttle.write_bps_device")):
        skip(f"no cgroup v1 blkio controller with throttling at {CGROUP_ROOT} (cgroup v2 machines have io.max)")
    with tempfile.TemporaryDirectory(prefix="iolab-throttle-", dir="/var/tmp") as work:
        backing = os.path.join(work, "disk.img")
        mount = os.path.join(work, "mnt")
        os.mkdir(mount)
        with open(backing, "wb") as f:
            f.truncate(2 << 30)
        loop = run("losetup", "--find", "--show", backing)
        cgroup = os.path.join(CGROUP_ROOT, f"iolab-throttle-{os.getpid()}")
        mounted = False
        try:
            run("mkfs.ext4", "-q", "-F", "-E", "lazy_itable_init=0,lazy_journal_init=0", loop)
            run("mount", loop, mount)
            mounted = True
            device = run("lsblk", "-dno", "MAJ:MIN", loop).strip()
            os.mkdir(cgroup)
            limit = os.path.join(cgroup, "blkio.throttle.write_bps_device")
            with open(limit, "w") as f:
                f.write(f"{device} {FAST}")
            out = os.path.join(work, "result.json")
            command = [cli, "run", "--strategy", "direct", "--chunk", "256K", "--size", "1500M",
                       "--duration", "60s", "--until-steady", "past-cache:3s", "--reps", "1", "--warmups", "0",
                       "--target", mount, "--json", out]
            tasks = os.path.join(cgroup, "tasks")
            child = subprocess.Popen(["sh", "-c", f'echo $$ > {tasks} && exec "$@"', "sh", *command],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            switched_at = None
            while child.poll() is None and switched_at is None:
                for data in glob.glob(os.path.join(mount, "**", "*.dat"), recursive=True):
                    try:
                        size = os.stat(data).st_size
                    except FileNotFoundError:
                        continue
                    if size >= SWITCH:
                        with open(limit, "w") as f:
                            f.write(f"{device} {SLOW}")
                        switched_at = os.stat(data).st_size
                        break
                time.sleep(0.002)
            output, _ = child.communicate(timeout=120)
            print(output)
            if child.returncode != 0:
                sys.exit(f"iolab-cli failed ({child.returncode})")
            if switched_at is None:
                sys.exit("the data file never reached the switch point: the throttle never dropped")
            answer = " ".join(output.split())  # the Summary, unwrapped
            found = re.search(r"for the first ([\d.]+ \w+) \([\d.]+ s\), then at ([\d.]+ [kMG]B/s)", answer)
            if not found:
                sys.exit("IOLab's Summary names no drop (expected 'for the first ..., then at ...')")
            cache = mib_or_gib(found.group(1))
            after = mbps(found.group(2))
            print(f"throttle dropped at {switched_at / 1e6:.1f} MB; IOLab: drop at {cache / 1e6:.1f} MB "
                  f"({cache / switched_at:.3f}x), steady {after / 1e6:.2f} MB/s against {SLOW / 1e6:.0f} MB/s "
                  f"({after / SLOW:.3f}x)")
            if "steady from" not in found.string:
                sys.exit("IOLab did not find the rate steady after the drop")
            if os.environ.get("IOLAB_KEEP_RESULT"):  # for screenshots and the sample report
                import shutil
                shutil.copy(out, os.environ["IOLAB_KEEP_RESULT"])
            with open(out) as f:
                result = json.load(f)
            reps = [r for r in result["cases"][0]["repetitions"] if not r["warmup"]]
            if not reps or "steady" not in reps[0]:
                sys.exit("the result's repetition records no steady state")
            failures = []
            if abs(cache / switched_at - 1) > 0.10:
                failures.append(f"the drop at {cache:.0f} bytes is not within 10% of {switched_at}")
            if abs(after / SLOW - 1) > 0.10:
                failures.append(f"the steady rate {after:.0f} B/s is not within 10% of {SLOW}")
            if abs(reps[0]["steady"]["mbps"] * 1e6 / SLOW - 1) > 0.10:
                failures.append(f"the result's steady rate {reps[0]['steady']['mbps']} MB/s is off")
            if reps[0]["bytes"] >= 1500 << 20:
                failures.append("the write ran to its size: until steady did not end it")
            if failures:
                sys.exit("; ".join(failures))
        finally:
            if os.path.isdir(cgroup):
                for _ in range(50):
                    try:
                        os.rmdir(cgroup)
                        break
                    except OSError:
                        time.sleep(0.1)
            if mounted:
                subprocess.run(["umount", mount], check=False)
            subprocess.run(["losetup", "-d", loop], check=False)


if __name__ == "__main__":
    main()
