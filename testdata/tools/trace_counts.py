#!/usr/bin/env python3
"""Compares the method-entry counts in a `mono --trace=program` log with an expected .counts file.

    trace_counts.py TRACE COUNTS [--all]

Mono prints "ENTER: Namespace.Type`1<int>:Method<T> (args)" for every traced method entry. Names
are normalized to the .counts format (Namespace.Type`1/Nested::Method, generic instantiation
arguments dropped, so overloads and instantiations are summed). --all also lists every count.
Exit status 1 if any expected count differs.
"""
import collections
import re
import sys


def normalize(name):
    typ, _, meth = name.rpartition(':')
    # drop instantiation arguments after each type segment, keep compiler-generated <...> names
    segs = [re.sub(r'<.*>$', '', s) if not s.startswith('<') else s for s in typ.split('/')]
    if not meth.startswith('<'):
        meth = re.sub(r'<.*>$', '', meth)
    return '/'.join(segs) + '::' + meth


def main():
    counts = collections.Counter()
    with open(sys.argv[1], errors='replace') as f:
        for line in f:
            m = re.search(r'ENTER:c? *(.*?) \(', line)
            if m and not m.group(1).startswith('(wrapper'):
                counts[normalize(m.group(1))] += 1
    bad = 0
    with open(sys.argv[2]) as f:
        for line in f:
            if not line.strip():
                continue
            n, name = line.split(None, 1)
            name = name.strip()
            if counts.get(name, 0) != int(n):
                bad += 1
                print('MISMATCH %-60s expected %s traced %d' % (name, n, counts.get(name, 0)))
    if '--all' in sys.argv[3:]:
        for k in sorted(counts):
            print('%7d %s' % (counts[k], k))
    print('%s: %d mismatches' % (sys.argv[2].rsplit('/', 1)[-1], bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
