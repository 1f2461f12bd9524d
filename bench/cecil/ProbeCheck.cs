// Checks an instrumented assembly with System.Reflection.Metadata, independently of both
// instrumenters: every IL body must decode into whole instructions, and the bodies that start
// with the count probe must use distinct slots and a max stack of at least 2, and an output with
// the helper type must have probes. The probe has two shapes: `ldsfld <CilInstrument>::counts;
// ldc.i4 slot; ldelema; call Interlocked::Increment; pop` on an int64[] (the peers' drivers, and
// cil-instrument for core libraries and .NET Framework-style modules), and `ldsfld counts;
// ldc.i4 slot*8; add; call Interlocked::Increment; pop` on a native int (cil-instrument's live
// counters since issue 20).
//
//   dotnet ProbeCheck.dll FILE...     prints "FILE: B bodies, P probed, ..." per file; exit 1 on a defect

using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Reflection.Emit;
using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using System.Reflection.PortableExecutable;

static class ProbeCheck
{
    // Operand size of every one- and two-byte opcode; -1 for switch, int.MinValue for none.
    static readonly Dictionary<int, int> OperandSize = BuildTable();

    static Dictionary<int, int> BuildTable()
    {
        var table = new Dictionary<int, int>();
        foreach (var f in typeof(OpCodes).GetFields(BindingFlags.Public | BindingFlags.Static))
        {
            var op = (OpCode)f.GetValue(null)!;
            int size = op.OperandType switch
            {
                OperandType.InlineNone => 0,
                OperandType.ShortInlineBrTarget or OperandType.ShortInlineI or OperandType.ShortInlineVar => 1,
                OperandType.InlineVar => 2,
                OperandType.InlineI8 or OperandType.InlineR => 8,
                OperandType.InlineSwitch => -1,
                _ => 4,
            };
            table[(ushort)op.Value] = size;
        }
        table[0xFE19] = 1;  // no. (ECMA-335 III.2.2), missing from OpCodes
        return table;
    }

    static int Main(string[] args)
    {
        int failures = 0;
        foreach (var path in args)
        {
            try
            {
                if (!Check(path))
                    ++failures;
            }
            catch (Exception e) when (e is BadImageFormatException or InvalidOperationException or IOException)
            {
                Console.WriteLine($"{path}: FAILED: {e.Message}");
                ++failures;
            }
        }
        return failures == 0 ? 0 : 1;
    }

    static bool Check(string path)
    {
        using var stream = File.OpenRead(path);
        using var pe = new PEReader(stream);
        var md = pe.GetMetadataReader();
        int bodies = 0, probed = 0, undecodable = 0, low_stack = 0;
        var slots = new HashSet<int>();
        int duplicates = 0;
        foreach (var handle in md.MethodDefinitions)
        {
            var method = md.GetMethodDefinition(handle);
            if (method.RelativeVirtualAddress == 0 || (method.ImplAttributes & MethodImplAttributes.CodeTypeMask) != MethodImplAttributes.IL)
                continue;
            ++bodies;
            var body = pe.GetMethodBody(method.RelativeVirtualAddress);
            var il = body.GetILBytes()!;
            if (!Decodes(il))
                ++undecodable;
            int? slot = ProbeSlot(md, il);
            if (slot is int s)
            {
                ++probed;
                if (!slots.Add(s))
                    ++duplicates;
                if (body.MaxStack < 2)
                    ++low_stack;
            }
        }
        bool helper = md.TypeDefinitions.Any(t => md.GetString(md.GetTypeDefinition(t).Name) == "<CilInstrument>");
        bool dense = probed == 0 || (slots.Min() == 0 && slots.Max() == probed - 1);
        bool good = undecodable == 0 && duplicates == 0 && low_stack == 0 && helper && dense && probed > 0;
        Console.WriteLine($"{path}: {bodies} bodies, {probed} probed, {undecodable} undecodable, {duplicates} duplicate slots, " +
                          $"{low_stack} with max stack < 2, slots 0..N-1: {(dense ? "yes" : "no")}, helper type: {(helper ? "yes" : "no")}" +
                          (good ? "" : "  FAILED"));
        return good;
    }

    static bool Decodes(byte[] il)
    {
        int i = 0;
        while (i < il.Length)
        {
            int code = il[i++];
            if (code == 0xFE)
            {
                if (i >= il.Length)
                    return false;
                code = 0xFE00 | il[i++];
            }
            if (!OperandSize.TryGetValue(code, out int size))
                return false;
            if (size == -1)
            {
                if (il.Length - i < 4)
                    return false;
                long n = BitConverter.ToUInt32(il, i);
                size = (int)Math.Min(4 + 4 * n, int.MaxValue);
            }
            if (il.Length - i < size)
                return false;
            i += size;
        }
        return true;
    }

    /// The counter slot when `il` starts with the probe, else null.
    static int? ProbeSlot(MetadataReader md, byte[] il)
    {
        int i = 0;
        int Token() { int t = BitConverter.ToInt32(il, i); i += 4; return t; }
        if (il.Length < 13 || il[i++] != 0x7E)
            return null;
        var field = MetadataTokens.EntityHandle(Token());
        if (field.Kind != HandleKind.FieldDefinition || md.GetString(md.GetFieldDefinition((FieldDefinitionHandle)field).Name) != "counts")
            return null;
        int slot;
        byte ldc = il[i++];
        if (ldc >= 0x15 && ldc <= 0x1E)
            slot = ldc - 0x16;
        else if (ldc == 0x1F)
            slot = (sbyte)il[i++];
        else if (ldc == 0x20 && il.Length - i >= 4)
            slot = Token();
        else
            return null;
        if (il.Length - i >= 7 && il[i] == 0x58)
        {
            // ldc.i4 slot*8; add: the native-int shape
            ++i;
            if (slot % 8 != 0)
                return null;
            slot /= 8;
        }
        else
        {
            if (il.Length - i < 11 || il[i++] != 0x8F)
                return null;
            Token();
        }
        if (il.Length - i < 6 || il[i++] != 0x28)
            return null;
        var callee = MetadataTokens.EntityHandle(Token());
        string name = callee.Kind switch
        {
            HandleKind.MethodDefinition => md.GetString(md.GetMethodDefinition((MethodDefinitionHandle)callee).Name),
            HandleKind.MemberReference => md.GetString(md.GetMemberReference((MemberReferenceHandle)callee).Name),
            _ => "",
        };
        if (name != "Increment" || il[i] != 0x26)
            return null;
        return slot;
    }
}
