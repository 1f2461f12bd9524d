// InMemory: modules the runtime profiler cannot read from a file. Loads Profiled.dll (next to it)
// from bytes, so its module has no path, and calls two of its methods through reflection; builds
// a dynamic assembly with Reflection.Emit and calls its method; runs a DynamicMethod. The
// profiler must name these methods through the runtime's metadata (or skip them) and leave the
// program's output unchanged. Deterministic output.
using System;
using System.IO;
using System.Reflection;
using System.Reflection.Emit;

namespace Fixtures
{
    public static class InMemory
    {
        public static int Main()
        {
            string here = Path.GetDirectoryName(typeof(InMemory).Assembly.Location);
            Assembly copy = Assembly.Load(File.ReadAllBytes(Path.Combine(here, "Profiled.dll")));
            Type calls = copy.GetType("Fixtures.Calls", throwOnError: true);
            object sum = calls.GetMethod("Add").Invoke(null, new object[] { 20, 22 });
            object length = calls.GetMethod("Length").Invoke(null, new object[] { "in memory" });
            Console.WriteLine("loaded from bytes: Add " + sum + ", Length " + length + ", location '" + copy.Location + "'");

            AssemblyBuilder assembly = AssemblyBuilder.DefineDynamicAssembly(new AssemblyName("Emitted"), AssemblyBuilderAccess.Run);
            ModuleBuilder module = assembly.DefineDynamicModule("Emitted");
            TypeBuilder type = module.DefineType("Emitted.Doubler", TypeAttributes.Public | TypeAttributes.Abstract | TypeAttributes.Sealed);
            MethodBuilder twice = type.DefineMethod("Twice", MethodAttributes.Public | MethodAttributes.Static, typeof(int), new[] { typeof(int) });
            ILGenerator il = twice.GetILGenerator();
            il.Emit(OpCodes.Ldarg_0);
            il.Emit(OpCodes.Ldc_I4_2);
            il.Emit(OpCodes.Mul);
            il.Emit(OpCodes.Ret);
            Type doubler = type.CreateType();
            Console.WriteLine("emitted: Twice(21) = " + doubler.GetMethod("Twice").Invoke(null, new object[] { 21 }));

            var square = new DynamicMethod("Square", typeof(int), new[] { typeof(int) }, typeof(InMemory).Module);
            ILGenerator g = square.GetILGenerator();
            g.Emit(OpCodes.Ldarg_0);
            g.Emit(OpCodes.Dup);
            g.Emit(OpCodes.Mul);
            g.Emit(OpCodes.Ret);
            var f = (Func<int, int>)square.CreateDelegate(typeof(Func<int, int>));
            Console.WriteLine("dynamic method: Square(12) = " + f(12));
            return 0;
        }
    }
}
