// The count job of `cil-instrument IN -o OUT` done with Mono.Cecil 0.11, for bench/compare.sh.
//
//   mono CecilCount.exe IN OUT [--immediate] [--symbols] [--iterations N] [--skip-types PREFIX]...
//                                                         (or: dotnet CecilCount.exe IN OUT ...)
//
// Built two ways: by bench/cecil/build.sh with mcs against the net40 Cecil of Mono's GAC (the
// macro passes below), and by bench/build_peers.sh as a .NET console program published with
// ReadyToRun against Cecil 0.11.6's netstandard2.0 build from NuGet with ROCKS defined (Rocks'
// own SimplifyMacros/OptimizeMacros). --iterations N does the whole job N times in one process
// and prints each, the last being the peer's warm case. --skip-types PREFIX leaves the methods of
// the types whose full name starts with PREFIX alone, as our --exclude 'PREFIX*' does (CoreLib's
// runtime helpers, which the probe itself reaches: see bench/README.md).
//
// Like a typical Cecil-based tool (coverlet's Instrumenter): ReadModule with default
// ReaderParameters (ReadingMode.Deferred; --immediate for Immediate), no symbols (--symbols:
// ReadSymbols with the default provider, which must find the input's PDB, embedded or beside it,
// and WriteSymbols, which writes OUT's PDB, embedded or beside it, as the input had it), a
// DefaultAssemblyResolver searching only the input's directory (Cecil resolves lazily, and only
// where the writer must, e.g. the underlying type of an enum constant declared elsewhere).
// Every method with an IL body gets, before its first instruction,
//     ldsfld int64[] <CilInstrument>::counts; ldc.i4 <slot>; ldelema int64;
//     call int64 Interlocked::Increment(int64&); pop
// through ILProcessor.InsertBefore, between SimplifyMacros and OptimizeMacros; Cecil recomputes
// max stack when it writes each body. Debian ships Mono.Cecil without Mono.Cecil.Rocks, so the
// two macro passes are written out below with Rocks' semantics (MethodBodyRocks).
// The helper's .cctor allocates the counters and stores one string naming every counted method
// (token and Ns.Type::Method), the stand-in for the text our tool embeds for its counts file; it
// does not hook ProcessExit or write the file (see bench/README.md). A ReadyToRun input is
// made IL-only first, as our tool does, since Cecil refuses to write it otherwise, and its
// machine (0xFD1D on Linux x64: AMD64 xor the OS) becomes the plain one again, else the runtime
// refuses the IL-only output. Interlocked is referenced where the runtime finds it: the core
// library itself, System.Private.CoreLib for .NET modules (a System.Runtime-based module gets a
// reference to it, as our tool does: System.Runtime's facade does not forward Interlocked), else
// mscorlib or netstandard, whichever the module uses.

using System;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Text;
using Mono.Cecil;
using Mono.Cecil.Cil;
#if ROCKS
using Mono.Cecil.Rocks;
#endif

static class CecilCount
{
    /// Counts the calls Cecil makes to the resolver while instrumenting and writing.
    sealed class CountingResolver : DefaultAssemblyResolver
    {
        public int Resolved;

        public override AssemblyDefinition Resolve(AssemblyNameReference name)
        {
            ++Resolved;
            return base.Resolve(name);
        }
    }

    static readonly System.Collections.Generic.List<string> skip = new System.Collections.Generic.List<string>();

    static int Main(string[] args)
    {
        var options = args.Skip(2).ToList();
        int iterations = 1;
        int at = options.IndexOf("--iterations");
        if (at >= 0 && at + 1 < options.Count && int.TryParse(options[at + 1], out iterations) && iterations > 0)
            options.RemoveRange(at, 2);
        while ((at = options.IndexOf("--skip-types")) >= 0 && at + 1 < options.Count)
        {
            skip.Add(options[at + 1]);
            options.RemoveRange(at, 2);
        }
        if (args.Length < 2 || iterations < 1 || options.Any(o => o != "--immediate" && o != "--symbols"))
        {
            Console.Error.WriteLine("usage: CecilCount IN OUT [--immediate] [--symbols] [--iterations N] [--skip-types PREFIX]...");
            return 2;
        }
        string input = args[0], output = args[1];
        var mode = options.Contains("--immediate") ? ReadingMode.Immediate : ReadingMode.Deferred;
        bool symbols = options.Contains("--symbols");
        for (int iteration = 1; iteration <= iterations; ++iteration)
        {
            if (iterations > 1)
                Console.Write("iteration {0}: ", iteration);
            Run(input, output, mode, symbols);
        }
        return 0;
    }

