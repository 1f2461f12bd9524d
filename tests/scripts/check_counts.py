#!/usr/bin/env python3
"""Checks the counts files written by an instrumented run against expected call counts.

    check_counts.py EXPECTED COUNTS_JSON...

EXPECTED holds lines `COUNT FULLNAME`; methods sharing a full name (overloads) are summed.
Every listed method must have exactly that count. Also checks that each counts file is
well-formed and lists every instrumented method once.
"""
import json
import sys
from collections import defaultdict


def main() -> int:
    expected_path, files = sys.argv[1], sys.argv[2:]
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
