// Independent oracle for `cil-instrument dump/info --json`, built on System.Reflection.Metadata (SRM).
//
//   dotnet Oracle.dll print FILE
//   dotnet Oracle.dll compare --tool PATH [--strict] [--timeout SECONDS] [--list LISTFILE] [FILE...]
//     (--strict: a file SRM cannot read is a failure, as it must be for the tool's outputs)
//   dotnet Oracle.dll selftest      (checks the oracle itself on a synthetic assembly; SelfTest.cs)
//
// `print` writes the oracle's own facts for FILE as JSON (the `dump --json` shape plus "tables"
// and "methodsWithBodies", and per instruction the operand "kind" and a float's "realBits").
// `compare` runs `PATH dump FILE --json` and `PATH info FILE --json` for every FILE and checks
// them field by field against SRM, instruction by instruction. See README.md beside this file.
//
// Nothing here shares code or tables with the C++ tool: metadata comes from SRM, the opcode table
// from System.Reflection.Emit.OpCodes (by reflection).

using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Reflection.Emit;
using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using System.Reflection.PortableExecutable;
using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Nodes;
using System.Threading;
using System.Threading.Tasks;

namespace CilInstrument.Oracle;

/// <summary>SRM could not open the file as a PE image with CLI metadata.</summary>
sealed class SkipException(string reason) : Exception(reason);

static class Program
{
    static readonly JsonSerializerOptions PrettyJson = new()
    {
        WriteIndented = true,
        Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
    };

    static int Main(string[] args)
    {
        try
        {
            if (args.Length == 2 && args[0] == "print")
                return Print(args[1]);
            if (args.Length >= 1 && args[0] == "compare")
                return Compare.Run(args.Skip(1).ToArray());
            if (args.Length == 1 && args[0] == "selftest")
                return SelfTest.Run();
            if (args.Length >= 1 && args[0] == "pdb")
                return PdbOracle.Run(args.Skip(1).ToArray());
        }
        catch (UsageException e)
        {
            Console.Error.WriteLine("oracle: " + e.Message);
            return 2;
        }
        Console.Error.WriteLine(
            "usage: Oracle.dll print FILE\n" +
            "       Oracle.dll compare --tool PATH [--strict] [--timeout SECONDS] [--list LISTFILE] [FILE...]\n" +
            "       Oracle.dll selftest\n" +
            "       Oracle.dll pdb ORIGINAL OUTPUT | pdb --none OUTPUT");
        return 2;
    }

    static int Print(string path)
    {
        JsonObject facts;
        try
        {
            facts = Facts.Extract(path);
        }
        catch (SkipException e)
        {
            Console.Error.WriteLine($"oracle: {path}: srm: {e.Message}");
            return 1;
        }
        using var stdout = Console.OpenStandardOutput();
        using (var w = new Utf8JsonWriter(stdout, new JsonWriterOptions { Indented = true, Encoder = PrettyJson.Encoder }))
            facts.WriteTo(w);
        stdout.Write("\n"u8);
        return 0;
    }

    internal static string Show(JsonNode? n) => n is null ? "null" : n.ToJsonString(PrettyJson.WithoutIndent());

    static JsonSerializerOptions WithoutIndent(this JsonSerializerOptions o) => _compact ??= new JsonSerializerOptions(o) { WriteIndented = false };
    static JsonSerializerOptions? _compact;
}

sealed class UsageException(string message) : Exception(message);

// ------------------------------------------------------------------------------------------------
// Facts: what SRM says about one file.
// ------------------------------------------------------------------------------------------------
static class Facts
{
    /// <summary>ECMA-335 names of tables 0x00..0x2C, keyed by SRM's TableIndex spelling where it differs.</summary>
    static readonly Dictionary<string, string> SrmToEcmaName = new()
    {
        ["FieldRva"] = "FieldRVA",
        ["EncLog"] = "ENCLog",
        ["EncMap"] = "ENCMap",
    };

    internal static string TableName(TableIndex t)
    {
        string s = t.ToString();
        return SrmToEcmaName.TryGetValue(s, out var e) ? e : s;
    }

    internal static string Token(uint t) => "0x" + t.ToString("X8", CultureInfo.InvariantCulture);