    static void Run(string input, string output, ReadingMode mode, bool symbols)
    {
        var clock = Stopwatch.StartNew();

        using (var resolver = new CountingResolver())
        {
            resolver.AddSearchDirectory(Path.GetDirectoryName(Path.GetFullPath(input)));
            var parameters = new ReaderParameters { ReadingMode = mode, ReadSymbols = symbols, AssemblyResolver = resolver };
            if (symbols)
                parameters.SymbolReaderProvider = new DefaultSymbolReaderProvider(throwIfNoSymbol: true);
            using (var module = ModuleDefinition.ReadModule(input, parameters))
            {
                long read_ms = clock.ElapsedMilliseconds;
                var types = module.GetTypes().ToList();  // every type, nested ones included
                var int64 = module.TypeSystem.Int64;
                var helper = new TypeDefinition("", "<CilInstrument>",
                                                TypeAttributes.NotPublic | TypeAttributes.Abstract | TypeAttributes.Sealed,
                                                module.TypeSystem.Object);
                var counts = new FieldDefinition("counts", FieldAttributes.Assembly | FieldAttributes.Static, new ArrayType(int64));
                var names = new FieldDefinition("names", FieldAttributes.Assembly | FieldAttributes.Static, module.TypeSystem.String);
                helper.Fields.Add(counts);
                helper.Fields.Add(names);
                var increment = InterlockedIncrement(module);

                var text = new StringBuilder();
                int slot = 0;
                foreach (var type in types)
                {
                    if (skip.Any(prefix => type.FullName.StartsWith(prefix, StringComparison.Ordinal)))
                        continue;
                    foreach (var method in type.Methods)
                    {
                        if (!method.HasBody || method.RVA == 0)
                            continue;
                        var body = method.Body;
                        if (body.Instructions.Count == 0)
                            continue;
                        Simplify(body);
                        var il = body.GetILProcessor();
                        var first = body.Instructions[0];
                        il.InsertBefore(first, il.Create(OpCodes.Ldsfld, counts));
                        il.InsertBefore(first, il.Create(OpCodes.Ldc_I4, slot));
                        il.InsertBefore(first, il.Create(OpCodes.Ldelema, int64));
                        il.InsertBefore(first, il.Create(OpCodes.Call, increment));
                        il.InsertBefore(first, il.Create(OpCodes.Pop));
                        Optimize(body);
                        text.Append("0x").Append(method.MetadataToken.ToUInt32().ToString("X8")).Append(' ')
                            .Append(type.FullName).Append("::").Append(method.Name).Append('\n');
                        ++slot;
                    }
                }

                var cctor = new MethodDefinition(".cctor",
                                                 MethodAttributes.Private | MethodAttributes.Static | MethodAttributes.HideBySig |
                                                     MethodAttributes.SpecialName | MethodAttributes.RTSpecialName,
                                                 module.TypeSystem.Void);
                var c = cctor.Body.GetILProcessor();
                c.Emit(OpCodes.Ldc_I4, slot);
                c.Emit(OpCodes.Newarr, int64);
                c.Emit(OpCodes.Stsfld, counts);
                c.Emit(OpCodes.Ldstr, text.ToString());
                c.Emit(OpCodes.Stsfld, names);
                c.Emit(OpCodes.Ret);
                Optimize(cctor.Body);
                helper.Methods.Add(cctor);
                module.Types.Add(helper);

                // As cil-instrument does: a ReadyToRun image (ILONLY clear in .NET's CoreLib) becomes
                // IL-only, else Cecil refuses it as mixed-mode; Cecil drops the native code itself.
                module.Attributes = (module.Attributes | ModuleAttributes.ILOnly) & ~ModuleAttributes.ILLibrary;
                module.Architecture = PlainMachine(module.Architecture);
                long rewrite_ms = clock.ElapsedMilliseconds - read_ms;
                module.Write(output, new WriterParameters { WriteSymbols = symbols });
                long write_ms = clock.ElapsedMilliseconds - read_ms - rewrite_ms;
                string runtime = Type.GetType("Mono.Runtime") != null ? "mono" : ".NET " + Environment.Version;
                Console.WriteLine("{0}: instrumented {1} methods (Cecil {2}, {3}, {4} reading{10}) in {5} ms " +
                                  "(read {6}, rewrite {7}, write {8}); {9} resolver calls",
                                  output, slot, CecilVersion(), runtime, mode,
                                  clock.ElapsedMilliseconds, read_ms, rewrite_ms, write_ms, resolver.Resolved,
                                  symbols ? ", symbols read and written" : "");
            }
        }
    }

