// The PDB oracle: checks an instrumented assembly's portable PDB against the original's with
// System.Reflection.Metadata alone (nothing shared with the C++ tool).
//
//   dotnet Oracle.dll pdb ORIGINAL OUTPUT     the output's PDB is the original's, moved with the code
//   dotnet Oracle.dll pdb --none OUTPUT       the output names no PDB at all
//   dotnet Oracle.dll pdb --list FILE         one of the above per line (tab-separated), one process
//
// With a PDB, it checks:
//  - the output's PDB opens as the runtime opens it (PEReader.TryOpenAssociatedPortablePdb, which
//    also validates the PdbChecksum entry), and as the debugger reads an embedded one
//    (ReadEmbeddedPortablePdbDebugDirectoryData) or a standalone one
//    (MetadataReaderProvider.FromPortablePdbStream);
//  - the id is the CodeView entry's GUID and stamp, and the PdbChecksum entry is the SHA-256 of the
//    PDB with its id zeroed, computed here;
//  - documents, import scopes, state machine methods, local variables and constants are unchanged;
//  - a method whose IL is unchanged keeps its sequence points, scopes and custom debug information
//    byte for byte;
//  - a method whose IL changed keeps its sequence points (same documents, lines, columns, hidden
//    ones) in order, each at an instruction boundary of the new IL naming the instruction it named
//    (a point at offset 0 stays there, over code inserted at entry), with the original code between
//    two points found, in order, between the two new points (instrumentation only inserts code
//    and widens or replaces single instructions: a short branch becomes long, `ret` a store and a
//    `leave`, `tail.` a `nop`); one hidden point may follow, over code appended after the original;
//  - its local scopes keep their variables and constants and their nesting, each starts and ends
//    at an instruction boundary (or the end) of the new IL, the first spans the whole new IL, and
//    every sequence point lies in the same scopes as before (a variable is visible on the same
//    lines);
//  - hoisted local scopes and async stepping offsets name instruction boundaries of the new IL
//    whose instructions correspond to the original's;
//  - every method the tool added has an empty MethodDebugInformation row.

using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.IO;
using System.IO.Compression;
using System.Linq;
using System.Reflection;
using System.Reflection.Emit;
using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using System.Reflection.PortableExecutable;
using System.Security.Cryptography;

namespace CilInstrument.Oracle;

static class PdbOracle
{
    static readonly Guid HoistedLocalScopes = new("6DA9A61E-F8C7-4874-BE62-68BC5630DF71");
    static readonly Guid AsyncStepping = new("54FD2AC5-E925-401A-9C2A-F94F171072F8");
    const int MaxDifferences = 30;

    public static int Run(string[] args)
    {
        if (args.Length == 2 && args[0] == "--list")
        {
            // One check per line ("ORIGINAL OUTPUT" or "--none OUTPUT"), in one process.
            int failed = 0;
            foreach (var line in File.ReadLines(args[1]).Where(l => l.Trim().Length > 0 && !l.StartsWith('#')))
                failed += One(line.Split('\t')) == 0 ? 0 : 1;
            Console.WriteLine($"checked PDBs: {failed} with differences");
            return failed == 0 ? 0 : 1;
        }
        return One(args);
    }

    static int One(string[] args)
    {
        if (args.Length == 2 && args[0] == "--none")
            return ExpectNone(args[1]);
        if (args.Length != 2)
            throw new UsageException("pdb ORIGINAL OUTPUT | pdb --none OUTPUT | pdb --list FILE (tab-separated pairs)");
        var d = new List<string>();
        string summary;
        try
        {
            summary = Check(args[0], args[1], d);
        }
        catch (Exception e) when (e is BadImageFormatException or IOException or InvalidOperationException)
        {
            d.Add($"{e.GetType().Name}: {e.Message}");
            summary = "";
        }
        if (d.Count == 0)
        {
            Console.WriteLine($"OK {args[1]} ({summary})");
            return 0;
        }
        Console.WriteLine($"DIFF {args[1]}");
        foreach (var line in d.Take(MaxDifferences))
            Console.WriteLine("  " + line);
        if (d.Count > MaxDifferences)
            Console.WriteLine($"  ... {d.Count - MaxDifferences} more");
        return 1;
    }

