#!/usr/bin/env python3
"""Writes one deliberately broken copy of a small assembly per defect into OUT_DIR, each file
named after its defect: truncated at every header boundary, bad RVAs, bad signatures, absurd
counts, heap indexes past the end, and method bodies that run past their section or carry a bad
exception clause. Deterministic: the same input gives the same files.

    make_broken.py IN.dll OUT_DIR

IN.dll must be a small IL-only PE32 assembly with compressed metadata, 2-byte heap and table
indexes, and a method with an exception clause (testdata/bin/Exceptions.dll).
"""
import os
import struct
import sys


def u16(b, at): return struct.unpack_from('<H', b, at)[0]
def u32(b, at): return struct.unpack_from('<I', b, at)[0]


class Layout:
    """File offsets of the structures the defects are placed in."""

    def __init__(self, data):
        self.data = data
        self.pe = u32(data, 0x3C)
        self.coff = self.pe + 4
        self.section_count = u16(data, self.coff + 2)
        self.opt = self.coff + 20
        opt_size = u16(data, self.coff + 16)
        assert u16(data, self.opt) == 0x10B, 'PE32 expected'
        self.dirs = self.opt + 96
        self.section_table = self.opt + opt_size
        self.sections = []
        for i in range(self.section_count):
            at = self.section_table + 40 * i
            vsize, va, raw_size, raw = struct.unpack_from('<IIII', data, at + 8)
            self.sections.append((va, max(vsize, raw_size), raw))
        self.cli = self.offset(u32(data, self.dirs + 14 * 8))
        self.metadata = self.offset(u32(data, self.cli + 8))
        version_length = u32(data, self.metadata + 12)
        at = self.metadata + 16 + version_length
        self.stream_count_at = at + 2
        count = u16(data, at + 2)
        at += 4
        self.stream_headers = at
        self.streams = {}
        for _ in range(count):
            offset, size = struct.unpack_from('<II', data, at)
            end = data.index(b'\0', at + 8)
            name = data[at + 8:end].decode()
            self.streams[name] = (at, self.metadata + offset, size)
            at += 8 + ((end - (at + 8)) // 4 + 1) * 4
        self.stream_headers_end = at
        _, tables, _ = self.streams['#~']
        self.tables = tables
        assert data[tables + 6] == 0, 'small heap indexes expected'
        valid = struct.unpack_from('<Q', data, tables + 8)[0]
        self.row_counts_at = tables + 24
        rows, at = {}, self.row_counts_at
        for table in range(64):
            if valid >> table & 1:
                rows[table] = (at, u32(data, at))
                at += 4
        self.rows = rows
        assert all(n < 0x800 for _, n in rows.values()), 'small table indexes expected'
        # Row sizes with 2-byte indexes (II.22): Module, TypeRef, TypeDef, FieldPtr, Field, MethodPtr.
        sizes = {0: 10, 1: 6, 2: 14, 3: 2, 4: 6, 5: 2}
        self.module_row = at
        for table in range(6):
            at += sizes[table] * rows.get(table, (0, 0))[1]
        self.method_rows = at
        self.method_count = rows[6][1]
        self.typedef_rows = self.module_row + 10 * rows[0][1] + 6 * rows.get(1, (0, 0))[1]
        self.typedef_count = rows[2][1]

    def offset(self, rva):
        for va, size, raw in self.sections:
            if va <= rva < va + size:
                return raw + rva - va
        raise ValueError('RVA %#x is in no section' % rva)

    def eh_body(self):
        """File offset of the first fat body with an EH section, and of its first section."""
        for i in range(self.method_count):
            rva = u32(self.data, self.method_rows + 14 * i)
            if not rva:
                continue
            at = self.offset(rva)
            flags = u16(self.data, at)
            if flags & 3 == 3 and flags & 0x8:
                code_size = u32(self.data, at + 4)
                size = (flags >> 12) * 4
                section = at + size + code_size
                section += (-(section - at)) % 4
                return at, section
        raise ValueError('no method with an exception clause')


    def ctor_call(self):
        """File offset of the token of a constructor's first call (ldarg.0; call Object::.ctor, a
        MemberRef), the first such in the file."""
        at = 0
        while True:
            at = self.data.index(b'\x02\x28', at) + 2
            if self.data[at + 3] == 0x0A and self.data[at + 2] == 0:
                return at


def defects(data):
    L = Layout(data)
    cut = lambda at: data[:at]

    def patch(at, fmt, value):
        b = bytearray(data)
        struct.pack_into(fmt, b, at, value)
        return bytes(b)

    blob_header, blob, blob_size = L.streams['#Blob']
    body, eh = L.eh_body()
    yield 'truncated-empty', b''
    yield 'truncated-dos-header', cut(32)
    yield 'truncated-pe-signature', cut(L.pe + 2)
    yield 'truncated-coff-header', cut(L.coff + 10)
    yield 'truncated-optional-header', cut(L.opt + 40)
    yield 'truncated-data-directories', cut(L.dirs + 14 * 8 + 4)
    yield 'truncated-section-table', cut(L.section_table + 12)
    yield 'truncated-cli-header', cut(L.cli + 16)
    yield 'truncated-metadata-root', cut(L.metadata + 20)
    yield 'truncated-blob-heap', cut(blob + blob_size // 2)
    # The metadata directory's size cut short, inside each part of the metadata.
    metadata_size = lambda end: patch(L.cli + 12, '<I', end - L.metadata)
    yield 'metadata-size-cuts-root', metadata_size(L.metadata + 14)
    yield 'metadata-size-cuts-stream-headers', metadata_size(L.stream_headers + 10)
    tables_header = L.streams['#~'][0]
    yield 'tables-stream-size-cuts-header', patch(tables_header + 4, '<I', 20)
    yield 'tables-stream-size-cuts-rows', patch(tables_header + 4, '<I', L.module_row - L.tables + 8)
    yield 'metadata-size-cuts-blob-heap', metadata_size(blob + blob_size // 2)
    yield 'bad-dos-signature', patch(0, '<H', 0x5A4E)
    yield 'bad-e-lfanew', patch(0x3C, '<I', 0xFFFFFF00)
    yield 'bad-pe-signature', patch(L.pe, '<I', 0x00005850)
    yield 'bad-optional-header-magic', patch(L.opt, '<H', 0x999)
    yield 'absurd-section-count', patch(L.coff + 2, '<H', 200)
    yield 'size-of-headers-before-section-table', patch(L.opt + 60, '<I', 0x100)
    yield 'bad-cli-header-rva', patch(L.dirs + 14 * 8, '<I', 0x7FFF0000)
    yield 'bad-metadata-rva', patch(L.cli + 8, '<I', 0x00F00000)
    yield 'bad-metadata-signature', patch(L.metadata, '<I', 0x584A5342)
    yield 'absurd-stream-count', patch(L.stream_count_at, '<H', 1000)
    yield 'stream-past-metadata', patch(blob_header + 4, '<I', 0x10000000)
    yield 'no-tables-stream', patch(L.streams['#~'][0] + 9, '<B', ord('X'))
    yield 'absurd-row-count', patch(L.rows[6][0], '<I', 0x7FFFFFFF)
    yield 'row-count-past-stream', patch(L.rows[6][0], '<I', 0x00FFFFFF)
    yield 'unknown-table', patch(L.tables + 8 + 7, '<B', 0x80 | data[L.tables + 15])
    yield 'string-index-past-heap', patch(L.module_row + 2, '<H', 0xFFFF)
    yield 'guid-index-past-heap', patch(L.module_row + 4, '<H', 0x00FF)
    yield 'blob-index-past-heap', patch(L.method_rows + 10, '<H', 0xFFFF)
    yield 'method-rva-outside-sections', patch(L.method_rows, '<I', 0x00F00000)
    yield 'body-past-section', patch(body + 4, '<I', 0x00100000)
    yield 'code-size-over-cap', patch(body + 4, '<I', 0x7FFFFFFF)
    # A fat EH section of 16 MB, far past the end of the .text section.
    yield 'eh-section-past-section', patch(eh, '<I', 0xFFFFFF00 | data[eh] | 0x40)
    # Indexes the reader takes as they are and the self-check of an output refuses (issue 36):
    # the input's faults, refused before anything is written.
    last_type = L.typedef_rows + 14 * (L.typedef_count - 1)
    last_method = L.method_rows + 14 * (L.method_count - 1)
    yield 'typedef-method-list-past-table', patch(last_type + 12, '<H', 0x7FF0)
    yield 'typedef-field-list-past-table', patch(last_type + 10, '<H', 0x7FF0)
    yield 'typedef-method-list-goes-back', patch(last_type + 12, '<H', 1)
    yield 'methoddef-param-list-past-table', patch(last_method + 12, '<H', 0x7FF0)
    # TypeDefOrRef (2 tag bits), tag 1: TypeRef row 0x3FF0, past the table.
    yield 'typedef-extends-names-no-row', patch(last_type + 8, '<H', 0x3FF0 << 2 | 1)
    yield 'body-token-names-no-row', patch(L.ctor_call(), '<H', 0x7FF0)
    yield 'eh-clause-bad-kind', patch(eh + 4, '<H', 3) if data[eh] & 0x40 == 0 else patch(eh + 4, '<I', 3)
    yield 'eh-clause-outside-code', patch(eh + 6, '<H', 0xFFF0) if data[eh] & 0x40 == 0 else patch(eh + 8, '<I', 0xFFFFFF0)


def main():
    source, out = sys.argv[1], sys.argv[2]
    data = open(source, 'rb').read()
    os.makedirs(out, exist_ok=True)
    for name, content in defects(data):
        with open(os.path.join(out, name + '.dll'), 'wb') as f:
            f.write(content)


if __name__ == '__main__':
    main()
