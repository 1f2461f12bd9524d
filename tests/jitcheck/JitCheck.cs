// Has the real JIT compile every method of an assembly: loads the file into a collectible
// AssemblyLoadContext of its own (so a copy of a framework assembly can sit beside the original)
// and calls RuntimeHelpers.PrepareMethod on every method with an IL body. Invalid IL makes the
// JIT throw InvalidProgramException (or a BadImageFormatException); the tool's outputs are
// checked with the same program as their inputs, and only failures the input did not have count.
//
//   dotnet JitCheck.dll FILE        prints "<token> <Type::Method>: <exception type>: <message>" per
//                                   method the JIT refused, then a summary line; exit 0
//   dotnet JitCheck.dll FILE --sample N
//                                   the same over every k-th method only, about N of them
//                                   (bench/compare.sh: a sample of each tool's output)
//
// The core library cannot be loaded a second time: when FILE is the System.Private.CoreLib the
// process runs on (a framework copy holding an instrumented CoreLib), that loaded one is checked.
//
// Methods of generic types, and generic methods, are compiled for the shared canonical form
// (instantiated over object) where the constraints allow it, else skipped and counted. An
// assembly the file references that the framework lacks is loaded from the file's directory.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;
using System.Runtime.CompilerServices;
using System.Runtime.Loader;

static class JitCheck
{
    const BindingFlags All = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance |
                             BindingFlags.Static | BindingFlags.DeclaredOnly;

    static int Main(string[] args)
    {
        int sample = 0;
        if (!(args.Length == 1 || (args.Length == 3 && args[1] == "--sample" && int.TryParse(args[2], out sample) && sample > 0)))
        {
            Console.Error.WriteLine("usage: JitCheck FILE [--sample N]");
            return 2;
        }
        string path = System.IO.Path.GetFullPath(args[0]);
        string directory = System.IO.Path.GetDirectoryName(path)!;
        var context = new AssemblyLoadContext("jitcheck", isCollectible: true);
        // References the framework does not satisfy (a trace hooks assembly) are looked for
        // beside the file.
        context.Resolving += (ctx, name) =>
        {
            string candidate = System.IO.Path.Combine(directory, name.Name + ".dll");
            return System.IO.File.Exists(candidate) ? ctx.LoadFromAssemblyPath(candidate) : null;
        };
        Assembly assembly = System.IO.Path.GetFullPath(typeof(object).Assembly.Location) == path
                                ? typeof(object).Assembly
                                : context.LoadFromAssemblyPath(path);
        Type?[] types;
        try
        {
            types = assembly.GetTypes();
        }
        catch (ReflectionTypeLoadException e)
        {
            types = e.Types;
        }
        int compiled = 0, skipped = 0, refused = 0;
        int stride = 1, seen = 0;
        if (sample > 0)
        {
            int candidates = types.Where(t => t != null).Sum(t => t!.GetMethods(All).Length + t.GetConstructors(All).Length);
            stride = Math.Max(1, candidates / sample);
        }
        var lines = new List<string>();
        foreach (Type? type in types)
        {
            if (type == null) continue;
            Type? closedType = type;
            if (type.IsGenericTypeDefinition)
                closedType = Close(type);
            if (closedType == null)
            {
                skipped += type.GetMethods(All).Length + type.GetConstructors(All).Length;
                continue;
            }
            IEnumerable<MethodBase> methods;
            try
            {
                methods = closedType.GetMethods(All).Cast<MethodBase>().Concat(closedType.GetConstructors(All)).ToList();
            }
            catch (Exception)
            {
                skipped++;
                continue;
            }
            foreach (MethodBase method in methods)
            {
                if (method.IsAbstract || method.GetMethodImplementationFlags() != MethodImplAttributes.IL ||
                    (method.Attributes & MethodAttributes.PinvokeImpl) != 0)
                    continue;
                if (seen++ % stride != 0)
                    continue;
                RuntimeMethodHandle handle;
                RuntimeTypeHandle[]? instantiation = null;
                try
                {
                    MethodBase target = method;
                    if (method is MethodInfo info && info.IsGenericMethodDefinition)
                    {
                        var args2 = info.GetGenericArguments().Select(_ => typeof(object)).ToArray();
                        target = info.MakeGenericMethod(args2);
                        instantiation = closedType.GetGenericArguments().Concat(args2).Select(t => t.TypeHandle).ToArray();
                    }
                    else if (closedType.IsGenericType)
                    {
                        instantiation = closedType.GetGenericArguments().Select(t => t.TypeHandle).ToArray();
                    }
                    handle = target.MethodHandle;
                }
                catch (Exception)
                {
                    skipped++;  // constraints do not admit object, or the method cannot be named
                    continue;
                }
                try
                {
                    if (instantiation != null)
                        RuntimeHelpers.PrepareMethod(handle, instantiation);
                    else
                        RuntimeHelpers.PrepareMethod(handle);
                    compiled++;
                }
                catch (Exception e) when (e is InvalidProgramException || e is BadImageFormatException ||
                                          e is System.Security.VerificationException || e is MissingMethodException ||
                                          e is MissingFieldException || e is TypeLoadException ||
                                          e is ArgumentException || e is NotSupportedException)
                {
                    refused++;
                    lines.Add($"0x{method.MetadataToken:X8} {type.FullName}::{method.Name}: {e.GetType().Name}: {e.Message.Split('\n')[0]}");
                }
            }
        }
        lines.Sort(StringComparer.Ordinal);
        foreach (string line in lines) Console.WriteLine(line);
        Console.WriteLine($"compiled {compiled}, refused {refused}, skipped {skipped}");
        return 0;
    }

    static Type? Close(Type definition)
    {
        try
        {
            return definition.MakeGenericType(definition.GetGenericArguments().Select(_ => typeof(object)).ToArray());
        }
        catch (ArgumentException)
        {
            return null;
        }
    }
}