    /// <summary>The PDB of the assembly at `path`, found as the runtime finds it
    /// (TryOpenAssociatedPortablePdb: the CodeView entry's file name beside it, or the embedded
    /// one), else PATH.pdb beside it when its id is the CodeView entry's (where the tool also
    /// looks); null when there is none.</summary>
    internal static MetadataReaderProvider? ProviderFor(string path, PEReader pe)
    {
        try
        {
            if (pe.TryOpenAssociatedPortablePdb(path, p => File.Exists(p) ? File.OpenRead(p) : null, out var provider, out _))
                return provider;
            var codeView = pe.ReadDebugDirectory().FirstOrDefault(e => e.Type == DebugDirectoryEntryType.CodeView && e.IsPortableCodeView);
            string beside = Path.ChangeExtension(path, ".pdb");
            if (codeView.DataSize == 0 || !File.Exists(beside))
                return null;
            var candidate = MetadataReaderProvider.FromPortablePdbStream(File.OpenRead(beside));
            var id = new BlobContentId(candidate.GetMetadataReader().DebugMetadataHeader!.Id);
            if (id.Guid == pe.ReadCodeViewDebugDirectoryData(codeView).Guid && id.Stamp == codeView.Stamp)
                return candidate;
            candidate.Dispose();
        }
        catch (Exception e) when (e is BadImageFormatException or IOException or InvalidOperationException)
        {
        }
        return null;
    }

    /// <summary>`dump --json`'s "sequencePoints" of MethodDef `row`, as SRM reads them.</summary>
    internal static void SequencePointFacts(MetadataReader pdb, int row, System.Text.Json.Nodes.JsonObject m)
    {
        var points = new System.Text.Json.Nodes.JsonArray();
        try
        {
            if (row <= pdb.MethodDebugInformation.Count)
                foreach (var p in pdb.GetMethodDebugInformation(MetadataTokens.MethodDebugInformationHandle(row)).GetSequencePoints())
                {
                    var point = new System.Text.Json.Nodes.JsonObject { ["offset"] = p.Offset };
                    if (p.IsHidden)
                    {
                        point["hidden"] = true;
                    }
                    else
                    {
                        point["document"] = pdb.GetString(pdb.GetDocument(p.Document).Name);
                        point["startLine"] = p.StartLine;
                        point["startColumn"] = p.StartColumn;
                        point["endLine"] = p.EndLine;
                        point["endColumn"] = p.EndColumn;
                    }
                    points.Add(point);
                }
            m["sequencePoints"] = points;
        }
        catch (BadImageFormatException e)
        {
            m["sequencePointsError"] = e.Message;
        }
    }

    static int ExpectNone(string output)
    {
        using var pe = new PEReader(File.OpenRead(output));
        var claims = pe.ReadDebugDirectory()
            .Where(e => e.Type is DebugDirectoryEntryType.CodeView or DebugDirectoryEntryType.PdbChecksum
                        or DebugDirectoryEntryType.EmbeddedPortablePdb)
            .Select(e => e.Type.ToString()).ToList();
        bool opens = pe.TryOpenAssociatedPortablePdb(output, p => File.Exists(p) ? File.OpenRead(p) : null, out var provider, out var path);
        provider?.Dispose();
        if (claims.Count == 0 && !opens)
        {
            Console.WriteLine($"OK {output} (names no PDB)");
            return 0;
        }
        Console.WriteLine($"DIFF {output}");
        if (claims.Count > 0)
            Console.WriteLine("  the debug directory still has " + string.Join(", ", claims));
        if (opens)
            Console.WriteLine("  a PDB opens for it: " + (path ?? "embedded"));
        return 1;
    }

    sealed class Pdb(PEReader pe, MetadataReader md, MetadataReader pdb, byte[] pdbBytes, string where) : IDisposable
    {
        public PEReader Pe = pe;
        public MetadataReader Md = md;
        public MetadataReader Reader = pdb;
        public byte[] Bytes = pdbBytes;
        public string Where = where;
        public List<IDisposable> Owned = new();
        public void Dispose()
        {
            foreach (var o in Owned)
                o.Dispose();
            Pe.Dispose();
        }
    }

