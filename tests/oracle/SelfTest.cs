// `Oracle.dll selftest`: writes a small synthetic assembly with SRM's MetadataBuilder (odd IL,
// every prefix, switch, branches, float constants, tokens, all four EH clause kinds in fat and small form, a raw catch token with the
// top bit set, an invalid method header, undecodable IL, nested types three deep, a nested-class
// cycle, native/runtime-implemented methods) and checks the oracle's facts for it against
// hand-written expectations. It guards the oracle itself, not the C++ tool.

using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using System.Reflection.PortableExecutable;
using System.Text.Json.Nodes;

namespace CilInstrument.Oracle;

static class SelfTest
{
    static readonly Guid Mvid = new("0badc0de-1234-5678-9abc-def012345678");

    public static int Run()
    {
        string path = Path.Combine(Path.GetTempPath(), $"oracle-selftest-{Environment.ProcessId}.dll");
        try
        {
            File.WriteAllBytes(path, Build());
            var facts = Facts.Extract(path);
            var problems = new List<string>();
            Match(JsonNode.Parse(Expected()), facts, "", problems);
            foreach (var p in problems)
                Console.WriteLine("FAIL " + p);
            Console.WriteLine(problems.Count == 0 ? "selftest: OK" : $"selftest: {problems.Count} problems");
            if (problems.Count != 0)
                Console.WriteLine(facts.ToJsonString(new System.Text.Json.JsonSerializerOptions { WriteIndented = true }));
            return problems.Count == 0 ? 0 : 1;
        }
        finally
        {
            File.Delete(path);
        }
    }

    /// <summary>Structural match; the string "*" in the expectation matches any string or number.</summary>
    static void Match(JsonNode? want, JsonNode? got, string at, List<string> problems)
    {
        switch (want)
        {
            case JsonObject wo:
                if (got is not JsonObject go)
                {
                    problems.Add($"{at}: want an object, got {Program.Show(got)}");
                    return;
                }
                foreach (var (k, v) in wo)
                {
                    if (!go.ContainsKey(k))
                        problems.Add($"{at}.{k}: missing");
                    else
                        Match(v, go[k], $"{at}.{k}", problems);
                }
                foreach (var (k, v) in go)
                    if (!wo.ContainsKey(k))
                        problems.Add($"{at}.{k}: unexpected {Program.Show(v)}");
                return;
            case JsonArray wa:
                if (got is not JsonArray ga || ga.Count != wa.Count)
                {
                    problems.Add($"{at}: want {wa.Count} elements, got {Program.Show(got)}");
                    return;
                }
                for (int i = 0; i < wa.Count; i++)
                    Match(wa[i], ga[i], $"{at}[{i}]", problems);
                return;
            default:
                if (want is JsonValue wv && wv.TryGetValue(out string? s) && s == "*" && got is JsonValue)
                    return;
                if (!JsonNode.DeepEquals(want, got))
                    problems.Add($"{at}: want {Program.Show(want)}, got {Program.Show(got)}");
                return;
        }
    }

    /// <summary>n-1 nops and a ret, as the oracle lists them.</summary>
    static string NopList(int n) =>
        "[" + string.Join(", ", Enumerable.Range(0, n).Select(i =>
            $$"""{"offset": {{i}}, "opcode": "{{(i < n - 1 ? "nop" : "ret")}}", "kind": "InlineNone"}""")) + "]";