    public static JsonObject Extract(string path)
    {
        byte[] image;
        try
        {
            image = File.ReadAllBytes(path);
        }
        catch (Exception e)
        {
            throw new SkipException(e.Message);
        }

        PEReader pe;
        MetadataReader md;
        try
        {
            pe = new PEReader(ImmutableArray.Create(image));
            if (!pe.HasMetadata)
                throw new SkipException("PE image has no CLI metadata");
            // No WinMD projections: the tool reads raw metadata.
            md = pe.GetMetadataReader(MetadataReaderOptions.None);
        }
        catch (SkipException)
        {
            throw;
        }
        catch (Exception e)
        {
            throw new SkipException($"{e.GetType().Name}: {e.Message}");
        }

        using (pe)
        {
            var o = new JsonObject();

            // assembly / mvid
            try
            {
                o["assembly"] = md.IsAssembly
                    ? md.GetString(md.GetAssemblyDefinition().Name)
                    : md.GetString(md.GetModuleDefinition().Name);
            }
            catch (Exception e)
            {
                o["assembly"] = null;
                o["assemblyError"] = Describe(e);
            }
            try
            {
                o["mvid"] = md.GetGuid(md.GetModuleDefinition().Mvid).ToString("D");
            }
            catch (Exception e)
            {
                o["mvid"] = null;
                o["mvidError"] = Describe(e);
            }

            // tables: every non-empty table, by ECMA name
            var tables = new JsonObject();
            foreach (TableIndex t in Enum.GetValues<TableIndex>())
            {
                int rows = md.GetTableRowCount(t);
                if (rows != 0)
                    tables[TableName(t)] = rows;
            }
            o["tables"] = tables;

            // methods
            var methods = new JsonArray();
            int methodRows = md.GetTableRowCount(TableIndex.MethodDef);
            var names = new TypeNames(md);
            // Source lines, when the assembly has a PDB (see PdbOracle.SequencePointFacts).
            using var pdb = PdbOracle.ProviderFor(path, pe);
            var pdbReader = pdb?.GetMetadataReader();
            for (int row = 1; row <= methodRows; row++)
            {
                var h = MetadataTokens.MethodDefinitionHandle(row);
                JsonObject? m;
                try
                {
                    m = Method(pe, md, names, h);
                    if (m != null && pdbReader != null && !m.ContainsKey("error"))
                        PdbOracle.SequencePointFacts(pdbReader, row, m);
                }
                catch (Exception e)
                {
                    // Reading the MethodDef row itself failed; cannot tell whether it has a body.
                    m = new JsonObject
                    {
                        ["token"] = Token(0x06000000u | (uint)row),
                        ["rowError"] = Describe(e),
                    };
                }
                if (m != null)
                    methods.Add(m);
            }
            o["methodsWithBodies"] = methods.Count;
            o["methods"] = methods;
            return o;
        }
    }

    static JsonObject? Method(PEReader pe, MetadataReader md, TypeNames names, MethodDefinitionHandle h)
    {
        var def = md.GetMethodDefinition(h);
        uint rva = unchecked((uint)def.RelativeVirtualAddress);
        if (rva == 0 || ((int)def.ImplAttributes & 3) != 0)
            return null;

        var m = new JsonObject { ["token"] = Token(unchecked((uint)MetadataTokens.GetToken(h))) };

        string? typeName = null, nameError = null;
        try
        {
            typeName = names.Of(def.GetDeclaringType(), out nameError);
        }
        catch (Exception e)
        {
            nameError = Describe(e);
        }
        string methodName;
        try
        {
            methodName = md.GetString(def.Name);
        }
        catch (Exception e)
        {
            methodName = "?";
            nameError ??= Describe(e);
        }
        m["name"] = (typeName ?? "?") + "::" + methodName;
        if (nameError != null)
            m["nameError"] = nameError; // compare does not check the name then
        m["rva"] = rva;

        MethodBodyBlock body;
        try
        {
            body = pe.GetMethodBody((int)rva);
        }
        catch (Exception e)
        {
            // SRM throws BadImageFormatException for a bad body; a RVA >= 2^31 gives
            // ArgumentOutOfRangeException. Either way the body is unreadable.
            m["error"] = Describe(e);
            return m;
        }

        byte[] il = body.GetILBytes() ?? [];
        m["codeSize"] = il.Length;
        m["maxStack"] = body.MaxStack;
        m["localsToken"] = body.LocalSignature.IsNil
            ? null
            : Token(unchecked((uint)MetadataTokens.GetToken(body.LocalSignature)));
        m["initLocals"] = body.LocalVariablesInitialized;

        var eh = new JsonArray();
        foreach (var r in body.ExceptionRegions)
            eh.Add(Clause(r));
        m["ehClauses"] = eh;

        var (instructions, ilError) = Il.Decode(body);
        m["instructions"] = instructions;
        if (ilError != null)
            m["ilError"] = ilError;
        return m;
    }

    static readonly FieldInfo? RawClassTokenField =
        typeof(ExceptionRegion).GetField("_classTokenOrFilterOffset", BindingFlags.NonPublic | BindingFlags.Instance);

    static JsonObject Clause(ExceptionRegion r)
    {
        var c = new JsonObject
        {
            ["kind"] = r.Kind switch
            {
                ExceptionRegionKind.Catch => "catch",
                ExceptionRegionKind.Filter => "filter",
                ExceptionRegionKind.Finally => "finally",
                ExceptionRegionKind.Fault => "fault",
                _ => "unknown:" + ((uint)r.Kind).ToString(CultureInfo.InvariantCulture),
            },
            ["tryOffset"] = (uint)r.TryOffset,
            ["tryLength"] = (uint)r.TryLength,
            ["handlerOffset"] = (uint)r.HandlerOffset,
            ["handlerLength"] = (uint)r.HandlerLength,
        };
        if (r.Kind == ExceptionRegionKind.Catch)
        {
            // GetToken returns 0 for a value with the top bit set (SRM treats it as a "virtual"
            // handle); report the raw 32-bit class token as stored in the clause instead.
            uint tok = unchecked((uint)MetadataTokens.GetToken(r.CatchType));
            if (tok == 0 && RawClassTokenField?.GetValue(r) is int raw)
                tok = unchecked((uint)raw);
            c["catchType"] = Token(tok);
        }
        else if (r.Kind == ExceptionRegionKind.Filter)
        {
            c["filterOffset"] = (uint)r.FilterOffset;
        }
        return c;
    }