    /// <summary>Opens the assembly and its PDB, as the runtime and the debugger would.</summary>
    static Pdb Open(string path, List<string> d, string label)
    {
        var pe = new PEReader(ImmutableArray.Create(File.ReadAllBytes(path)));
        var md = pe.GetMetadataReader();
        var entries = pe.ReadDebugDirectory();
        // The runtime's way (System.Diagnostics.StackTrace): checks the id and the checksum.
        if (!pe.TryOpenAssociatedPortablePdb(path, p => File.Exists(p) ? File.OpenRead(p) : null, out var associated, out _) && label == "output")
            d.Add($"{label}: TryOpenAssociatedPortablePdb finds no matching PDB");
        associated?.Dispose();

        var embedded = entries.FirstOrDefault(e => e.Type == DebugDirectoryEntryType.EmbeddedPortablePdb);
        MetadataReaderProvider provider;
        byte[] bytes;
        string where;
        if (embedded.DataSize != 0)
        {
            provider = pe.ReadEmbeddedPortablePdbDebugDirectoryData(embedded);
            bytes = Inflate(pe, embedded);
            where = "embedded";
        }
        else
        {
            var codeView = entries.First(e => e.Type == DebugDirectoryEntryType.CodeView && e.IsPortableCodeView);
            var data = pe.ReadCodeViewDebugDirectoryData(codeView);
            string file = Path.Combine(Path.GetDirectoryName(Path.GetFullPath(path))!, Path.GetFileName(data.Path.Replace('\\', '/')));
            // An original may have its PDB beside it under its own name rather than the one its
            // CodeView entry gives (the tool looks for IN.pdb); an output must be found as named.
            if (!File.Exists(file) && label == "original")
                file = Path.ChangeExtension(Path.GetFullPath(path), ".pdb");
            bytes = File.ReadAllBytes(file);
            provider = MetadataReaderProvider.FromPortablePdbStream(new MemoryStream(bytes));
            where = file;
        }
        var result = new Pdb(pe, md, provider.GetMetadataReader(), bytes, where);
        result.Owned.Add(provider);
        return result;
    }

    /// <summary>The embedded PDB, inflated here rather than through SRM: 'MPDB', size, deflate.</summary>
    static byte[] Inflate(PEReader pe, DebugDirectoryEntry entry)
    {
        var image = pe.GetEntireImage().GetContent();
        int at = entry.DataPointer;
        if (BitConverter.ToUInt32(image.AsSpan(at, 4)) != 0x4244504D)
            throw new BadImageFormatException("embedded PDB does not start with MPDB");
        int size = BitConverter.ToInt32(image.AsSpan(at + 4, 4));
        using var deflate = new DeflateStream(new MemoryStream(image.ToArray(), at + 8, entry.DataSize - 8), CompressionMode.Decompress);
        var output = new MemoryStream();
        deflate.CopyTo(output);
        if (output.Length != size)
            throw new BadImageFormatException($"embedded PDB inflates to {output.Length} bytes, not {size}");
        return output.ToArray();
    }

    static string Check(string originalPath, string outputPath, List<string> d)
    {
        using var original = Open(originalPath, d, "original");
        using var output = Open(outputPath, d, "output");
        CheckIds(output, d);
        CheckSharedTables(original.Reader, output.Reader, d);

        int methods = original.Md.GetTableRowCount(TableIndex.MethodDef);
        int outputMethods = output.Md.GetTableRowCount(TableIndex.MethodDef);
        if (output.Reader.MethodDebugInformation.Count != (original.Reader.MethodDebugInformation.Count == 0 ? 0 : outputMethods))
            d.Add($"MethodDebugInformation has {output.Reader.MethodDebugInformation.Count} rows for {outputMethods} methods");
        int changed = 0, same = 0, points = 0;
        for (int row = 1; row <= methods; row++)
        {
            var h = MetadataTokens.MethodDefinitionHandle(row);
            byte[]? oldIl = Il(original, h), newIl = Il(output, h);
            string where = $"0x{0x06000000 | row:X8}";
            if (oldIl == null || newIl == null || oldIl.AsSpan().SequenceEqual(newIl))
            {
                same++;
                CheckUnchanged(original.Reader, output.Reader, row, where, d);
                continue;
            }
            changed++;
            points += CheckMoved(original.Reader, output.Reader, row, oldIl, newIl, where, d);
        }
        for (int row = methods + 1; row <= Math.Min(outputMethods, output.Reader.MethodDebugInformation.Count); row++)
        {
            var info = output.Reader.GetMethodDebugInformation(MetadataTokens.MethodDebugInformationHandle(row));
            if (!info.SequencePointsBlob.IsNil || !info.Document.IsNil)
                d.Add($"added method 0x{0x06000000 | row:X8} has debug information");
        }
        return $"{output.Where}: {methods} methods, {changed} moved with {points} sequence points, {same} unchanged, {outputMethods - methods} added";
    }

