#!/usr/bin/env python3
"""Prints the translation units clang-tidy is to check, one per line, from a build's compile_commands.json.

   tidy_files.py BUILD_DIR SOURCE...

A source the build compiles on its own is printed as it is. In a unity build (CMAKE_UNITY_BUILD) a source is
compiled inside a Unity/unity_N_cxx.cxx that includes it, and that file is printed instead, once. A source the
build compiles neither way is an error: the lint would pass without having looked at it."""
import json
import os
import re
import sys


def main():
    build_dir, sources = sys.argv[1], [os.path.realpath(s) for s in sys.argv[2:]]
    with open(os.path.join(build_dir, "compile_commands.json"), encoding="utf-8") as f:
        entries = json.load(f)
    compiled = {os.path.realpath(os.path.join(e["directory"], e["file"])) for e in entries}
    included_by = {}
    for unit in sorted(compiled):
        if re.search(r"/Unity/unity_[^/]*\.cxx$", unit):
            with open(unit, encoding="utf-8") as f:
                for path in re.findall(r'^#include "([^"]+)"', f.read(), re.M):
                    included_by[os.path.realpath(path)] = unit
    units, missing = [], []
    for source in sources:
        unit = source if source in compiled else included_by.get(source)
        if unit is None:
            missing.append(source)
        elif unit not in units:
            units.append(unit)
    if missing:
        print("the build compiles none of these, so clang-tidy cannot check them:", file=sys.stderr)
        for source in missing:
            print("  " + source, file=sys.stderr)
        return 1
    print("\n".join(units))
    return 0


if __name__ == "__main__":
    sys.exit(main())