    internal static string Describe(Exception e) =>
        e is BadImageFormatException ? e.Message : $"{e.GetType().Name}: {e.Message}";
}

/// <summary>Type full names per the tool's convention, from SRM's own declaring-type lookups.</summary>
sealed class TypeNames(MetadataReader md)
{
    readonly Dictionary<TypeDefinitionHandle, (string? name, string? error)> _cache = new();

    /// <returns>The full name, or null with <paramref name="error"/> set when SRM cannot name it.</returns>
    public string? Of(TypeDefinitionHandle h, out string? error)
    {
        if (h.IsNil)
        {
            error = "SRM finds no declaring TypeDef for this method";
            return null;
        }
        if (!_cache.TryGetValue(h, out var r))
        {
            r = Compute(h);
            _cache[h] = r;
        }
        error = r.error;
        return r.name;
    }

    (string?, string?) Compute(TypeDefinitionHandle h)
    {
        try
        {
            var parts = new List<string>();
            var seen = new HashSet<TypeDefinitionHandle>();
            while (true)
            {
                if (!seen.Add(h))
                    return (null, "nested-class cycle at " + Facts.Token(unchecked((uint)MetadataTokens.GetToken(h))));
                var td = md.GetTypeDefinition(h);
                string name = md.GetString(td.Name);
                string ns = md.GetString(td.Namespace);
                parts.Add(ns.Length > 0 ? ns + "." + name : name);
                var outer = td.GetDeclaringType();
                if (outer.IsNil)
                    break;
                h = outer;
            }
            parts.Reverse();
            return (string.Join("/", parts), null);
        }
        catch (Exception e)
        {
            return (null, Facts.Describe(e));
        }
    }
}

// ------------------------------------------------------------------------------------------------
// IL decoding: SRM's BlobReader over the body SRM found, SRM's ILOpCode for branches (IsBranch,
// GetBranchOperandSize), and the other operand kinds and names from System.Reflection.Emit.OpCodes.
// ------------------------------------------------------------------------------------------------
static class Il
{
    sealed record OpFacts(string Name, OperandType Kind);

    static readonly OpFacts?[] OneByte = new OpFacts?[256];
    static readonly OpFacts?[] TwoByte = new OpFacts?[256]; // second byte after 0xFE

    static Il()
    {
        foreach (var f in typeof(OpCodes).GetFields(BindingFlags.Public | BindingFlags.Static))
        {
            if (f.FieldType != typeof(OpCode))
                continue;
            var op = (OpCode)f.GetValue(null)!;
            // prefix1..prefix7 and prefixref are reserved encodings, not instructions.
            if (op.OpCodeType == OpCodeType.Nternal)
                continue;
            var facts = new OpFacts(op.Name!, op.OperandType);
            ushort v = unchecked((ushort)op.Value);
            if (op.Size == 1)
                OneByte[v & 0xFF] = facts;
            else if (op.Size == 2 && (v >> 8) == 0xFE)
                TwoByte[v & 0xFF] = facts;
            else
                throw new InvalidOperationException($"unexpected opcode encoding {op.Name} {v:X4}");
        }
        // `no.` (FE 19, ECMA-335 III.2.2, one unsigned int8 operand) is the one prefix that
        // System.Reflection.Emit.OpCodes does not define.
        TwoByte[0x19] ??= new OpFacts("no.", OperandType.ShortInlineI);
    }

    static bool IsToken(OperandType t) => t is OperandType.InlineField or OperandType.InlineMethod or OperandType.InlineSig
        or OperandType.InlineString or OperandType.InlineTok or OperandType.InlineType;

    /// <summary>ldarg, ldarga, starg (short and long): their index names an argument.</summary>
    static bool IsArgument(ILOpCode op) => op is ILOpCode.Ldarg_s or ILOpCode.Ldarga_s or ILOpCode.Starg_s
        or ILOpCode.Ldarg or ILOpCode.Ldarga or ILOpCode.Starg;

    /// <summary>The text the tool gives a branch target: IL_xxxx, or IL_?n outside 0..2^32-1.</summary>
    internal static string Label(long target) =>
        target is >= 0 and <= 0xFFFFFFFF ? "IL_" + target.ToString("x4", CultureInfo.InvariantCulture) : "IL_?" + target.ToString(CultureInfo.InvariantCulture);

    static string Hex(byte[] bytes) => string.Concat(bytes.Select(b => b.ToString("X2", CultureInfo.InvariantCulture)));