    static byte[]? Il(Pdb p, MethodDefinitionHandle h)
    {
        int rva = p.Md.GetMethodDefinition(h).RelativeVirtualAddress;
        return rva == 0 ? null : p.Pe.GetMethodBody(rva).GetILBytes();
    }

    static void CheckIds(Pdb output, List<string> d)
    {
        var entries = output.Pe.ReadDebugDirectory();
        var id = output.Reader.DebugMetadataHeader!.Id;
        var codeViews = entries.Where(e => e.Type == DebugDirectoryEntryType.CodeView).ToList();
        if (codeViews.Count != 1 || !codeViews[0].IsPortableCodeView)
        {
            d.Add($"{codeViews.Count} CodeView entries, expected one portable");
            return;
        }
        var cv = output.Pe.ReadCodeViewDebugDirectoryData(codeViews[0]);
        var expected = new BlobContentId(id);
        if (cv.Guid != expected.Guid || codeViews[0].Stamp != expected.Stamp)
            d.Add($"CodeView names {cv.Guid} stamp {codeViews[0].Stamp:x8}, the PDB's id is {expected.Guid} stamp {expected.Stamp:x8}");
        if (output.Where != "embedded" && Path.GetFileName(cv.Path.Replace('\\', '/')) != Path.GetFileName(output.Where))
            d.Add($"CodeView path {cv.Path} does not name {Path.GetFileName(output.Where)}");
        // The id is the content hash (Roslyn's deterministic rule), so a rebuilt PDB gets a new id.
        var zeroed = (byte[])output.Bytes.Clone();
        int idAt = output.Reader.DebugMetadataHeader.IdStartOffset;
        Array.Clear(zeroed, idAt, 20);
        byte[] hash = SHA256.HashData(zeroed);
        if (BlobContentId.FromHash(hash) != expected)
            d.Add("the PDB id is not derived from the PDB's SHA-256");
        var checksums = entries.Where(e => e.Type == DebugDirectoryEntryType.PdbChecksum).ToList();
        foreach (var entry in checksums)
        {
            var c = output.Pe.ReadPdbChecksumDebugDirectoryData(entry);
            if (c.AlgorithmName != "SHA256" || !c.Checksum.AsSpan().SequenceEqual(hash))
                d.Add($"PdbChecksum {c.AlgorithmName} {Convert.ToHexString(c.Checksum.ToArray())} is not the PDB's {Convert.ToHexString(hash)}");
        }
    }

