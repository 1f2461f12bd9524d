#!/usr/bin/env python3
"""Writes broken copies of a portable PDB beside copies of its assembly into OUT_DIR, one pair
(NAME.dll, NAME.pdb) per defect, each named after it: indexes into the PDB's own tables past
them, a coded index naming no row, lists going back, sequence points read from the wrong blob,
and seeded byte changes in the tables. Each assembly's PdbChecksum entry is renewed for its PDB,
so that every defect gets past the checksum to the reader. Deterministic.

    make_broken_pdb.py IN.dll IN.pdb OUT_DIR [RANDOM_COUNT]

IN.pdb must be a small portable PDB (2-byte heap and table indexes) with local scopes.
"""
import hashlib
import os
import random
import struct
import sys


def u16(b, at): return struct.unpack_from('<H', b, at)[0]
def u32(b, at): return struct.unpack_from('<I', b, at)[0]


# Portable PDB v1.0 tables and their columns: 'b' blob, 'g' guid, 's' string, 't' table index,
# 'c' coded index, 'm' a MethodDef index, 2 and 4 fixed sizes. All indexes 2 bytes here.
SCHEMA = {
    0x30: 'bgbg',      # Document: Name, HashAlgorithm, Hash, Language
    0x31: 'tb',        # MethodDebugInformation: Document, SequencePoints
    0x32: 'mttt44',    # LocalScope: Method, ImportScope, VariableList, ConstantList, StartOffset, Length
    0x33: '22s',       # LocalVariable: Attributes, Index, Name
    0x34: 'sb',        # LocalConstant: Name, Signature
    0x35: 'tb',        # ImportScope: Parent, Imports
    0x36: 'mm',        # StateMachineMethod: MoveNextMethod, KickoffMethod
    0x37: 'cgb',       # CustomDebugInformation: Parent, Kind, Value
}
WIDTH = {'b': 2, 'g': 2, 's': 2, 't': 2, 'c': 2, 'm': 2, '2': 2, '4': 4}
HAS_CUSTOM_DEBUG_INFORMATION_DOCUMENT = 22  # the coded index's tag for Document (5 tag bits)