    /// <returns>
    /// Every instruction of the body: "offset", "opcode", "kind" (the operand type), and what the
    /// operand is where the oracle can say it without metadata names: "operand" text for numbers,
    /// variables and branch targets, "token", "target", "targets", and "realBits" (the little-endian
    /// bytes of a float operand). Null, with an error, when the bytes are not a whole sequence of
    /// valid instructions.
    /// </returns>
    public static (JsonArray? instructions, string? error) Decode(MethodBodyBlock body)
    {
        var list = new JsonArray();
        BlobReader r = body.GetILReader();
        while (r.RemainingBytes > 0)
        {
            int start = r.Offset;
            byte first = r.ReadByte();
            OpFacts? facts;
            ushort code;
            if (first == 0xFE)
            {
                if (r.RemainingBytes < 1)
                    return (null, $"truncated two-byte opcode at IL offset {start}");
                byte second = r.ReadByte();
                code = (ushort)(0xFE00 | second);
                facts = TwoByte[second];
                if (facts == null)
                    return (null, $"undefined opcode 0xFE 0x{second:X2} at IL offset {start}");
            }
            else
            {
                code = first;
                facts = OneByte[first];
                if (facts == null)
                    return (null, $"undefined opcode 0x{first:X2} at IL offset {start}");
            }
            var op = (ILOpCode)code;
            var ins = new JsonObject
            {
                ["offset"] = start,
                ["opcode"] = facts.Name,
                ["kind"] = facts.Kind.ToString(),
            };
            string? error = Operand(ref r, start, op, facts.Kind, ins);
            if (error != null)
                return (null, error);
            list.Add(ins);
        }
        return (list, null);
    }

    static string? Operand(ref BlobReader r, int start, ILOpCode op, OperandType kind, JsonObject ins)
    {
        string Truncated() => $"truncated operand at IL offset {start}";
        if (op.IsBranch())
        {
            // SRM's own knowledge of branches: which opcodes are, and how wide their operand is.
            int size = op.GetBranchOperandSize();
            if (r.RemainingBytes < size)
                return Truncated();
            long displacement = size == 1 ? r.ReadSByte() : r.ReadInt32();
            long target = r.Offset + displacement;
            ins["target"] = target;
            ins["operand"] = Label(target);
            return null;
        }
        switch (kind)
        {
            case OperandType.InlineNone:
                return null;
            case OperandType.InlineSwitch:
            {
                if (r.RemainingBytes < 4)
                    return $"truncated switch at IL offset {start}";
                uint n = r.ReadUInt32();
                if (n > (uint)r.RemainingBytes / 4)
                    return Truncated();
                long next = r.Offset + 4L * n;
                var targets = new JsonArray();
                var labels = new List<string>();
                for (uint i = 0; i < n; i++)
                {
                    long t = next + r.ReadInt32();
                    targets.Add(t);
                    labels.Add(Label(t));
                }
                ins["targets"] = targets;
                ins["operand"] = "(" + string.Join(", ", labels) + ")";
                return null;
            }
        }
        int width = kind switch
        {
            OperandType.ShortInlineI or OperandType.ShortInlineVar => 1,
            OperandType.InlineVar => 2,
            OperandType.InlineI8 or OperandType.InlineR => 8,
            _ => 4,
        };
        if (r.RemainingBytes < width)
            return Truncated();
        var c = CultureInfo.InvariantCulture;
        switch (kind)
        {
            case OperandType.ShortInlineI:
                // unaligned. and no. take an unsigned int8 (ECMA-335 III.2.5, III.2.2); ldc.i4.s a signed one.
                ins["operand"] = op is ILOpCode.Unaligned || (ushort)op == 0xFE19
                    ? r.ReadByte().ToString(c)
                    : r.ReadSByte().ToString(c);
                break;
            case OperandType.InlineI:
                ins["operand"] = r.ReadInt32().ToString(c);
                break;
            case OperandType.InlineI8:
                ins["operand"] = "0x" + unchecked((ulong)r.ReadInt64()).ToString("x", c);
                break;
            case OperandType.ShortInlineVar:
                ins["operand"] = (IsArgument(op) ? "A_" : "V_") + r.ReadByte().ToString(c);
                break;
            case OperandType.InlineVar:
                ins["operand"] = (IsArgument(op) ? "A_" : "V_") + r.ReadUInt16().ToString(c);
                break;
            case OperandType.ShortInlineR:
                ins["realBits"] = Hex(r.ReadBytes(4));
                break;
            case OperandType.InlineR:
                ins["realBits"] = Hex(r.ReadBytes(8));
                break;
            default:
                if (!IsToken(kind))
                    throw new InvalidOperationException("unexpected operand type " + kind);
                ins["token"] = Facts.Token(r.ReadUInt32());
                break;
        }
        return null;
    }
}

// ------------------------------------------------------------------------------------------------
// compare: run the tool and check its JSON against the facts.
// ------------------------------------------------------------------------------------------------
static class Compare
{
    const int MaxShownDiffs = 20;
    const int MaxChildren = 2;
    static readonly SemaphoreSlim ChildGate = new(MaxChildren);