    static string CecilVersion()
    {
        var assembly = typeof(ModuleDefinition).Assembly;
        var informational = assembly.GetCustomAttributes(typeof(System.Reflection.AssemblyInformationalVersionAttribute), false)
                                .OfType<System.Reflection.AssemblyInformationalVersionAttribute>().FirstOrDefault();
        string version = informational != null ? informational.InformationalVersion : assembly.GetName().Version.ToString();
#if ROCKS
        return version + " netstandard2.0 from NuGet, with Rocks";
#else
        return version;
#endif
    }

#if ROCKS
    static void Simplify(MethodBody body) { body.SimplifyMacros(); }
    static void Optimize(MethodBody body) { body.OptimizeMacros(); }
#else
    static void Simplify(MethodBody body) { Macros.Simplify(body); }
    static void Optimize(MethodBody body) { Macros.Optimize(body); }
#endif

    /// A ReadyToRun image's machine is the plain one xor an OS value (Linux 0x7B79, Apple 0x4644,
    /// FreeBSD 0xADC4, NetBSD 0x1993, SunOS 0x1992); an IL-only image must carry the plain one.
    static TargetArchitecture PlainMachine(TargetArchitecture machine)
    {
        foreach (int os in new[] { 0x7B79, 0x4644, 0xADC4, 0x1993, 0x1992 })
        {
            int plain = (int)machine ^ os;
            if (plain == 0x014C || plain == 0x8664 || plain == 0xAA64 || plain == 0x01C4)
                return (TargetArchitecture)plain;
        }
        return machine;
    }

    /// Interlocked.Increment(ref long) where the runtime finds it: the module's own definition
    /// when it is the core library; else on System.Private.CoreLib for a .NET module (referenced,
    /// or added as our tool adds it); else on the core library Cecil names (mscorlib, netstandard).
    /// Built as a reference, so nothing is resolved.
    static MethodReference InterlockedIncrement(ModuleDefinition module)
    {
        var own = module.GetType("System.Threading", "Interlocked");
        if (own != null && module.AssemblyReferences.Count == 0)
        {
            return own.Methods.First(m => m.Name == "Increment" && m.Parameters.Count == 1 &&
                                          m.ReturnType.MetadataType == MetadataType.Int64 &&
                                          m.Parameters[0].ParameterType is ByReferenceType r &&
                                          r.ElementType.MetadataType == MetadataType.Int64);
        }
        IMetadataScope scope = module.AssemblyReferences.FirstOrDefault(r => r.Name == "System.Private.CoreLib");
        if (scope == null && module.AssemblyReferences.Any(r => r.Name == "System.Runtime"))
        {
            var corelib = new AssemblyNameReference("System.Private.CoreLib", new Version(4, 0, 0, 0))
            {
                PublicKeyToken = new byte[] { 0x7c, 0xec, 0x85, 0xd7, 0xbe, 0xa7, 0x79, 0x8e }
            };
            module.AssemblyReferences.Add(corelib);
            scope = corelib;
        }
        var interlocked = new TypeReference("System.Threading", "Interlocked", module, scope ?? module.TypeSystem.CoreLibrary);
        var increment = new MethodReference("Increment", module.TypeSystem.Int64, interlocked);
        increment.Parameters.Add(new ParameterDefinition(new ByReferenceType(module.TypeSystem.Int64)));
        return module.ImportReference(increment);
    }
}

