// tests/jitcheck/JitCheck.cs for mono, for bench/compare.sh's Mono inputs: has mono's JIT compile
// a sample of the methods of FILE (RuntimeHelpers.PrepareMethod) and prints the refused ones and
// a summary line "compiled N, refused N, skipped N".
//
//   MONO_PATH=DIR mono -O=-aot MonoCheck.exe DIR/mscorlib.dll --sample N   an instrumented corlib,
//                                        which mono loads from MONO_PATH: the running one is checked
//   mono -O=-aot MonoCheck.exe FILE --sample N      any other file, loaded with Assembly.LoadFile
//
// -O=-aot: mono's AOT cache is keyed by MVID, and a tool that keeps the MVID would otherwise run
// the original's precompiled code against its own metadata. Generic types and methods are
// closed over object where the constraints allow, else skipped, as JitCheck does.
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Runtime.CompilerServices;

static class MonoCheck
{
    const BindingFlags All = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance |
                             BindingFlags.Static | BindingFlags.DeclaredOnly;

    static int Main(string[] args)
    {
        int sample = 0;
        if (!(args.Length == 1 || (args.Length == 3 && args[1] == "--sample" && int.TryParse(args[2], out sample) && sample > 0)))
        {
            Console.Error.WriteLine("usage: MonoCheck FILE [--sample N]");
            return 2;
        }
        string path = Path.GetFullPath(args[0]);
        Assembly assembly = Path.GetFullPath(typeof(object).Assembly.Location) == path ? typeof(object).Assembly : Assembly.LoadFile(path);
        Type[] types;
        try { types = assembly.GetTypes(); }
        catch (ReflectionTypeLoadException e) { types = e.Types; }
        types = types.Where(t => t != null).ToArray();
        int stride = 1, seen = 0, compiled = 0, refused = 0, skipped = 0;
        if (sample > 0)
            stride = Math.Max(1, types.Sum(t => t.GetMethods(All).Length + t.GetConstructors(All).Length) / sample);
        var lines = new List<string>();
        foreach (Type type in types)
        {
            Type closed = type;
            if (type.IsGenericTypeDefinition)
            {
                try { closed = type.MakeGenericType(type.GetGenericArguments().Select(_ => typeof(object)).ToArray()); }
                catch (ArgumentException) { skipped++; continue; }
            }
            foreach (MethodBase method in closed.GetMethods(All).Cast<MethodBase>().Concat(closed.GetConstructors(All)))
            {
                if (method.IsAbstract || method.GetMethodImplementationFlags() != MethodImplAttributes.IL ||
                    (method.Attributes & MethodAttributes.PinvokeImpl) != 0)
                    continue;
                if (seen++ % stride != 0)
                    continue;
                RuntimeMethodHandle handle;
                try
                {
                    MethodBase target = method;
                    var info = method as MethodInfo;
                    if (info != null && info.IsGenericMethodDefinition)
                        target = info.MakeGenericMethod(info.GetGenericArguments().Select(_ => typeof(object)).ToArray());
                    handle = target.MethodHandle;
                }
                catch (Exception) { skipped++; continue; }
                try
                {
                    RuntimeHelpers.PrepareMethod(handle);
                    compiled++;
                }
                catch (Exception e)
                {
                    refused++;
                    lines.Add(string.Format("0x{0:X8} {1}::{2}: {3}: {4}", method.MetadataToken, type.FullName, method.Name,
                                            e.GetType().Name, e.Message.Split('\n')[0]));
                }
            }
        }
        lines.Sort(StringComparer.Ordinal);
        foreach (string line in lines) Console.WriteLine(line);
        Console.WriteLine("compiled {0}, refused {1}, skipped {2}", compiled, refused, skipped);
        return 0;
    }
}