    sealed record FileResult(string Text, bool Skipped, int Methods, int Diffs);

    public static int Run(string[] args)
    {
        string? tool = null;
        int timeoutSeconds = 300;
        bool strict = false;
        var files = new List<string>();
        for (int i = 0; i < args.Length; i++)
        {
            string a = args[i];
            string Next() => i + 1 < args.Length ? args[++i] : throw new UsageException(a + " needs a value");
            switch (a)
            {
                case "--tool": tool = Next(); break;
                case "--strict": strict = true; break;
                case "--timeout":
                    if (!int.TryParse(Next(), out timeoutSeconds) || timeoutSeconds <= 0)
                        throw new UsageException("--timeout needs a positive number of seconds");
                    break;
                case "--list":
                    string list = Next();
                    try
                    {
                        files.AddRange(File.ReadAllLines(list).Select(l => l.Trim()).Where(l => l.Length > 0 && !l.StartsWith('#')));
                    }
                    catch (Exception e)
                    {
                        throw new UsageException($"cannot read list {list}: {e.Message}");
                    }
                    break;
                default:
                    if (a.StartsWith("--"))
                        throw new UsageException("unknown option " + a);
                    files.Add(a);
                    break;
            }
        }
        if (tool == null)
            throw new UsageException("compare needs --tool PATH");
        if (files.Count == 0)
            throw new UsageException("compare needs at least one FILE (or --list)");

        // Work on at most MaxChildren files at a time; print results in input order.
        var results = files.Select(_ => new TaskCompletionSource<FileResult>(TaskCreationOptions.RunContinuationsAsynchronously)).ToArray();
        var worker = Parallel.ForEachAsync(
            Enumerable.Range(0, files.Count),
            new ParallelOptions { MaxDegreeOfParallelism = MaxChildren },
            async (i, _) =>
            {
                FileResult r;
                try
                {
                    r = await OneFile(tool, files[i], timeoutSeconds * 1000);
                }
                catch (Exception e)
                {
                    r = new FileResult($"DIFF {files[i]}\n  oracle failed: {e}", false, 0, 1);
                }
                results[i].SetResult(r);
            });

        int compared = 0, skipped = 0, methods = 0, diffs = 0;
        foreach (var tcs in results)
        {
            var r = tcs.Task.GetAwaiter().GetResult();
            Console.WriteLine(r.Text);
            Console.Out.Flush();
            if (r.Skipped)
            {
                skipped++;
                continue;
            }
            compared++;
            methods += r.Methods;
            diffs += r.Diffs;
        }
        worker.GetAwaiter().GetResult();
        if (skipped > 0)
            Console.WriteLine($"skipped {skipped} files that SRM cannot read{(strict ? " (--strict: a failure)" : "")}");
        Console.WriteLine($"compared {compared} files, {methods} methods: {diffs} differences");
        return diffs > 0 || (strict && skipped > 0) ? 1 : 0;
    }

    static async Task<FileResult> OneFile(string tool, string file, int timeoutMs)
    {
        JsonObject srm;
        try
        {
            srm = Facts.Extract(file);
        }
        catch (SkipException e)
        {
            return new FileResult($"SKIP {file} (srm: {e.Message})", true, 0, 0);
        }

        var d = new List<string>();
        JsonObject? dump = await RunJson(tool, ["dump", file, "--json"], timeoutMs, d);
        JsonObject? info = await RunJson(tool, ["info", file, "--json"], timeoutMs, d);
        if (dump != null)
            CompareDump(dump, srm, d);
        if (info != null)
            CompareInfo(info, srm, d);

        int n = ((JsonArray)srm["methods"]!).Count;
        if (d.Count == 0)
            return new FileResult($"OK {file} ({n} methods)", false, n, 0);
        var sb = new StringBuilder($"DIFF {file}");
        foreach (var line in d.Take(MaxShownDiffs))
            sb.Append("\n  ").Append(line);
        if (d.Count > MaxShownDiffs)
            sb.Append($"\n  ... and {d.Count - MaxShownDiffs} more");
        return new FileResult(sb.ToString(), false, n, d.Count);
    }