/// SimplifyMacros and OptimizeMacros as Mono.Cecil.Rocks defines them: expand every short form
/// to its long form before an edit; afterwards pick the short forms again (ldc.i8 of a 32-bit
/// value becomes ldc.i4 + conv.i8), and shorten branches one at a time, recomputing every
/// offset after each one that changes.
static class Macros
{
    public static void Simplify(MethodBody body)
    {
        foreach (var i in body.Instructions)
        {
            if (i.OpCode.OpCodeType != OpCodeType.Macro)
                continue;
            switch (i.OpCode.Code)
            {
                case Code.Ldarg_0: Set(i, OpCodes.Ldarg, Parameter(body, 0)); break;
                case Code.Ldarg_1: Set(i, OpCodes.Ldarg, Parameter(body, 1)); break;
                case Code.Ldarg_2: Set(i, OpCodes.Ldarg, Parameter(body, 2)); break;
                case Code.Ldarg_3: Set(i, OpCodes.Ldarg, Parameter(body, 3)); break;
                case Code.Ldloc_0: Set(i, OpCodes.Ldloc, body.Variables[0]); break;
                case Code.Ldloc_1: Set(i, OpCodes.Ldloc, body.Variables[1]); break;
                case Code.Ldloc_2: Set(i, OpCodes.Ldloc, body.Variables[2]); break;
                case Code.Ldloc_3: Set(i, OpCodes.Ldloc, body.Variables[3]); break;
                case Code.Stloc_0: Set(i, OpCodes.Stloc, body.Variables[0]); break;
                case Code.Stloc_1: Set(i, OpCodes.Stloc, body.Variables[1]); break;
                case Code.Stloc_2: Set(i, OpCodes.Stloc, body.Variables[2]); break;
                case Code.Stloc_3: Set(i, OpCodes.Stloc, body.Variables[3]); break;
                case Code.Ldarg_S: i.OpCode = OpCodes.Ldarg; break;
                case Code.Ldarga_S: i.OpCode = OpCodes.Ldarga; break;
                case Code.Starg_S: i.OpCode = OpCodes.Starg; break;
                case Code.Ldloc_S: i.OpCode = OpCodes.Ldloc; break;
                case Code.Ldloca_S: i.OpCode = OpCodes.Ldloca; break;
                case Code.Stloc_S: i.OpCode = OpCodes.Stloc; break;
                case Code.Ldc_I4_M1: Set(i, OpCodes.Ldc_I4, -1); break;
                case Code.Ldc_I4_0: Set(i, OpCodes.Ldc_I4, 0); break;
                case Code.Ldc_I4_1: Set(i, OpCodes.Ldc_I4, 1); break;
                case Code.Ldc_I4_2: Set(i, OpCodes.Ldc_I4, 2); break;
                case Code.Ldc_I4_3: Set(i, OpCodes.Ldc_I4, 3); break;
                case Code.Ldc_I4_4: Set(i, OpCodes.Ldc_I4, 4); break;
                case Code.Ldc_I4_5: Set(i, OpCodes.Ldc_I4, 5); break;
                case Code.Ldc_I4_6: Set(i, OpCodes.Ldc_I4, 6); break;
                case Code.Ldc_I4_7: Set(i, OpCodes.Ldc_I4, 7); break;
                case Code.Ldc_I4_8: Set(i, OpCodes.Ldc_I4, 8); break;
                case Code.Ldc_I4_S: Set(i, OpCodes.Ldc_I4, (int)(sbyte)i.Operand); break;
                case Code.Br_S: i.OpCode = OpCodes.Br; break;
                case Code.Brfalse_S: i.OpCode = OpCodes.Brfalse; break;
                case Code.Brtrue_S: i.OpCode = OpCodes.Brtrue; break;
                case Code.Beq_S: i.OpCode = OpCodes.Beq; break;
                case Code.Bge_S: i.OpCode = OpCodes.Bge; break;
                case Code.Bgt_S: i.OpCode = OpCodes.Bgt; break;
                case Code.Ble_S: i.OpCode = OpCodes.Ble; break;
                case Code.Blt_S: i.OpCode = OpCodes.Blt; break;
                case Code.Bne_Un_S: i.OpCode = OpCodes.Bne_Un; break;
                case Code.Bge_Un_S: i.OpCode = OpCodes.Bge_Un; break;
                case Code.Bgt_Un_S: i.OpCode = OpCodes.Bgt_Un; break;
                case Code.Ble_Un_S: i.OpCode = OpCodes.Ble_Un; break;
                case Code.Blt_Un_S: i.OpCode = OpCodes.Blt_Un; break;
                case Code.Leave_S: i.OpCode = OpCodes.Leave; break;
            }
        }
    }