    static string Expected() => $$"""
    {
      "assembly": "SelfTest",
      "mvid": "0badc0de-1234-5678-9abc-def012345678",
      "tables": {"Module": 1, "TypeRef": 1, "TypeDef": 6, "MethodDef": 13, "StandAloneSig": 1,
                 "Assembly": 1, "AssemblyRef": 1, "NestedClass": 4},
      "methodsWithBodies": 9,
      "methods": [
        {"token": "0x06000001", "name": "Ns.Outer::WithEh", "rva": "*", "codeSize": 21, "maxStack": 5,
         "localsToken": "0x11000001", "initLocals": true,
         "ehClauses": [
           {"kind": "catch", "tryOffset": 0, "tryLength": 2, "handlerOffset": 2, "handlerLength": 2, "catchType": "0x01000001"},
           {"kind": "filter", "tryOffset": 4, "tryLength": 2, "handlerOffset": 8, "handlerLength": 2, "filterOffset": 6},
           {"kind": "finally", "tryOffset": 10, "tryLength": 2, "handlerOffset": 12, "handlerLength": 2},
           {"kind": "fault", "tryOffset": 14, "tryLength": 2, "handlerOffset": 16, "handlerLength": 2}],
         "instructions": {{NopList(21)}}},
        {"token": "0x06000002", "name": "Ns.Outer::SmallEh", "rva": "*", "codeSize": 10, "maxStack": 3,
         "localsToken": null, "initLocals": false,
         "ehClauses": [{"kind": "finally", "tryOffset": 0, "tryLength": 1, "handlerOffset": 1, "handlerLength": 1}],
         "instructions": {{NopList(10)}}},
        {"token": "0x06000006", "name": "Ns.Outer/Inner::BadOpcode", "rva": "*", "codeSize": 3, "maxStack": 8,
         "localsToken": null, "initLocals": false, "ehClauses": [], "instructions": null, "ilError": "*"},
        {"token": "0x06000007", "name": "Ns.Outer/Inner::Truncated", "rva": "*", "codeSize": 4, "maxStack": 8,
         "localsToken": null, "initLocals": false, "ehClauses": [], "instructions": null, "ilError": "*"},
        {"token": "0x06000008", "name": "Ns.Outer/Inner::BadHeader", "rva": "*", "error": "*"},
        {"token": "0x06000009", "name": "Ns.Outer/Inner::RawCatch", "rva": "*", "codeSize": 2, "maxStack": 2,
         "localsToken": null, "initLocals": false,
         "ehClauses": [{"kind": "catch", "tryOffset": 0, "tryLength": 1, "handlerOffset": 1, "handlerLength": 1, "catchType": "0x81000001"}],
         "instructions": {{NopList(2)}}},
        {"token": "0x0600000A", "name": "Ns.Outer/Inner/Sub.Deep::Prefixes", "rva": "*", "codeSize": 52, "maxStack": 8,
         "localsToken": null, "initLocals": false, "ehClauses": [], "instructions": [
           {"offset": 0, "opcode": "no.", "kind": "ShortInlineI", "operand": "1"},
           {"offset": 3, "opcode": "unaligned.", "kind": "ShortInlineI", "operand": "4"},
           {"offset": 6, "opcode": "volatile.", "kind": "InlineNone"},
           {"offset": 8, "opcode": "tail.", "kind": "InlineNone"},
           {"offset": 10, "opcode": "constrained.", "kind": "InlineType", "token": "0x02000001"},
           {"offset": 16, "opcode": "readonly.", "kind": "InlineNone"},
           {"offset": 18, "opcode": "switch", "kind": "InlineSwitch", "targets": [31, 31], "operand": "(IL_001f, IL_001f)"},
           {"offset": 31, "opcode": "ldc.i4", "kind": "InlineI", "operand": "1"},
           {"offset": 36, "opcode": "ldc.i8", "kind": "InlineI8", "operand": "0x807060504030201"},
           {"offset": 45, "opcode": "ldarg", "kind": "InlineVar", "operand": "A_0"},
           {"offset": 49, "opcode": "ldarg.s", "kind": "ShortInlineVar", "operand": "A_0"},
           {"offset": 51, "opcode": "ret", "kind": "InlineNone"}]},
        {"token": "0x0600000B", "name": "?::Cycle", "nameError": "*", "rva": "*", "codeSize": 1, "maxStack": 8,
         "localsToken": null, "initLocals": false, "ehClauses": [], "instructions": {{NopList(1)}}},
        {"token": "0x0600000D", "name": "?::Operands", "nameError": "*", "rva": "*", "codeSize": 38, "maxStack": 8,
         "localsToken": null, "initLocals": false, "ehClauses": [], "instructions": [
           {"offset": 0, "opcode": "ldc.i4.s", "kind": "ShortInlineI", "operand": "-2"},
           {"offset": 2, "opcode": "br.s", "kind": "ShortInlineBrTarget", "target": 6, "operand": "IL_0006"},
           {"offset": 4, "opcode": "ldloc.s", "kind": "ShortInlineVar", "operand": "V_3"},
           {"offset": 6, "opcode": "ldc.r4", "kind": "ShortInlineR", "realBits": "0000C03F"},
           {"offset": 11, "opcode": "ldc.r8", "kind": "InlineR", "realBits": "000000000000F87F"},
           {"offset": 20, "opcode": "beq", "kind": "InlineBrTarget", "target": 5, "operand": "IL_0005"},
           {"offset": 25, "opcode": "ldstr", "kind": "InlineString", "token": "0x70000001"},
           {"offset": 30, "opcode": "call", "kind": "InlineMethod", "token": "0x06000001"},
           {"offset": 35, "opcode": "starg.s", "kind": "ShortInlineVar", "operand": "A_1"},
           {"offset": 37, "opcode": "ret", "kind": "InlineNone"}]}
      ]
    }
    """;