    static async Task<JsonObject?> RunJson(string tool, string[] args, int timeoutMs, List<string> d)
    {
        string what = args[0];
        await ChildGate.WaitAsync();
        try
        {
            var psi = new ProcessStartInfo(tool)
            {
                RedirectStandardOutput = true,
                RedirectStandardError = true,
                RedirectStandardInput = true,
                UseShellExecute = false,
            };
            foreach (var a in args)
                psi.ArgumentList.Add(a);
            Process p;
            try
            {
                p = Process.Start(psi) ?? throw new InvalidOperationException("Process.Start returned null");
            }
            catch (Exception e)
            {
                d.Add($"{what}: cannot start {tool}: {e.Message}");
                return null;
            }
            using (p)
            {
                p.StandardInput.Close();
                var stdout = new MemoryStream();
                var outTask = p.StandardOutput.BaseStream.CopyToAsync(stdout);
                var errTask = p.StandardError.ReadToEndAsync();
                bool timedOut = false;
                using (var cts = new CancellationTokenSource(timeoutMs))
                {
                    try
                    {
                        await p.WaitForExitAsync(cts.Token);
                    }
                    catch (OperationCanceledException)
                    {
                        timedOut = true;
                        try { p.Kill(entireProcessTree: true); } catch (InvalidOperationException) { }
                        await p.WaitForExitAsync();
                    }
                }
                await outTask;
                string stderr = await errTask;
                if (timedOut)
                {
                    d.Add($"{what}: timed out after {timeoutMs / 1000} s");
                    return null;
                }
                if (p.ExitCode != 0)
                {
                    d.Add($"{what}: exit code {p.ExitCode}: {FirstLines(stderr)}");
                    return null;
                }
                try
                {
                    var node = JsonNode.Parse(stdout.ToArray());
                    if (node is JsonObject o)
                        return o;
                    d.Add($"{what}: output is not a JSON object");
                }
                catch (Exception e)
                {
                    d.Add($"{what}: output is not valid JSON: {e.Message}");
                }
                return null;
            }
        }
        finally
        {
            ChildGate.Release();
        }
    }

    static string FirstLines(string s)
    {
        var lines = s.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        if (lines.Length == 0)
            return "(no stderr)";
        string r = string.Join(" | ", lines.Take(3));
        return lines.Length > 3 ? r + " | ..." : r;
    }

    // ---- value comparison ----------------------------------------------------------------------

    /// <summary>Canonical text of a JSON value, so that e.g. 8 and 8.0 compare equal.</summary>
    static string Canon(JsonNode? n)
    {
        if (n is null)
            return "null";
        switch (n.GetValueKind())
        {
            case JsonValueKind.Number:
                string t = n.ToJsonString();
                return decimal.TryParse(t, NumberStyles.Float, CultureInfo.InvariantCulture, out var v)
                    ? (v / 1.000000000000000000000000000000000m).ToString(CultureInfo.InvariantCulture)
                    : t;
            case JsonValueKind.String:
                return "s:" + n.GetValue<string>();
            default:
                return n.ToJsonString();
        }
    }

    static void Field(JsonObject ours, JsonObject srm, string key, string where, List<string> d)
    {
        bool have = ours.TryGetPropertyValue(key, out var o);
        var s = srm[key];
        if (!have)
            d.Add($"{where}{key} missing in ours (srm={Program.Show(s)})");
        else if (!Same(o, s))
            d.Add($"{where}{key} ours={Program.Show(o)} srm={Program.Show(s)}");
    }

    /// <summary>
    /// Canon(a) == Canon(b), without Canon's allocations in the common cases: two strings are the
    /// same when their values are; two numbers spelled alike are the same (Canon is a function of
    /// the spelling). Anything else goes through Canon.
    /// </summary>
    static long? Integer(JsonNode n)
    {
        var v = (JsonValue)n;
        if (v.TryGetValue(out long l))
            return l;
        if (v.TryGetValue(out int i))
            return i;
        if (v.TryGetValue(out uint u))
            return u;
        return null;
    }

    static bool Same(JsonNode? a, JsonNode? b)
    {
        if (a is JsonValue && b is JsonValue)
        {
            var ka = a.GetValueKind();
            if (ka == b.GetValueKind())
            {
                if (ka == JsonValueKind.String)
                    return a.GetValue<string>() == b.GetValue<string>();
                if (ka == JsonValueKind.Number && Integer(a) is long x && Integer(b) is long y)
                    return x == y; // integers: Canon's text is the same exactly when the values are
                if (ka == JsonValueKind.Number && a.ToJsonString() == b.ToJsonString())
                    return true;
            }
        }
        return Canon(a) == Canon(b);
    }

    static readonly System.Text.RegularExpressions.Regex TokenFormat = new("^0x[0-9A-F]{8}$");

    static uint? ParseToken(JsonNode? n)
    {
        if (n is null || n.GetValueKind() != JsonValueKind.String)
            return null;
        string s = n.GetValue<string>();
        if (s.StartsWith("0x", StringComparison.OrdinalIgnoreCase) &&
            uint.TryParse(s.AsSpan(2), NumberStyles.HexNumber, CultureInfo.InvariantCulture, out uint v))
            return v;
        return null;
    }

    // ---- dump ----------------------------------------------------------------------------------

    static readonly string[] BodyFields = ["codeSize", "maxStack", "localsToken", "initLocals", "ehClauses", "instructions"];

