// .NET Framework (mcs) fixture: try/catch/finally, exception filters (`when`), nested tries,
// rethrow, exceptions escaping to a caller, using.
using System;
using System.Collections.Generic;

namespace MonoFixtures
{
    public class AppException : Exception
    {
        public readonly int Code;
        public AppException(int code) : base("app error " + code) { Code = code; }
    }

    public sealed class Tracker : IDisposable
    {
        private readonly string name;
        public Tracker(string name) { this.name = name; Console.WriteLine("acquire " + name); }
        public void Dispose() { Console.WriteLine("release " + name); }
    }

    public static class MonoExceptions
    {
        static readonly List<string> log = new List<string>();

        static void Fail(int code) { throw new AppException(code); }

        static bool Check(AppException e, int wanted)
        {
            log.Add("check " + e.Code + "/" + wanted);
            return e.Code == wanted;
        }

        static string Handle(int code)
        {
            try
            {
                Fail(code);
                return "unreachable";
            }
            catch (AppException e) when (Check(e, 1))
            {
                return "handled one";
            }
            catch (AppException e) when (Check(e, 2))
            {
                return "handled two";
            }
            finally
            {
                log.Add("finally " + code);
            }
        }

        static int Outer(int code)
        {
            try
            {
                return Handle(code).Length;
            }
            catch (AppException e)
            {
                return -e.Code;
            }
        }

        static void Rethrow()
        {
            try
            {
                Fail(9);
            }
            catch (AppException)
            {
                log.Add("rethrow");
                throw;
            }
        }

        static string Nested()
        {
            string r = "";
            try
            {
                try
                {
                    r += "a";
                    Rethrow();
                }
                finally
                {
                    r += "b";
                }
            }
            catch (AppException e)
            {
                r += "c" + e.Code;
            }
            return r;
        }

        static int Main()
        {
            Console.WriteLine("outer " + Outer(1) + " " + Outer(2) + " " + Outer(3));
            Console.WriteLine("nested " + Nested());
            using (new Tracker("t1"))
            {
                try
                {
                    using (new Tracker("t2")) Fail(4);
                }
                catch (AppException e)
                {
                    Console.WriteLine("caught " + e.Message);
                }
            }
            try
            {
                int zero = log.Count - log.Count;
                Console.WriteLine(10 / zero);
            }
            catch (DivideByZeroException)
            {
                Console.WriteLine("divide by zero");
            }
            Console.WriteLine("log: " + string.Join(" | ", log.ToArray()));
            return 0;
        }
    }
}
