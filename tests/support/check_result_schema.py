#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Validates IOLab result files against resources/schemas/iolab-result.schema.json with python3-jsonschema (a
validator nobody here wrote).

  check_result_schema.py FILE...      each file must validate
  check_result_schema.py --goldens DIR  every result file under DIR (a JSON whose "schema" is iolab.result/N)
                                        must validate; at least one must be found
  check_result_schema.py --self-test GOLDEN  the schema refuses a golden with a renamed key, a mistyped value,
                                        a value outside its enum and a key it does not know

Exit status 0 when every file validates (or, for --self-test, every damaged copy is refused), 1 otherwise.
"""
import copy
import json
import os
import sys

import jsonschema

SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "resources", "schemas",
                      "iolab-result.schema.json")


def validator():
    with open(SCHEMA, encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def problems(check, document):
    out = []
    for error in sorted(check.iter_errors(document), key=lambda e: list(e.absolute_path)):
        where = "/".join(str(p) for p in error.absolute_path) or "(top)"
        out.append(f"{where}: {error.message[:300]}")
    return out


def validate_files(check, paths):
    bad = 0
    for path in paths:
        with open(path, encoding="utf-8") as f:
            document = json.load(f)
        found = problems(check, document)
        if found:
            bad += 1
            print(f"FAIL {path}: {len(found)} problem(s)")
            for line in found[:20]:
                print(f"  {line}")
        else:
            print(f"ok   {path}")
    return 1 if bad else 0


def goldens(folder):
    found = []
    for root, _, files in os.walk(folder):
        for name in sorted(files):
            if not name.endswith(".json"):
                continue
            path = os.path.join(root, name)
            try:
                with open(path, encoding="utf-8") as f:
                    document = json.load(f)
            except (ValueError, UnicodeDecodeError):
                continue
            if isinstance(document, dict) and str(document.get("schema", "")).startswith("iolab.result/"):
                found.append(path)
    return sorted(found)


def self_test(check, golden):
    with open(golden, encoding="utf-8") as f:
        original = json.load(f)
    if problems(check, original):
        print(f"FAIL the golden itself does not validate: {golden}")
        return 1

    def renamed(d):
        case = d["cases"][0]
        case["durableMbps"] = case.pop("durableMBps")

    def mistyped(d):
        d["cases"][0]["repetitions"][0]["bytes"] = "16777216"

    def outside_enum(d):
        d["cases"][0]["status"] = "passed"

    def unknown_key(d):
        d["host"]["hostName"] = d["host"]["hostname"]

    def missing_key(d):
        del d["target"]["fsType"]

    def unknown_axis(d):
        d["cases"][0]["case"]["chunkSize"] = 4096

    bad = 0
    for damage in (renamed, mistyped, outside_enum, unknown_key, missing_key, unknown_axis):
        document = copy.deepcopy(original)
        damage(document)
        if problems(check, document):
            print(f"ok   refused: {damage.__name__}")
        else:
            print(f"FAIL accepted: {damage.__name__}")
            bad += 1
    return 1 if bad else 0


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    check = validator()
    if argv[1] == "--goldens":
        found = goldens(argv[2])
        if not found:
            print(f"FAIL no result file under {argv[2]}")
            return 1
        return validate_files(check, found)
    if argv[1] == "--self-test":
        return self_test(check, argv[2])
    return validate_files(check, argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
