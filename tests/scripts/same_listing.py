#!/usr/bin/env python3
"""Checks that `dump` of the methods an instrumentation left alone is unchanged.

    same_listing.py BEFORE.txt AFTER.txt INSTRUMENTED_TOKENS.txt

Splits both dumps into method blocks (by their `// 0x06...` first line), drops each block's
`// rva` line, and requires every block whose token is not listed as instrumented to be
identical; instrumented blocks must differ.
"""
import re
import sys


def blocks(path):
    out = {}
    current = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"// (0x06[0-9A-F]{6}) ", line)
            if m:
                current = m.group(1)
                out[current] = []
            if current and line.strip() and not line.strip().startswith("// rva "):
                out[current].append(line)
    return out


def main() -> int:
    before, after = blocks(sys.argv[1]), blocks(sys.argv[2])
    with open(sys.argv[3], encoding="utf-8") as f:
        instrumented = {line.strip() for line in f if line.strip()}
    problems = 0
    for token, text in before.items():
        if token not in after:
            print(f"{token}: missing after instrumentation")
            problems += 1
        elif token in instrumented:
            if after[token] == text:
                print(f"{token}: instrumented but its listing did not change")
                problems += 1
        elif after[token] != text:
            print(f"{token}: not instrumented but its listing changed")
            problems += 1
    print(f"{len(before)} methods, {len(instrumented)} instrumented, {problems} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
