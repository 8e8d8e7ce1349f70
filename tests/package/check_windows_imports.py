#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks that a Windows program's folder holds every DLL it needs, as a clean Windows would load them.

    check_windows_imports.py PROGRAM.exe                      every import resolves
    check_windows_imports.py PROGRAM.exe --without A.dll      as if A.dll were missing (must fail)
    check_windows_imports.py PROGRAM.exe --needs A.dll --lacks B.dll   what PROGRAM.exe imports itself

The first form reads the import tables (and delay-load tables) of the program, of every DLL it imports from its
folder, and of the Qt plugins under the folder's platforms/ and styles/ (Qt loads them at run time, and they
load their own imports from the program's folder), down to Windows' own DLLs: each import must either be in
the folder or be one of the system DLLs below, which every Windows 10 and 11 holds. A DLL found neither way
is one the program would fail to start without on a clean machine (wine would find its own copy and hide
that). The tables are read from the PE files here, without a Windows tool.
"""
import argparse
import pathlib
import struct
import sys

# DLLs that ship with Windows (System32), which a deployment must not carry, and the API sets it resolves.
SYSTEM_DLLS = {
    "advapi32.dll", "authz.dll", "bcrypt.dll", "cfgmgr32.dll", "comctl32.dll", "comdlg32.dll", "crypt32.dll",
    "d2d1.dll", "d3d11.dll", "d3d9.dll", "dbghelp.dll", "dwmapi.dll", "dwrite.dll", "dxgi.dll", "gdi32.dll",
    "imm32.dll", "iphlpapi.dll", "kernel32.dll", "mpr.dll", "msvcrt.dll", "netapi32.dll", "ntdll.dll",
    "ole32.dll", "oleaut32.dll", "opengl32.dll", "pdh.dll", "powrprof.dll", "psapi.dll", "rpcrt4.dll", "secur32.dll",
    "setupapi.dll", "shcore.dll", "shell32.dll", "shlwapi.dll", "user32.dll", "userenv.dll", "uxtheme.dll",
    "version.dll", "winmm.dll", "wintrust.dll", "ws2_32.dll", "wtsapi32.dll",
}
SYSTEM_PREFIXES = ("api-ms-win-", "ext-ms-win-")


class PeError(Exception):
    pass


def imports_of(path):
    """The DLL names a PE file imports, directly and delay-loaded, in file order."""
    data = path.read_bytes()
    if data[:2] != b"MZ":
        raise PeError(f"{path} is not a PE file (no MZ header)")
    (pe,) = struct.unpack_from("<I", data, 0x3C)
    if data[pe:pe + 4] != b"PE\0\0":
        raise PeError(f"{path} has no PE signature")
    _, sections, _, _, _, optional_size, _ = struct.unpack_from("<HHIIIHH", data, pe + 4)
    optional = pe + 24
    (magic,) = struct.unpack_from("<H", data, optional)
    directories = optional + {0x10B: 96, 0x20B: 112}.get(magic, -1)
    if directories < optional:
        raise PeError(f"{path}: unknown optional header magic {magic:#x}")
    (count,) = struct.unpack_from("<I", data, directories - 4)
    table = optional + optional_size
    spans = []
    for i in range(sections):
        _, virtual_size, address, raw_size, raw_offset = struct.unpack_from("<8sIIII", data, table + 40 * i)
        spans.append((address, max(virtual_size, raw_size), raw_offset))

    def offset(rva):
        for address, size, raw in spans:
            if address <= rva < address + size:
                return rva - address + raw
        raise PeError(f"{path}: address {rva:#x} is in no section")

    def name_at(rva):
        start = offset(rva)
        return data[start:data.index(b"\0", start)].decode("ascii")

    def directory(index):
        if index >= count:
            return 0
        rva, _ = struct.unpack_from("<II", data, directories + 8 * index)
        return rva

    names = []
    if rva := directory(1):  # the import table: 20-byte descriptors, the name's address at +12
        at = offset(rva)
        while any(struct.unpack_from("<5I", data, at)):
            names.append(name_at(struct.unpack_from("<I", data, at + 12)[0]))
            at += 20
    if rva := directory(13):  # delay-load: 32-byte descriptors, the name's address at +4
        at = offset(rva)
        while any(struct.unpack_from("<8I", data, at)):
            names.append(name_at(struct.unpack_from("<I", data, at + 4)[0]))
            at += 32
    return names


def is_system(name):
    lower = name.lower()
    return lower in SYSTEM_DLLS or lower.startswith(SYSTEM_PREFIXES)


def check_closure(program, without):
    folder = program.parent
    present = {p.name.lower(): p for p in folder.iterdir() if p.suffix.lower() == ".dll"}
    for name in without:  # the checker's own test: a DLL taken out must be missed
        present.pop(name.lower(), None)
    roots = [program] + sorted(p for kind in ("platforms", "styles") for p in (folder / kind).glob("*.dll"))
    missing = []
    seen = set()
    queue = list(roots)
    while queue:
        pe = queue.pop(0)
        if pe in seen:
            continue
        seen.add(pe)
        names = imports_of(pe)
        print(f"{pe.relative_to(folder)}: {', '.join(names) or 'no imports'}")
        for name in names:
            if name.lower() in present:
                queue.append(present[name.lower()])
            elif not is_system(name):
                missing.append((pe.relative_to(folder), name))
    unused = sorted(set(present) - {p.name.lower() for p in seen})
    if unused:
        print(f"deployed but imported by nothing read here: {', '.join(unused)}")
    if missing:
        for who, name in missing:
            print(f"FAIL: {who} imports {name}, which is neither in {folder} nor a Windows system DLL")
        return 1
    print(f"every DLL that {program.name} and its plugins import is in its folder or part of Windows "
          f"({len(seen)} files read)")
    return 0


def check_direct(program, needs, lacks):
    names = {n.lower() for n in imports_of(program)}
    status = 0
    for name in needs:
        if name.lower() not in names:
            print(f"FAIL: {program.name} does not import {name}")
            status = 1
    for name in lacks:
        if name.lower() in names:
            print(f"FAIL: {program.name} imports {name}")
            status = 1
    print(f"{program.name} imports: {', '.join(sorted(names))}")
    return status


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("program", type=pathlib.Path)
    parser.add_argument("--needs", action="append", default=[], help="a DLL the program must import itself")
    parser.add_argument("--lacks", action="append", default=[], help="a DLL the program must not import")
    parser.add_argument("--without", action="append", default=[],
                        help="check as if this DLL were not in the folder (the check's own test)")
    args = parser.parse_args()
    try:
        if args.needs or args.lacks:
            return check_direct(args.program, args.needs, args.lacks)
        return check_closure(args.program, args.without)
    except (OSError, PeError, struct.error, ValueError) as e:
        print(f"FAIL: {e}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