    static byte[] Build()
    {
        var mb = new MetadataBuilder();
        var il = new BlobBuilder();
        var bodies = new MethodBodyStreamEncoder(il);
        StringHandle S(string s) => mb.GetOrAddString(s);

        mb.AddModule(0, S("SelfTest.dll"), mb.GetOrAddGuid(Mvid), default, default);
        mb.AddAssembly(S("SelfTest"), new Version(1, 0, 0, 0), default, default, 0, AssemblyHashAlgorithm.None);
        var runtime = mb.AddAssemblyReference(S("System.Runtime"), new Version(10, 0, 0, 0), default, default, 0, default);
        var objectRef = mb.AddTypeReference(runtime, S("System"), S("Object"));

        var localsBlob = new BlobBuilder();
        new BlobEncoder(localsBlob).LocalVariableSignature(1).AddVariable().Type().Int32();
        var locals = mb.AddStandaloneSignature(mb.GetOrAddBlob(localsBlob));

        var sigBlob = new BlobBuilder();
        new BlobEncoder(sigBlob).MethodSignature().Parameters(0, r => r.Void(), _ => { });
        var sig = mb.GetOrAddBlob(sigBlob);

        int Tiny(params byte[] code)
        {
            var body = bodies.AddMethodBody(code.Length);
            new BlobWriter(body.Instructions).WriteBytes(code);
            return body.Offset;
        }
        int Raw(params byte[] bytes)
        {
            il.Align(4);
            int offset = il.Count;
            il.WriteBytes(bytes);
            return offset;
        }
        byte[] Nops(int n) => Enumerable.Repeat((byte)0x00, n - 1).Append((byte)0x2A).ToArray();

        // 1 WithEh: fat header, init locals, local signature, fat EH table with all four kinds
        var withEh = bodies.AddMethodBody(21, maxStack: 5, exceptionRegionCount: 4, hasSmallExceptionRegions: false,
            localVariablesSignature: locals, attributes: MethodBodyAttributes.InitLocals);
        new BlobWriter(withEh.Instructions).WriteBytes(Nops(21));
        withEh.ExceptionRegions.AddCatch(0, 2, 2, 2, objectRef);
        withEh.ExceptionRegions.AddFilter(4, 2, 8, 2, 6);
        withEh.ExceptionRegions.AddFinally(10, 2, 12, 2);
        withEh.ExceptionRegions.AddFault(14, 2, 16, 2);

        // 2 SmallEh: fat header (because of EH), small EH table
        var smallEh = bodies.AddMethodBody(10, maxStack: 3, exceptionRegionCount: 1, hasSmallExceptionRegions: true,
            localVariablesSignature: default, attributes: MethodBodyAttributes.None);
        new BlobWriter(smallEh.Instructions).WriteBytes(Nops(10));
        smallEh.ExceptionRegions.AddFinally(0, 1, 1, 1);

        int ret = Tiny(0x2A);
        int badOpcode = Tiny(0x00, 0xA6, 0x2A);          // 0xA6 is not an opcode
        int truncated = Tiny(0x00, 0x20, 0x01, 0x02);     // ldc.i4 with 2 of its 4 operand bytes
        int badHeader = Raw(0x01, 0x00, 0x00, 0x00);      // neither tiny (..10) nor fat (..11)
        int rawCatch = Raw(
            0x0B, 0x30, 0x02, 0x00,                       // fat | more sects, header size 3; max stack 2
            0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, // code size 2; no locals
            0x00, 0x2A, 0x00, 0x00,                       // nop, ret; pad to 4
            0x41, 0x1C, 0x00, 0x00,                       // EH table, fat, 28 bytes
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, // catch, try 0+1
            0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x81); // handler 1+1, class 0x81000001
        int prefixes = Tiny(
            0xFE, 0x19, 0x01,                             // no. typecheck
            0xFE, 0x12, 0x04,                             // unaligned. 4
            0xFE, 0x13,                                   // volatile.
            0xFE, 0x14,                                   // tail.
            0xFE, 0x16, 0x01, 0x00, 0x00, 0x02,           // constrained. 0x02000001
            0xFE, 0x1E,                                   // readonly.
            0x45, 0x02, 0x00, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, // switch (2 targets)
            0x20, 0x01, 0x00, 0x00, 0x00,                 // ldc.i4 1
            0x21, 1, 2, 3, 4, 5, 6, 7, 8,                 // ldc.i8
            0xFE, 0x09, 0x00, 0x00,                       // ldarg 0
            0x0E, 0x00,                                   // ldarg.s 0
            0x2A);                                        // ret
        int operands = Tiny(
            0x1F, 0xFE,                                   // ldc.i4.s -2
            0x2B, 0x02,                                   // br.s IL_0006
            0x11, 0x03,                                   // ldloc.s 3
            0x22, 0x00, 0x00, 0xC0, 0x3F,                 // ldc.r4 1.5
            0x23, 0, 0, 0, 0, 0, 0, 0xF8, 0x7F,           // ldc.r8 NaN
            0x3B, 0xEC, 0xFF, 0xFF, 0xFF,                 // beq IL_0005 (inside an instruction)
            0x72, 0x01, 0x00, 0x00, 0x70,                 // ldstr 0x70000001
            0x28, 0x01, 0x00, 0x00, 0x06,                 // call 0x06000001
            0x10, 0x01,                                   // starg.s 1
            0x2A);                                        // ret

        void Method(string name, int bodyOffset, MethodImplAttributes impl = MethodImplAttributes.IL,
            MethodAttributes attrs = MethodAttributes.Public | MethodAttributes.Static)
            => mb.AddMethodDefinition(attrs, impl, S(name), sig, bodyOffset, default);

        Method("WithEh", withEh.Offset);                                  // 1
        Method("SmallEh", smallEh.Offset);                                // 2
        Method("Abstract", -1, attrs: MethodAttributes.Public | MethodAttributes.Virtual | MethodAttributes.Abstract); // 3: RVA 0
        Method("RuntimeImpl", ret, MethodImplAttributes.Runtime);         // 4: code type 3
        Method("NativeImpl", ret, MethodImplAttributes.Native);           // 5: code type 1
        Method("BadOpcode", badOpcode);                                   // 6
        Method("Truncated", truncated);                                   // 7
        Method("BadHeader", badHeader);                                   // 8
        Method("RawCatch", rawCatch);                                     // 9
        Method("Prefixes", prefixes);                                     // 10
        Method("Cycle", ret);                                             // 11
        Method("Unused", -1, attrs: MethodAttributes.Public | MethodAttributes.Virtual | MethodAttributes.Abstract); // 12
        Method("Operands", operands);                                     // 13 (of B, in the cycle)

        var first = MetadataTokens.FieldDefinitionHandle(1);
        MethodDefinitionHandle M(int row) => MetadataTokens.MethodDefinitionHandle(row);
        mb.AddTypeDefinition(0, default, S("<Module>"), default, first, M(1));
        var outer = mb.AddTypeDefinition(TypeAttributes.Public, S("Ns"), S("Outer"), objectRef, first, M(1));
        var inner = mb.AddTypeDefinition(TypeAttributes.NestedPublic, default, S("Inner"), objectRef, first, M(6));
        var deep = mb.AddTypeDefinition(TypeAttributes.NestedPublic, S("Sub"), S("Deep"), objectRef, first, M(10));
        var a = mb.AddTypeDefinition(TypeAttributes.NestedPublic, default, S("A"), objectRef, first, M(11));
        var b = mb.AddTypeDefinition(TypeAttributes.NestedPublic, default, S("B"), objectRef, first, M(12));
        mb.AddNestedType(inner, outer);
        mb.AddNestedType(deep, inner);
        mb.AddNestedType(a, b);
        mb.AddNestedType(b, a);

        var pe = new ManagedPEBuilder(PEHeaderBuilder.CreateLibraryHeader(), new MetadataRootBuilder(mb), il);
        var image = new BlobBuilder();
        pe.Serialize(image);
        return image.ToArray();
    }
}
