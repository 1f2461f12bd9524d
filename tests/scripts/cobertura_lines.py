#!/usr/bin/env python3
"""Two Cobertura reports line by line: coverlet's (THEIRS) against ours (OURS).

    cobertura_lines.py THEIRS.xml OURS.xml

Lines are keyed by source file name (no folder: the two tools root paths differently) and line
number; a line that two classes list (a lambda's, a nested type's) is covered when either covers
it. Prints, sorted:
    LINE file:n coverlet (hits, branches) ours (hits, branches)
        a line only one side lists, or covered on one side and not on the other;
    branch file:n coverlet COVERED/VALID ours COVERED/VALID
        a line both cover alike whose branch outcomes differ;
    methods coverlet N ours M
        the methods each lists, when they differ.
Used by coverlet_test.sh and real_suite_test.sh.
"""
import os
import sys
import xml.etree.ElementTree as ET


def load(path):
    lines, methods = {}, 0
    for cls in ET.parse(path).getroot().iter('class'):
        name = os.path.basename(cls.get('filename'))
        methods += len(cls.find('methods').findall('method'))
        for line in cls.find('lines').iter('line'):
            key = (name, int(line.get('number')))
            hits = int(line.get('hits'))
            cc = line.get('condition-coverage')
            branches = cc.split('(')[1].rstrip(')') if cc else '-'
            old = lines.get(key)
            if old:  # one line in two classes: hits add up, branches are the one class's
                hits += old[0]
                branches = old[1] if branches == '-' else branches
            lines[key] = (hits, branches)
    return lines, methods


theirs, their_methods = load(sys.argv[1])
ours, our_methods = load(sys.argv[2])
for key in sorted(set(theirs) | set(ours)):
    a, b = theirs.get(key), ours.get(key)
    if a is None or b is None or (a[0] > 0) != (b[0] > 0):
        print(f"LINE {key[0]}:{key[1]} coverlet {a} ours {b}")
    elif a[1] != b[1]:
        print(f"branch {key[0]}:{key[1]} coverlet {a[1]} ours {b[1]}")
if their_methods != our_methods:
    print(f"methods coverlet {their_methods} ours {our_methods}")