    static void CompareDump(JsonObject ours, JsonObject srm, List<string> d)
    {
        if (srm["assemblyError"] == null)
            Field(ours, srm, "assembly", "", d);
        if (srm["mvidError"] == null)
            Field(ours, srm, "mvid", "", d);

        if (ours["methods"] is not JsonArray ourMethods)
        {
            d.Add("dump: no \"methods\" array");
            return;
        }

        // ours, by token; check format and order on the way
        var byToken = new Dictionary<uint, JsonObject>();
        uint last = 0;
        bool orderReported = false;
        foreach (var n in ourMethods)
        {
            if (n is not JsonObject m)
            {
                d.Add("dump: a methods entry is not an object");
                continue;
            }
            var tn = m["token"];
            uint? tok = ParseToken(tn);
            if (tok == null)
            {
                d.Add($"dump: method with bad token {Program.Show(tn)}");
                continue;
            }
            if (!TokenFormat.IsMatch(tn!.GetValue<string>()))
                d.Add($"method {Facts.Token(tok.Value)}: token spelled {Program.Show(tn)}");
            if (!byToken.TryAdd(tok.Value, m))
            {
                d.Add($"method {Facts.Token(tok.Value)}: listed twice");
                continue;
            }
            if (tok.Value <= last && !orderReported)
            {
                d.Add($"methods not in token order ({Facts.Token(tok.Value)} after {Facts.Token(last)})");
                orderReported = true;
            }
            last = tok.Value;
        }

        foreach (var sn in (JsonArray)srm["methods"]!)
        {
            var s = (JsonObject)sn!;
            uint tok = ParseToken(s["token"])!.Value;
            string label = $"method {Facts.Token(tok)} {s["name"]?.GetValue<string>()}";
            if (s["rowError"] != null)
            {
                d.Add($"{label}: srm cannot read the MethodDef row ({s["rowError"]}); ours {(byToken.ContainsKey(tok) ? "lists" : "omits")} it");
                byToken.Remove(tok);
                continue;
            }
            if (!byToken.Remove(tok, out var o))
            {
                d.Add($"missing method {Facts.Token(tok)} {s["name"]?.GetValue<string>()}");
                continue;
            }
            CompareMethod(o, s, label + ": ", d);
        }
        foreach (var (tok, o) in byToken.OrderBy(kv => kv.Key))
            d.Add($"extra method {Facts.Token(tok)} {o["name"]?.ToString()} (srm: no IL body or no such row)");
    }

    static void CompareMethod(JsonObject o, JsonObject s, string where, List<string> d)
    {
        if (s["nameError"] == null)
            Field(o, s, "name", where, d);
        Field(o, s, "rva", where, d);

        bool srmError = s.ContainsKey("error");
        bool oursError = o.ContainsKey("error");
        if (srmError && oursError)
            return;
        if (srmError)
        {
            d.Add($"{where}srm cannot read the body ({s["error"]}) but ours prints one");
            return;
        }
        if (oursError)
        {
            d.Add($"{where}ours error={Program.Show(o["error"])} but srm reads the body");
            return;
        }

        if (s.ContainsKey("sequencePointsError"))
        {
            if (!o.ContainsKey("sequencePointsError"))
                d.Add($"{where}srm cannot read the sequence points ({s["sequencePointsError"]}) but ours lists them");
        }
        else if (s.ContainsKey("sequencePoints") || o.ContainsKey("sequencePoints"))
        {
            Field(o, s, "sequencePoints", where, d);
        }
        foreach (var f in BodyFields)
        {
            if (f == "ehClauses")
                CompareClauses(o, s, where, d);
            else if (f == "instructions" && s["ilError"] != null)
                d.Add($"{where}srm finds the IL undecodable ({s["ilError"]}) but ours lists {Count(o["instructions"])} instructions");
            else if (f == "instructions")
                CompareInstructions(o, s, where, d);
            else
                Field(o, s, f, where, d);
        }
    }

    static string Count(JsonNode? n) => n is JsonArray a ? a.Count.ToString(CultureInfo.InvariantCulture) : Program.Show(n);

    /// <summary>Operand members the oracle decides for itself, and the operand kinds that have them.</summary>
    static readonly (string key, Func<string, bool> kinds)[] OperandKeys =
    [
        ("token", k => k is "InlineField" or "InlineMethod" or "InlineSig" or "InlineString" or "InlineTok" or "InlineType"),
        ("target", k => k is "ShortInlineBrTarget" or "InlineBrTarget"),
        ("targets", k => k is "InlineSwitch"),
    ];

    const int MaxInstructionDiffs = 3;

    /// <summary>
    /// Instruction by instruction: offset and opcode; the operand's presence, and its text where
    /// the oracle can write it (numbers, variables, branch targets), its value for float constants;
    /// token, target and targets exactly when the operand is one, and equal to SRM's.
    /// </summary>
    static void CompareInstructions(JsonObject o, JsonObject s, string where, List<string> d)
    {
        var si = (JsonArray)s["instructions"]!;
        if (o["instructions"] is not JsonArray oi)
        {
            d.Add($"{where}instructions ours={Program.Show(o["instructions"])} srm lists {si.Count}");
            return;
        }
        if (oi.Count != si.Count)
            d.Add($"{where}instructions count ours={oi.Count} srm={si.Count}");
        int shown = 0;
        for (int i = 0; i < Math.Min(oi.Count, si.Count) && shown < MaxInstructionDiffs; i++)
        {
            var sin = (JsonObject)si[i]!;
            int before = d.Count;
            if (oi[i] is not JsonObject oin)
                d.Add(" is not an object");
            else
                CompareInstruction(oin, sin, "", d);
            if (d.Count > before)
            {
                // Every message starts with the instruction's place, written only when there is one
                // (most instructions have none, and the text costs more than the comparison).
                string w = $"{where}instructions[{i}] (IL_{sin["offset"]!.GetValue<int>():x4} {sin["opcode"]}).";
                for (int k = before; k < d.Count; k++)
                    d[k] = w + d[k];
                shown++;
            }
        }
    }

