#!/usr/bin/env python3
"""Checks the counts files written by an instrumented run against expected call counts.

    check_counts.py EXPECTED COUNTS_JSON... [--summary SUMMARY_JSON --dump DUMP_JSON]

EXPECTED holds lines `COUNT FULLNAME`; methods sharing a full name (overloads) are summed.
Every listed method must have exactly that count (0 included: a method never called is still
listed). Also checks that each counts file is well-formed and lists each method once; with
--summary (the `instrument --json` summary) and --dump (`dump --json` of the instrumented
assembly), that each file names that assembly and its MVID and lists exactly the instrumented
methods, under the same tokens and names.
"""
import json
import sys
from collections import defaultdict


def main() -> int:
    args = sys.argv[1:]
    options = {}
    for option in ("--summary", "--dump"):
        if option in args:
            i = args.index(option)
            options[option] = args[i + 1]
            del args[i:i + 2]
    expected_path, files = args[0], args[1:]
    if not files:
        print("no counts file was written", file=sys.stderr)
        return 1
    totals = defaultdict(int)
    for path in files:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        tokens = [m["token"] for m in data["methods"]]
        if len(tokens) != len(set(tokens)):
            print(f"{path}: a method is listed twice", file=sys.stderr)
            return 1
        if "--summary" in options:
            with open(options["--summary"], encoding="utf-8") as f:
                summary = json.load(f)
            listed = [(m["token"], m["name"]) for m in data["methods"]]
            instrumented = [(m["token"], m["name"]) for m in summary["instrumentedMethods"]]
            if sorted(listed) != sorted(instrumented):
                missing = sorted(set(instrumented) - set(listed))[:5]
                extra = sorted(set(listed) - set(instrumented))[:5]
                print(f"{path}: methods differ from the instrumented ones: missing {missing}, extra {extra}",
                      file=sys.stderr)
                return 1
        if "--dump" in options:
            with open(options["--dump"], encoding="utf-8") as f:
                dump = json.load(f)
            if (data["assembly"], data["mvid"]) != (dump["assembly"], dump["mvid"]):
                print(f"{path}: assembly {data['assembly']} {data['mvid']}, but the instrumented file is "
                      f"{dump['assembly']} {dump['mvid']}", file=sys.stderr)
                return 1
        for m in data["methods"]:
            if not isinstance(m["count"], int) or m["count"] < 0:
                print(f"{path}: bad count for {m['name']}", file=sys.stderr)
                return 1
            totals[m["name"]] += m["count"]
    failures = 0
    with open(expected_path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            count, name = line.split(" ", 1)
            if name not in totals:
                print(f"  {name}: not in the counts file", file=sys.stderr)
                failures += 1
            elif totals[name] != int(count):
                print(f"  {name}: counted {totals[name]}, expected {count}", file=sys.stderr)
                failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