class Pdb:
    def __init__(self, data):
        self.data = data
        at = 16 + u32(data, 12)
        count = u16(data, at + 2)
        at += 4
        self.streams = {}
        for _ in range(count):
            offset, size = struct.unpack_from('<II', data, at)
            end = data.index(b'\0', at + 8)
            self.streams[data[at + 8:end].decode()] = (offset, size)
            at += 8 + ((end - (at + 8)) // 4 + 1) * 4
        tables = self.streams['#~'][0]
        assert data[tables + 6] == 0, 'small heap indexes expected'
        valid = struct.unpack_from('<Q', data, tables + 8)[0]
        at = tables + 24
        self.rows = {}
        for t in range(64):
            if valid >> t & 1:
                self.rows[t] = u32(data, at)
                at += 4
        assert all(t >= 0x30 for t in self.rows), 'PDB tables only'
        assert all(n < 0x800 for n in self.rows.values()), 'small table indexes expected'
        self.table_at = {}
        for t in sorted(self.rows):
            self.table_at[t] = at
            at += self.row_size(t) * self.rows[t]
        self.tables_end = at

    @staticmethod
    def row_size(t): return sum(WIDTH[k] for k in SCHEMA[t])

    def cell(self, t, row, column):
        """File offset of column `column` of row `row` (1-based) of table `t`."""
        return self.table_at[t] + (row - 1) * self.row_size(t) + sum(WIDTH[k] for k in SCHEMA[t][:column])

    def content_hash(self, data):
        """SHA-256 of the PDB with its 20-byte id (the #Pdb stream's start) zeroed (Portable PDB v1.0, PdbChecksum)."""
        pdb_stream = self.streams['#Pdb'][0]
        b = bytearray(data)
        b[pdb_stream:pdb_stream + 20] = bytes(20)
        return hashlib.sha256(b).digest()


def checksum_at(dll):
    """File offset of the SHA-256 digest in the PdbChecksum debug entry's data."""
    pe = u32(dll, 0x3C)
    opt = pe + 24
    dirs = opt + (96 if u16(dll, opt) == 0x10B else 112)
    sections_at = opt + u16(dll, pe + 20)
    sections = [struct.unpack_from('<IIII', dll, sections_at + 40 * i + 8) for i in range(u16(dll, pe + 6))]

    def offset(rva):
        for vsize, va, raw_size, raw in sections:
            if va <= rva < va + max(vsize, raw_size):
                return raw + rva - va
        raise ValueError('RVA %#x is in no section' % rva)
    rva, size = struct.unpack_from('<II', dll, dirs + 6 * 8)
    at = offset(rva)
    for i in range(size // 28):
        entry = at + 28 * i
        if u32(dll, entry + 12) == 19:  # PdbChecksum
            data = u32(dll, entry + 24)
            assert dll[data:data + 7] == b'SHA256\0'
            return data + 7
    raise ValueError('no PdbChecksum entry')


def defects(pdb):
    data = pdb.data

    def patch(at, fmt, value):
        b = bytearray(data)
        struct.pack_into(fmt, b, at, value)
        return bytes(b)

    rows = pdb.rows
    documents, methods = rows.get(0x30, 0), rows.get(0x31, 0)
    first_with_points = next(r for r in range(1, methods + 1) if u16(data, pdb.cell(0x31, r, 1)))
    yield 'method-document-past-table', patch(pdb.cell(0x31, first_with_points, 0), '<H', documents + 5)
    yield 'sequence-points-past-heap', patch(pdb.cell(0x31, first_with_points, 1), '<H', 0xFFF0)
    # The first document's name blob read as sequence points.
    yield 'sequence-points-wrong-blob', patch(pdb.cell(0x31, first_with_points, 1), '<H', u16(data, pdb.cell(0x30, 1, 0)))
    if rows.get(0x32):
        last = rows[0x32]
        yield 'local-scope-import-scope-past-table', patch(pdb.cell(0x32, 1, 1), '<H', rows.get(0x35, 0) + 5)
        yield 'local-scope-variable-list-past-table', patch(pdb.cell(0x32, last, 2), '<H', rows.get(0x33, 0) + 5)
        yield 'local-scope-constant-list-past-table', patch(pdb.cell(0x32, last, 3), '<H', rows.get(0x34, 0) + 5)
        if last > 1 and u16(data, pdb.cell(0x32, last - 1, 2)) > 1:
            yield 'local-scope-variable-list-goes-back', patch(pdb.cell(0x32, last, 2), '<H', 1)
    if rows.get(0x35):
        yield 'import-scope-parent-past-table', patch(pdb.cell(0x35, rows[0x35], 0), '<H', rows[0x35] + 5)
    if rows.get(0x37):
        value = (documents + 5) << 5 | HAS_CUSTOM_DEBUG_INFORMATION_DOCUMENT
        yield 'custom-debug-information-parent-names-no-row', patch(pdb.cell(0x37, 1, 0), '<H', value)


def random_defects(pdb, count):
    """`count` copies, each with one to three bytes of the tables changed (seeded)."""
    rng = random.Random(36)
    start = min(pdb.table_at.values())
    for i in range(count):
        b = bytearray(pdb.data)
        for _ in range(rng.randint(1, 3)):
            b[rng.randrange(start, pdb.tables_end)] = rng.randrange(256)
        yield 'random-%02d' % i, bytes(b)


def main():
    dll_path, pdb_path, out = sys.argv[1], sys.argv[2], sys.argv[3]
    count = int(sys.argv[4]) if len(sys.argv) > 4 else 40
    dll = open(dll_path, 'rb').read()
    pdb = Pdb(open(pdb_path, 'rb').read())
    digest_at = checksum_at(dll)
    os.makedirs(out, exist_ok=True)
    for name, content in list(defects(pdb)) + list(random_defects(pdb, count)):
        if content == pdb.data:
            continue
        renewed = bytearray(dll)
        renewed[digest_at:digest_at + 32] = pdb.content_hash(content)
        with open(os.path.join(out, name + '.dll'), 'wb') as f:
            f.write(renewed)
        with open(os.path.join(out, name + '.pdb'), 'wb') as f:
            f.write(content)


if __name__ == '__main__':
    main()