    public static void Optimize(MethodBody body)
    {
        var code = body.Instructions;
        for (int n = 0; n < code.Count; n++)
        {
            var i = code[n];
            if (i.OpCode.Code != Code.Ldc_I8)
                continue;
            long value = (long)i.Operand;
            if (value >= int.MaxValue || value <= int.MinValue)
                continue;
            Set(i, OpCodes.Ldc_I4, (int)value);
            code.Insert(++n, Instruction.Create(OpCodes.Conv_I8));
        }
        foreach (var i in code)
        {
            int index;
            switch (i.OpCode.Code)
            {
                case Code.Ldarg:
                    index = ArgumentIndex(body, (ParameterDefinition)i.Operand);
                    if (index <= 3) Set(i, new[] { OpCodes.Ldarg_0, OpCodes.Ldarg_1, OpCodes.Ldarg_2, OpCodes.Ldarg_3 }[index], null);
                    else if (index < 256) i.OpCode = OpCodes.Ldarg_S;
                    break;
                case Code.Ldloc:
                    index = ((VariableDefinition)i.Operand).Index;
                    if (index <= 3) Set(i, new[] { OpCodes.Ldloc_0, OpCodes.Ldloc_1, OpCodes.Ldloc_2, OpCodes.Ldloc_3 }[index], null);
                    else if (index < 256) i.OpCode = OpCodes.Ldloc_S;
                    break;
                case Code.Stloc:
                    index = ((VariableDefinition)i.Operand).Index;
                    if (index <= 3) Set(i, new[] { OpCodes.Stloc_0, OpCodes.Stloc_1, OpCodes.Stloc_2, OpCodes.Stloc_3 }[index], null);
                    else if (index < 256) i.OpCode = OpCodes.Stloc_S;
                    break;
                case Code.Ldarga:
                    if (ArgumentIndex(body, (ParameterDefinition)i.Operand) < 256) i.OpCode = OpCodes.Ldarga_S;
                    break;
                case Code.Starg:
                    if (ArgumentIndex(body, (ParameterDefinition)i.Operand) < 256) i.OpCode = OpCodes.Starg_S;
                    break;
                case Code.Ldloca:
                    if (((VariableDefinition)i.Operand).Index < 256) i.OpCode = OpCodes.Ldloca_S;
                    break;
                case Code.Ldc_I4:
                    int value = (int)i.Operand;
                    if (value >= -1 && value <= 8)
                        Set(i, new[] { OpCodes.Ldc_I4_M1, OpCodes.Ldc_I4_0, OpCodes.Ldc_I4_1, OpCodes.Ldc_I4_2, OpCodes.Ldc_I4_3,
                                       OpCodes.Ldc_I4_4, OpCodes.Ldc_I4_5, OpCodes.Ldc_I4_6, OpCodes.Ldc_I4_7, OpCodes.Ldc_I4_8 }[value + 1], null);
                    else if (value >= -128 && value < 128)
                        Set(i, OpCodes.Ldc_I4_S, (sbyte)value);
                    break;
            }
        }
        ComputeOffsets(body);
        foreach (var i in code)
        {
            if (i.OpCode.OperandType == OperandType.InlineBrTarget && ShortenBranch(i))
                ComputeOffsets(body);
        }
    }

    static bool ShortenBranch(Instruction i)
    {
        int distance = ((Instruction)i.Operand).Offset - (i.Offset + i.OpCode.Size + 4);
        if (distance < -128 || distance > 127)
            return false;
        switch (i.OpCode.Code)
        {
            case Code.Br: i.OpCode = OpCodes.Br_S; break;
            case Code.Brfalse: i.OpCode = OpCodes.Brfalse_S; break;
            case Code.Brtrue: i.OpCode = OpCodes.Brtrue_S; break;
            case Code.Beq: i.OpCode = OpCodes.Beq_S; break;
            case Code.Bge: i.OpCode = OpCodes.Bge_S; break;
            case Code.Bgt: i.OpCode = OpCodes.Bgt_S; break;
            case Code.Ble: i.OpCode = OpCodes.Ble_S; break;
            case Code.Blt: i.OpCode = OpCodes.Blt_S; break;
            case Code.Bne_Un: i.OpCode = OpCodes.Bne_Un_S; break;
            case Code.Bge_Un: i.OpCode = OpCodes.Bge_Un_S; break;
            case Code.Bgt_Un: i.OpCode = OpCodes.Bgt_Un_S; break;
            case Code.Ble_Un: i.OpCode = OpCodes.Ble_Un_S; break;
            case Code.Blt_Un: i.OpCode = OpCodes.Blt_Un_S; break;
            case Code.Leave: i.OpCode = OpCodes.Leave_S; break;
        }
        return true;
    }

    static void ComputeOffsets(MethodBody body)
    {
        int offset = 0;
        foreach (var i in body.Instructions)
        {
            i.Offset = offset;
            offset += i.GetSize();
        }
    }

    static void Set(Instruction i, OpCode op, object operand)
    {
        i.OpCode = op;
        i.Operand = operand;
    }

    /// Argument `index` as ldarg.N counts: `this` is 0 in an instance method.
    static ParameterDefinition Parameter(MethodBody body, int index)
    {
        var method = body.Method;
        if (method.HasThis)
            return index == 0 ? body.ThisParameter : method.Parameters[index - 1];
        return method.Parameters[index];
    }

    static int ArgumentIndex(MethodBody body, ParameterDefinition p)
    {
        if (p == body.ThisParameter)
            return 0;
        return body.Method.HasThis ? p.Index + 1 : p.Index;
    }
}