    /// <summary>Tables that no rewrite changes: the same rows, by value.</summary>
    static void CheckSharedTables(MetadataReader a, MetadataReader b, List<string> d)
    {
        foreach (var t in new[] { TableIndex.Document, TableIndex.LocalScope, TableIndex.LocalVariable, TableIndex.LocalConstant,
                                  TableIndex.ImportScope, TableIndex.StateMachineMethod, TableIndex.CustomDebugInformation })
            if (a.GetTableRowCount(t) != b.GetTableRowCount(t))
                d.Add($"{t}: {a.GetTableRowCount(t)} rows became {b.GetTableRowCount(t)}");
        foreach (var (x, y) in a.Documents.Zip(b.Documents))
        {
            var dx = a.GetDocument(x);
            var dy = b.GetDocument(y);
            if (a.GetString(dx.Name) != b.GetString(dy.Name) || a.GetGuid(dx.Language) != b.GetGuid(dy.Language) ||
                a.GetGuid(dx.HashAlgorithm) != b.GetGuid(dy.HashAlgorithm) || !a.GetBlobBytes(dx.Hash).SequenceEqual(b.GetBlobBytes(dy.Hash)))
                d.Add($"document {a.GetString(dx.Name)} changed");
        }
        foreach (var (x, y) in a.LocalVariables.Zip(b.LocalVariables))
        {
            var vx = a.GetLocalVariable(x);
            var vy = b.GetLocalVariable(y);
            if (a.GetString(vx.Name) != b.GetString(vy.Name) || vx.Index != vy.Index || vx.Attributes != vy.Attributes)
                d.Add($"local variable {a.GetString(vx.Name)} changed");
        }
        foreach (var (x, y) in a.LocalConstants.Zip(b.LocalConstants))
        {
            var cx = a.GetLocalConstant(x);
            var cy = b.GetLocalConstant(y);
            if (a.GetString(cx.Name) != b.GetString(cy.Name) || !a.GetBlobBytes(cx.Signature).SequenceEqual(b.GetBlobBytes(cy.Signature)))
                d.Add($"local constant {a.GetString(cx.Name)} changed");
        }
        foreach (var (x, y) in a.ImportScopes.Zip(b.ImportScopes))
        {
            var ix = a.GetImportScope(x);
            var iy = b.GetImportScope(y);
            if (ix.Parent != iy.Parent || !a.GetBlobBytes(ix.ImportsBlob).SequenceEqual(b.GetBlobBytes(iy.ImportsBlob)))
                d.Add($"import scope {MetadataTokens.GetRowNumber(x)} changed");
        }
        for (int row = 1; row <= a.MethodDebugInformation.Count && row <= b.MethodDebugInformation.Count; row++)
        {
            var h = MetadataTokens.MethodDebugInformationHandle(row);
            if (a.GetMethodDebugInformation(h).GetStateMachineKickoffMethod() != b.GetMethodDebugInformation(h).GetStateMachineKickoffMethod())
                d.Add($"state machine of 0x{0x06000000 | row:X8} changed its kickoff method");
        }
        foreach (var (x, y) in a.CustomDebugInformation.Zip(b.CustomDebugInformation))
        {
            var cx = a.GetCustomDebugInformation(x);
            var cy = b.GetCustomDebugInformation(y);
            if (cx.Parent != cy.Parent || a.GetGuid(cx.Kind) != b.GetGuid(cy.Kind))
                d.Add($"custom debug information row {MetadataTokens.GetRowNumber(x)} changed parent or kind");
            else if (a.GetGuid(cx.Kind) != HoistedLocalScopes && a.GetGuid(cx.Kind) != AsyncStepping &&
                     !a.GetBlobBytes(cx.Value).SequenceEqual(b.GetBlobBytes(cy.Value)))
                d.Add($"custom debug information row {MetadataTokens.GetRowNumber(x)} ({a.GetGuid(cx.Kind)}) changed value");
        }
    }

    static List<SequencePoint> Points(MetadataReader r, int row) =>
        row <= r.MethodDebugInformation.Count
            ? r.GetMethodDebugInformation(MetadataTokens.MethodDebugInformationHandle(row)).GetSequencePoints().ToList()
            : new List<SequencePoint>();

    static List<LocalScope> Scopes(MetadataReader r, int row) =>
        r.GetLocalScopes(MetadataTokens.MethodDefinitionHandle(row)).Select(r.GetLocalScope).ToList();

    static List<(Guid kind, byte[] value)> MethodCdi(MetadataReader r, int row) =>
        r.GetCustomDebugInformation(MetadataTokens.MethodDefinitionHandle(row))
            .Select(r.GetCustomDebugInformation)
            .Select(c => (r.GetGuid(c.Kind), r.GetBlobBytes(c.Value))).ToList();

    static bool SamePoint(MetadataReader a, SequencePoint x, MetadataReader b, SequencePoint y) =>
        a.GetString(a.GetDocument(x.Document).Name) == b.GetString(b.GetDocument(y.Document).Name) &&
        x.StartLine == y.StartLine && x.EndLine == y.EndLine && x.StartColumn == y.StartColumn && x.EndColumn == y.EndColumn;

    static void CheckUnchanged(MetadataReader a, MetadataReader b, int row, string where, List<string> d)
    {
        if (row <= a.MethodDebugInformation.Count)
        {
            var x = a.GetMethodDebugInformation(MetadataTokens.MethodDebugInformationHandle(row));
            var y = b.GetMethodDebugInformation(MetadataTokens.MethodDebugInformationHandle(row));
            if (!a.GetBlobBytes(x.SequencePointsBlob).SequenceEqual(b.GetBlobBytes(y.SequencePointsBlob)) || x.Document != y.Document)
                d.Add($"{where}: unchanged IL, changed sequence points");
        }
        var sx = Scopes(a, row);
        var sy = Scopes(b, row);
        if (!sx.Select(s => (s.StartOffset, s.Length)).SequenceEqual(sy.Select(s => (s.StartOffset, s.Length))))
            d.Add($"{where}: unchanged IL, changed local scopes");
        var cx = MethodCdi(a, row);
        var cy = MethodCdi(b, row);
        if (cx.Count != cy.Count || cx.Zip(cy).Any(p => p.First.kind != p.Second.kind || !p.First.value.SequenceEqual(p.Second.value)))
            d.Add($"{where}: unchanged IL, changed custom debug information");
    }

