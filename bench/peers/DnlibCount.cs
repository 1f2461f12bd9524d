// The count job of `cil-instrument IN -o OUT` done with dnlib, for bench/compare.sh.
//
//   DnlibCount IN OUT [--iterations N] [--skip-types PREFIX]... [--symbols]
//
// The same job as bench/cecil/CecilCount.cs: every method with an IL body gets, before its first
// instruction,
//     ldsfld int64[] <CilInstrument>::counts; ldc.i4 <slot>; ldelema int64;
//     call int64 Interlocked::Increment(int64&); pop
// between dnlib's SimplifyMacros and OptimizeMacros (which shortens the branches again); dnlib's
// writer computes max stack. The helper's .cctor allocates the counters and stores one string
// naming every counted method, as CecilCount's does. A ReadyToRun input becomes IL-only with its
// plain machine (dnlib's writer drops the native code); Interlocked is referenced where the
// runtime finds it (see InterlockedIncrement). --iterations N does the whole job N times in one
// process and prints each, the last being the peer's warm case. --skip-types PREFIX leaves the
// methods of the types whose full name starts with PREFIX alone, as CecilCount's does.
// --symbols reads the input's portable PDB (beside it or embedded) and writes OUT's (WritePdb).
using System;
using System.Diagnostics;
using System.Linq;
using System.Text;
using dnlib.DotNet;
using dnlib.DotNet.Emit;
using dnlib.DotNet.MD;
using dnlib.DotNet.Writer;
using dnlib.PE;