    static void CompareInstruction(JsonObject o, JsonObject s, string w, List<string> d)
    {
        Field(o, s, "offset", w, d);
        Field(o, s, "opcode", w, d);
        string kind = s["kind"]!.GetValue<string>();
        bool hasOperand = kind != "InlineNone";
        var operand = o["operand"];
        if (hasOperand != o.ContainsKey("operand"))
            d.Add($"{w}operand ours={Program.Show(operand)} but the {kind} operand is {(hasOperand ? "there" : "absent")}");
        else if (hasOperand && (operand?.GetValueKind() != JsonValueKind.String || operand.GetValue<string>().Length == 0))
            d.Add($"{w}operand ours={Program.Show(operand)}, not text");
        else if (s.ContainsKey("operand"))
            Field(o, s, "operand", w, d);
        else if (s["realBits"] is JsonNode bits)
            CompareReal(operand!.GetValue<string>(), bits.GetValue<string>(), w, d);
        foreach (var (key, kinds) in OperandKeys)
        {
            if (kinds(kind))
                Field(o, s, key, w, d);
            else if (o.ContainsKey(key))
                d.Add($"{w}{key} ours={Program.Show(o[key])} for a {kind} operand");
        }
        foreach (var (key, v) in o)
            if (key is not ("offset" or "opcode" or "operand" or "token" or "target" or "targets"))
                d.Add($"{w}{key} ours={Program.Show(v)} srm has no such key");
    }

    /// <summary>
    /// A float constant: the tool's text must read back as the very bits SRM read (shortest
    /// round-trip text), or list those bytes when the value is not finite, as ildasm does.
    /// </summary>
    static void CompareReal(string text, string bitsHex, string w, List<string> d)
    {
        byte[] bits = Convert.FromHexString(bitsHex);
        byte[]? ours = null;
        if (text.StartsWith('(') && text.EndsWith(')'))
        {
            try
            {
                ours = Convert.FromHexString(text[1..^1].Replace(" ", ""));
            }
            catch (FormatException)
            {
            }
        }
        else if (bits.Length == 4 && float.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out float f))
        {
            ours = BitConverter.GetBytes(f);
        }
        else if (bits.Length == 8 && double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out double v))
        {
            ours = BitConverter.GetBytes(v);
        }
        if (ours == null || !ours.AsSpan().SequenceEqual(bits))
            d.Add($"{w}operand ours={text} srm reads the bytes {bitsHex}");
    }

    static void CompareClauses(JsonObject o, JsonObject s, string where, List<string> d)
    {
        var sc = (JsonArray)s["ehClauses"]!;
        if (o["ehClauses"] is not JsonArray oc)
        {
            d.Add($"{where}ehClauses ours={Program.Show(o["ehClauses"])} srm has {sc.Count} clauses");
            return;
        }
        if (oc.Count != sc.Count)
        {
            d.Add($"{where}ehClauses count ours={oc.Count} srm={sc.Count}");
            return;
        }
        for (int i = 0; i < sc.Count; i++)
        {
            var scl = (JsonObject)sc[i]!;
            if (oc[i] is not JsonObject ocl)
            {
                d.Add($"{where}ehClauses[{i}] is not an object");
                continue;
            }
            string w = $"{where}ehClauses[{i}].";
            foreach (var (key, _) in scl)
                Field(ocl, scl, key, w, d);
            foreach (var (key, v) in ocl)
                if (!scl.ContainsKey(key))
                    d.Add($"{w}{key} ours={Program.Show(v)} srm has no such key");
        }
    }

    // ---- info ----------------------------------------------------------------------------------

    static void CompareInfo(JsonObject ours, JsonObject srm, List<string> d)
    {
        Field(ours, srm, "methodsWithBodies", "info: ", d);
        if (ours["tables"] is not JsonObject ot)
        {
            d.Add("info: no \"tables\" object");
            return;
        }
        var st = (JsonObject)srm["tables"]!;
        var names = new SortedSet<string>(StringComparer.Ordinal);
        foreach (var (k, _) in ot) names.Add(k);
        foreach (var (k, _) in st) names.Add(k);
        foreach (var k in names)
        {
            var ov = ot.TryGetPropertyValue(k, out var x) ? x : 0;
            var sv = st.TryGetPropertyValue(k, out var y) ? y : 0;
            if (!Same(ov, sv))
                d.Add($"table {k}: ours={Program.Show(ov)} srm={Program.Show(sv)}");
        }
    }
}