    /// <summary>A sequence point's, scope's or stepping offset's checks for a method whose IL changed; returns the points checked.</summary>
    static int CheckMoved(MetadataReader a, MetadataReader b, int row, byte[] oldIl, byte[] newIl, string where, List<string> d)
    {
        var oldCode = PdbIl.Decode(oldIl);
        var newCode = PdbIl.Decode(newIl);
        var newStarts = new HashSet<int>(newCode.Select(i => i.Offset)) { newIl.Length };
        var before = Points(a, row);
        var after = Points(b, row);
        int count = d.Count;
        // One hidden point may follow, over code appended after the original code.
        bool extraHidden = after.Count == before.Count + 1 && after[^1].IsHidden;
        if (after.Count != before.Count && !extraHidden)
        {
            d.Add($"{where}: {before.Count} sequence points became {after.Count}");
            return 0;
        }
        var mapped = new List<int>();
        for (int i = 0; i < before.Count; i++)
        {
            var x = before[i];
            var y = after[i];
            if (x.IsHidden != y.IsHidden || (!x.IsHidden && !SamePoint(a, x, b, y)))
                d.Add($"{where}: point {i} (IL_{x.Offset:x4}, line {x.StartLine}) became line {y.StartLine}");
            if (!newStarts.Contains(y.Offset))
                d.Add($"{where}: point {i} at IL_{y.Offset:x4} is not an instruction boundary of the new IL");
            if (i > 0 && y.Offset <= mapped[^1])
                d.Add($"{where}: point {i} at IL_{y.Offset:x4} does not come after the one before");
            mapped.Add(y.Offset);
        }
        // Between two points, the original code is found in order in the new code; so is the code
        // after the last point, before the appended block.
        var oldAnchors = before.Select(p => p.Offset).Append(oldIl.Length).ToList();
        int endOfOriginal = extraHidden ? after[^1].Offset : newIl.Length;
        var newAnchors = mapped.Append(endOfOriginal).ToList();
        for (int i = 0; i + 1 < oldAnchors.Count; i++)
        {
            var oldSegment = oldCode.Where(ins => ins.Offset >= oldAnchors[i] && ins.Offset < oldAnchors[i + 1]).ToList();
            var newSegment = newCode.Where(ins => ins.Offset >= newAnchors[i] && ins.Offset < newAnchors[i + 1]).ToList();
            // A point at offset 0 stays there, over the code inserted at entry; any other names
            // its instruction.
            bool atEntry = oldAnchors[i] == 0 && newAnchors[i] == 0;
            if (oldSegment.Count > 0 && !atEntry && (newSegment.Count == 0 || !PdbIl.Corresponds(oldSegment[0], newSegment[0])))
                d.Add($"{where}: point {i} names {(newSegment.Count > 0 ? newSegment[0].Name : "nothing")} for {oldSegment[0].Name}");
            else if (!PdbIl.IsSubsequence(oldSegment, newSegment))
                d.Add($"{where}: the code of point {i} (IL_{oldAnchors[i]:x4}) is not found after IL_{newAnchors[i]:x4}");
        }

        CheckScopes(a, b, row, before, after, newStarts, newIl.Length, where, d);
        CheckStateMachineOffsets(a, b, row, oldCode, newCode, newStarts, where, d);
        return d.Count == count ? before.Count : 0;
    }

