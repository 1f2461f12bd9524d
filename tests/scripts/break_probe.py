#!/usr/bin/env python3
"""Breaks count-mode probes on purpose, for the tests' controls: in FILE, the pop after each
probe's `add; call Interlocked::Increment` (or `ldelema; call ...`, the core library's probe) becomes
a nop, which leaves an int64 on the stack.

    break_probe.py FILE [--all]     (the first probe, or every one with --all)
"""
import re
import sys

path, every = sys.argv[1], "--all" in sys.argv[2:]
data = bytearray(open(path, "rb").read())
n = 0
for m in re.finditer(rb"\x7e...\x04(?:[\x16-\x1e]|\x1f.|\x20....)(?:\x58|\x8f...\x01)\x28...\x0a\x26", data, re.S):
    data[m.end() - 1] = 0x00
    n += 1
    if not every:
        break
if n == 0:
    sys.exit(f"{path}: no probe found")
open(path, "wb").write(data)