static class DnlibCount
{
    static readonly System.Collections.Generic.List<string> skip = new();

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
        bool symbols = options.Remove("--symbols");
        if (args.Length < 2 || iterations < 1 || options.Count != 0)
        {
            Console.Error.WriteLine("usage: DnlibCount IN OUT [--iterations N] [--skip-types PREFIX]... [--symbols]");
            return 2;
        }
        for (int iteration = 1; iteration <= iterations; ++iteration)
        {
            if (iterations > 1)
                Console.Write("iteration {0}: ", iteration);
            Run(args[0], args[1], symbols);
        }
        return 0;
    }

    static void Run(string input, string output, bool symbols)
    {
        var clock = Stopwatch.StartNew();
        var creation = new ModuleCreationOptions(ModuleDef.CreateModuleContext()) { TryToLoadPdbFromDisk = symbols };
        using var module = ModuleDefMD.Load(input, creation);
        if (symbols && module.PdbState == null)
            throw new InvalidOperationException($"{input}: no PDB found");
        long read_ms = clock.ElapsedMilliseconds;
        var types = module.GetTypes().ToList();  // every type, nested ones included
        var int64 = module.CorLibTypes.Int64;
        var helper = new TypeDefUser("", "<CilInstrument>", module.CorLibTypes.Object.TypeDefOrRef)
        {
            Attributes = TypeAttributes.NotPublic | TypeAttributes.Abstract | TypeAttributes.Sealed
        };
        var counts = new FieldDefUser("counts", new FieldSig(new SZArraySig(int64)), FieldAttributes.Assembly | FieldAttributes.Static);
        var names = new FieldDefUser("names", new FieldSig(module.CorLibTypes.String), FieldAttributes.Assembly | FieldAttributes.Static);
        helper.Fields.Add(counts);
        helper.Fields.Add(names);
        IMethod increment = InterlockedIncrement(module);

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
                body.SimplifyMacros(method.Parameters);
                var code = body.Instructions;
                code.Insert(0, Instruction.Create(OpCodes.Ldsfld, counts));
                code.Insert(1, Instruction.Create(OpCodes.Ldc_I4, slot));
                code.Insert(2, Instruction.Create(OpCodes.Ldelema, int64.TypeDefOrRef));
                code.Insert(3, Instruction.Create(OpCodes.Call, increment));
                code.Insert(4, Instruction.Create(OpCodes.Pop));
                body.OptimizeMacros();
                text.Append("0x").Append(method.MDToken.Raw.ToString("X8")).Append(' ')
                    .Append(type.FullName).Append("::").Append(method.Name.String).Append('\n');
                ++slot;
            }
        }

        var cctor = new MethodDefUser(".cctor", MethodSig.CreateStatic(module.CorLibTypes.Void),
                                      MethodImplAttributes.IL | MethodImplAttributes.Managed,
                                      MethodAttributes.Private | MethodAttributes.Static | MethodAttributes.HideBySig |
                                          MethodAttributes.SpecialName | MethodAttributes.RTSpecialName);
        var c = new CilBody();
        c.Instructions.Add(Instruction.Create(OpCodes.Ldc_I4, slot));
        c.Instructions.Add(Instruction.Create(OpCodes.Newarr, int64.TypeDefOrRef));
        c.Instructions.Add(Instruction.Create(OpCodes.Stsfld, counts));
        c.Instructions.Add(Instruction.Create(OpCodes.Ldstr, text.ToString()));
        c.Instructions.Add(Instruction.Create(OpCodes.Stsfld, names));
        c.Instructions.Add(Instruction.Create(OpCodes.Ret));
        c.OptimizeMacros();
        cctor.Body = c;
        helper.Methods.Add(cctor);
        module.Types.Add(helper);

        // As cil-instrument does: a ReadyToRun image becomes IL-only with its plain machine.
        module.Cor20HeaderFlags = (module.Cor20HeaderFlags | ComImageFlags.ILOnly) & ~ComImageFlags.ILLibrary;
        module.Machine = PlainMachine(module.Machine);
        long rewrite_ms = clock.ElapsedMilliseconds - read_ms;
        var logger = new CountingLogger();
        module.Write(output, new ModuleWriterOptions(module) { Logger = logger, WritePdb = symbols });
        long write_ms = clock.ElapsedMilliseconds - read_ms - rewrite_ms;
        string version = typeof(ModuleDefMD).Assembly.GetCustomAttributes(typeof(System.Reflection.AssemblyInformationalVersionAttribute), false).OfType<System.Reflection.AssemblyInformationalVersionAttribute>().FirstOrDefault()?.InformationalVersion ??
                         typeof(ModuleDefMD).Assembly.GetName().Version!.ToString();
        Console.WriteLine("{0}: instrumented {1} methods (dnlib {2}, .NET {3}{10}) in {4} ms (read {5}, rewrite {6}, write {7}); " +
                          "{8} writer errors ignored{9}",
                          output, slot, version, Environment.Version, clock.ElapsedMilliseconds, read_ms, rewrite_ms, write_ms,
                          logger.Errors, logger.First == null ? "" : " (first: " + logger.First + ")",
                          symbols ? ", symbols read and written" : "");
    }

    /// dnlib's default logger throws at the writer's first error. Its max stack calculator
    /// refuses bodies whose unreachable code reaches a label with another stack height (Mono's
    /// mscorlib has such bodies, e.g. StandardFormat::ParseHelper, `throw; br L` where L is
    /// reached with one value); a dnlib user goes on past it, and the writer then gives the body
    /// a max stack of its own. Counted and printed; the JIT check judges the output.
    sealed class CountingLogger : ILogger
    {
        public int Errors;
        public string First;

        public void Log(object sender, LoggerEvent loggerEvent, string format, params object[] args)
        {
            if (loggerEvent != LoggerEvent.Error)
                return;
            if (Errors++ == 0)
                First = args == null || args.Length == 0 ? format : string.Format(format, args);
        }

        public bool IgnoresEvent(LoggerEvent loggerEvent) => loggerEvent != LoggerEvent.Error;
    }

    /// A ReadyToRun image's machine is the plain one xor an OS value (Linux 0x7B79, Apple 0x4644,
    /// FreeBSD 0xADC4, NetBSD 0x1993, SunOS 0x1992); an IL-only image must carry the plain one.
    static Machine PlainMachine(Machine machine)
    {
        foreach (int os in new[] { 0x7B79, 0x4644, 0xADC4, 0x1993, 0x1992 })
        {
            int plain = (int)machine ^ os;
            if (plain == 0x014C || plain == 0x8664 || plain == 0xAA64 || plain == 0x01C4)
                return (Machine)plain;
        }
        return machine;
    }

    /// Interlocked.Increment(ref long) where the runtime finds it: the module's own definition
    /// when it is the core library; else on System.Private.CoreLib for a .NET module (referenced,
    /// or added as our tool adds it: System.Runtime's facade does not forward Interlocked); else on
    /// the core library dnlib names (mscorlib, netstandard).
    static IMethod InterlockedIncrement(ModuleDefMD module)
    {
        var refs = module.GetAssemblyRefs().ToList();
        var own = module.Find("System.Threading.Interlocked", false);
        if (own != null && refs.Count == 0)
        {
            return own.Methods.First(m => m.Name == "Increment" && m.Parameters.Count == 1 &&
                                          m.ReturnType.ElementType == ElementType.I8 &&
                                          m.Parameters[0].Type is ByRefSig r && r.Next.ElementType == ElementType.I8);
        }
        IResolutionScope scope = refs.FirstOrDefault(r => r.Name == "System.Private.CoreLib");
        if (scope == null && refs.Any(r => r.Name == "System.Runtime"))
            scope = new AssemblyRefUser("System.Private.CoreLib", new Version(4, 0, 0, 0), new PublicKeyToken("7cec85d7bea7798e"));
        scope ??= module.CorLibTypes.AssemblyRef;
        var int64 = module.CorLibTypes.Int64;
        var interlocked = new TypeRefUser(module, "System.Threading", "Interlocked", scope);
        return new MemberRefUser(module, "Increment", MethodSig.CreateStatic(int64, new ByRefSig(int64)), interlocked);
    }
}