    static void CheckScopes(MetadataReader a, MetadataReader b, int row, List<SequencePoint> before, List<SequencePoint> after,
                            HashSet<int> newStarts, int newSize, string where, List<string> d)
    {
        var sx = Scopes(a, row);
        var sy = Scopes(b, row);
        if (sx.Count != sy.Count)
        {
            d.Add($"{where}: {sx.Count} local scopes became {sy.Count}");
            return;
        }
        for (int i = 0; i < sx.Count; i++)
        {
            var x = sx[i];
            var y = sy[i];
            string scope = $"{where}: scope {i} [IL_{y.StartOffset:x4}, IL_{y.EndOffset:x4})";
            if (!newStarts.Contains(y.StartOffset) || !newStarts.Contains(y.EndOffset))
                d.Add($"{scope} does not start and end at instruction boundaries");
            if (i == 0 && (y.StartOffset != 0 || y.EndOffset != newSize))
                d.Add($"{scope} is the method's first and does not span its {newSize} bytes of IL");
            if (!x.GetLocalVariables().Select(v => a.GetString(a.GetLocalVariable(v).Name))
                    .SequenceEqual(y.GetLocalVariables().Select(v => b.GetString(b.GetLocalVariable(v).Name))) ||
                !x.GetLocalConstants().Select(c => a.GetString(a.GetLocalConstant(c).Name))
                    .SequenceEqual(y.GetLocalConstants().Select(c => b.GetString(b.GetLocalConstant(c).Name))))
                d.Add($"{scope} holds other variables or constants");
            for (int p = 0; p < before.Count; p++)
            {
                bool wasIn = before[p].Offset >= x.StartOffset && before[p].Offset < x.EndOffset;
                bool isIn = after[p].Offset >= y.StartOffset && after[p].Offset < y.EndOffset;
                if (wasIn != isIn)
                    d.Add($"{scope}: point {p} (line {before[p].StartLine}) was {(wasIn ? "inside" : "outside")} it and is not");
            }
            for (int j = 0; j < i; j++)
            {
                bool nestedBefore = x.StartOffset >= sx[j].StartOffset && x.EndOffset <= sx[j].EndOffset;
                bool nestedAfter = y.StartOffset >= sy[j].StartOffset && y.EndOffset <= sy[j].EndOffset;
                if (nestedBefore != nestedAfter)
                    d.Add($"{scope}: its nesting in scope {j} changed");
            }
        }
    }

    static void CheckStateMachineOffsets(MetadataReader a, MetadataReader b, int row, List<PdbIl.Instruction> oldCode,
                                         List<PdbIl.Instruction> newCode, HashSet<int> newStarts, string where, List<string> d)
    {
        var cx = MethodCdi(a, row);
        var cy = MethodCdi(b, row);
        if (cx.Count != cy.Count)
        {
            d.Add($"{where}: {cx.Count} custom debug information records became {cy.Count}");
            return;
        }
        void Corresponding(uint oldOffset, uint newOffset, string what)
        {
            var o = oldCode.FirstOrDefault(i => i.Offset == oldOffset);
            var n = newCode.FirstOrDefault(i => i.Offset == newOffset);
            if (!newStarts.Contains((int)newOffset) || o.Name == null || n.Name == null || !PdbIl.Corresponds(o, n))
                d.Add($"{where}: {what} IL_{oldOffset:x4} ({o.Name}) became IL_{newOffset:x4} ({n.Name})");
        }
        foreach (var ((kind, x), (_, y)) in cx.Zip(cy))
        {
            if (kind == HoistedLocalScopes)
            {
                if (x.Length != y.Length)
                {
                    d.Add($"{where}: hoisted local scopes changed size");
                    continue;
                }
                for (int i = 0; i + 8 <= x.Length; i += 8)
                {
                    uint os = BitConverter.ToUInt32(x, i), ol = BitConverter.ToUInt32(x, i + 4);
                    uint ns = BitConverter.ToUInt32(y, i), nl = BitConverter.ToUInt32(y, i + 4);
                    if (os == 0 && ol == 0)
                    {
                        if (ns != 0 || nl != 0)
                            d.Add($"{where}: hoisted variable {i / 8} got a scope");
                        continue;
                    }
                    if (os != 0)
                        Corresponding(os, ns, $"hoisted variable {i / 8}'s scope start");
                    if (!newStarts.Contains((int)(ns + nl)))
                        d.Add($"{where}: hoisted variable {i / 8}'s scope ends inside an instruction");
                }
            }
            else if (kind == AsyncStepping)
            {
                int p = 0, q = 0;
                uint oc = BitConverter.ToUInt32(x, p), nc = BitConverter.ToUInt32(y, q);
                p += 4;
                q += 4;
                if ((oc == 0) != (nc == 0))
                    d.Add($"{where}: the async catch handler appeared or disappeared");
                else if (oc != 0)
                    Corresponding(oc - 1, nc - 1, "the async catch handler");
                while (p < x.Length && q < y.Length)
                {
                    uint oy = BitConverter.ToUInt32(x, p), ny = BitConverter.ToUInt32(y, q);
                    uint or = BitConverter.ToUInt32(x, p + 4), nr = BitConverter.ToUInt32(y, q + 4);
                    p += 8;
                    q += 8;
                    int om = ReadCompressed(x, ref p), nm = ReadCompressed(y, ref q);
                    if (om != nm)
                        d.Add($"{where}: an await's resume method changed");
                    Corresponding(oy, ny, "an await's yield point");
                    if (om == row)
                        Corresponding(or, nr, "an await's resume point");
                }
                if (p != x.Length || q != y.Length)
                    d.Add($"{where}: the async stepping information has another number of awaits");
            }
        }
    }

    static int ReadCompressed(byte[] blob, ref int at)
    {
        byte b0 = blob[at];
        if ((b0 & 0x80) == 0)
        {
            at += 1;
            return b0;
        }
        if ((b0 & 0xC0) == 0x80)
        {
            at += 2;
            return ((b0 & 0x3F) << 8) | blob[at - 1];
        }
        at += 4;
        return ((b0 & 0x1F) << 24) | (blob[at - 3] << 16) | (blob[at - 2] << 8) | blob[at - 1];
    }
}

/// <summary>IL instructions with their names and operand bytes, decoded with System.Reflection.Emit.OpCodes.</summary>
static class PdbIl
{
    public record struct Instruction(int Offset, string Name, OperandType Operand, byte[] OperandBytes);

    static readonly Dictionary<ushort, OpCode> Codes = typeof(OpCodes)
        .GetFields(BindingFlags.Public | BindingFlags.Static)
        .Select(f => f.GetValue(null)).OfType<OpCode>()
        .Where(o => o.OpCodeType != OpCodeType.Nternal)
        .ToDictionary(o => unchecked((ushort)o.Value));

    public static List<Instruction> Decode(byte[] il)
    {
        var list = new List<Instruction>();
        int pos = 0;
        while (pos < il.Length)
        {
            int start = pos;
            ushort value = il[pos] == 0xFE && pos + 1 < il.Length ? (ushort)(0xFE00 | il[pos + 1]) : il[pos];
            pos += value > 0xFF ? 2 : 1;
            if (value == 0xFE19)
            {
                list.Add(new Instruction(start, "no.", OperandType.ShortInlineI, il[pos..(pos + 1)]));
                pos += 1;
                continue;
            }
            if (!Codes.TryGetValue(value, out var op))
                throw new BadImageFormatException($"undefined opcode 0x{value:X} at IL_{start:x4}");
            int size = op.OperandType switch
            {
                OperandType.InlineNone => 0,
                OperandType.ShortInlineBrTarget or OperandType.ShortInlineI or OperandType.ShortInlineVar => 1,
                OperandType.InlineVar => 2,
                OperandType.InlineI8 or OperandType.InlineR => 8,
                OperandType.InlineSwitch => 4 + 4 * (int)BitConverter.ToUInt32(il, pos),
                _ => 4,
            };
            list.Add(new Instruction(start, op.Name!, op.OperandType, il[pos..(pos + size)]));
            pos += size;
        }
        return list;
    }

    /// <summary>Whether new instruction `n` stands for original instruction `o`: the same one, the
    /// long form of a short branch, a `nop` for `tail.`, or the store (or leave) that replaces a `ret`.</summary>
    public static bool Corresponds(Instruction o, Instruction n)
    {
        if (o.Name == "ret")
            return n.Name == "ret" || n.Name.StartsWith("stloc") || n.Name.StartsWith("leave") || n.Name.StartsWith("br");
        if (o.Name == "tail.")
            return n.Name == "tail." || n.Name == "nop";
        bool branch = o.Operand is OperandType.ShortInlineBrTarget or OperandType.InlineBrTarget or OperandType.InlineSwitch;
        if (branch)
            return Long(o.Name) == Long(n.Name);
        return o.Name == n.Name && o.OperandBytes.AsSpan().SequenceEqual(n.OperandBytes);
    }

    static string Long(string name) => name.EndsWith(".s") ? name[..^2] : name;

    /// <summary>Whether `original` appears, in order, in `rewritten` (inserted instructions skipped).</summary>
    public static bool IsSubsequence(List<Instruction> original, List<Instruction> rewritten)
    {
        int j = 0;
        foreach (var o in original)
        {
            while (j < rewritten.Count && !Corresponds(o, rewritten[j]))
                j++;
            if (j == rewritten.Count)
                return false;
            j++;
        }
        return true;
    }
}
