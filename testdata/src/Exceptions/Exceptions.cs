// Exceptions: try/catch/finally, exception filters (`when`) with side effects, nested tries,
// rethrow, wrapping, exceptions escaping several frames and caught by a caller, exceptions caught
// in the same method, `using` (class and struct disposables), return/break/continue out of
// try/finally, throw from finally/catch, checked overflow, runtime-raised exceptions.
using System;
using System.Collections.Generic;
using System.Globalization;

namespace Fixtures
{
    public class CodeException : Exception
    {
        public int Code { get; }
        public CodeException(int code) : base("code " + code.ToString(CultureInfo.InvariantCulture)) { Code = code; }
    }

    public sealed class Resource : IDisposable
    {
        public static int Open;
        private readonly string name;

        public Resource(string name)
        {
            this.name = name;
            Open++;
            Console.WriteLine("open " + name);
        }

        public void Use(bool fail)
        {
            Console.WriteLine("use " + name);
            if (fail) throw new InvalidOperationException("failed using " + name);
        }

        public void Dispose()
        {
            Open--;
            Console.WriteLine("dispose " + name);
        }
    }

    public struct Scope : IDisposable
    {
        private readonly string tag;
        public Scope(string tag) { this.tag = tag; Console.WriteLine("enter " + tag); }
        public void Dispose() => Console.WriteLine("leave " + tag);
    }

    public class Exceptions
    {
        private static readonly List<string> trace = new List<string>();

        static int Divide(int a, int b) => a / b;

        static int SafeDivide(int a, int b)
        {
            try
            {
                return Divide(a, b);
            }
            catch (DivideByZeroException)
            {
                return -1;
            }
        }

        static void Thrower(int code) => throw new CodeException(code);

        static bool IsCode(CodeException e, int code)
        {
            trace.Add("IsCode(" + e.Code.ToString(CultureInfo.InvariantCulture) + "," + code.ToString(CultureInfo.InvariantCulture) + ")");
            return e.Code == code;
        }

        static bool LogFilter(string where)
        {
            trace.Add("filter@" + where);
            return false;
        }

        static string Classify(int code)
        {
            try
            {
                if (code >= 0) Thrower(code);
                return "none";
            }
            catch (CodeException e) when (IsCode(e, 1))
            {
                return "one";
            }
            catch (CodeException e) when (LogFilter("classify") || e.Code > 10)
            {
                return "big";
            }
            catch (CodeException)
            {
                return "other";
            }
        }

        static void Level3(int code)
        {
            trace.Add("L3");
            Thrower(code);
            trace.Add("unreachable");
        }

        static void Level2(int code)
        {
            try
            {
                Level3(code);
            }
            finally
            {
                trace.Add("L2 finally");
            }
        }

        static int Level1(int code)
        {
            try
            {
                Level2(code);
                return 0;
            }
            catch (CodeException e) when (e.Code % 2 == 0)
            {
                return e.Code;
            }
        }

        static void Rethrow(int code)
        {
            try
            {
                Thrower(code);
            }
            catch (CodeException)
            {
                trace.Add("rethrowing");
                throw;
            }
        }

        static void Wrap(int code)
        {
            try
            {
                Rethrow(code);
            }
            catch (CodeException) when (LogFilter("wrap"))
            {
                trace.Add("never");
            }
            catch (CodeException e)
            {
                throw new InvalidOperationException("wrapped", e);
            }
        }

        static string Nested(int mode)
        {
            var log = new List<string>();
            try
            {
                try
                {
                    log.Add("inner-try");
                    if (mode == 1) throw new ArgumentException("arg");
                    if (mode == 2) throw new FormatException("fmt");
                    if (mode == 3) Thrower(3);
                }
                catch (ArgumentException)
                {
                    log.Add("inner-catch");
                }
                finally
                {
                    log.Add("inner-finally");
                }
                log.Add("after-inner");
            }
            catch (FormatException)
            {
                log.Add("outer-catch");
            }
            catch (Exception e) when (e is CodeException ce && ce.Code == 3)
            {
                log.Add("outer-filtered");
            }
            finally
            {
                log.Add("outer-finally");
            }
            return string.Join(">", log);
        }

        static int ReturnFromTry(List<string> log)
        {
            int x = 1;
            try
            {
                log.Add("try");
                return x;
            }
            finally
            {
                x = 99;
                log.Add("finally x=" + x.ToString(CultureInfo.InvariantCulture));
            }
        }

        static int LoopWithTry()
        {
            int total = 0;
            for (int i = 0; i < 10; i++)
            {
                try
                {
                    if (i == 2) continue;
                    if (i == 7) break;
                    if (i % 3 == 0) throw new CodeException(i);
                    total += i;
                }
                catch (CodeException e)
                {
                    total += 100 * e.Code;
                }
                finally
                {
                    total += 1000;
                }
            }
            return total;
        }

        static string ThrowFromFinally()
        {
            try
            {
                try
                {
                    throw new CodeException(7);
                }
                finally
                {
                    throw new CodeException(8);
                }
            }
            catch (CodeException e)
            {
                return "caught " + e.Code.ToString(CultureInfo.InvariantCulture);
            }
        }

        static void UseResources()
        {
            using (var r1 = new Resource("r1"))
            using (var r2 = new Resource("r2"))
            {
                r1.Use(false);
                r2.Use(false);
            }
            try
            {
                using var r3 = new Resource("r3");
                r3.Use(true);
            }
            catch (InvalidOperationException e)
            {
                Console.WriteLine("caught: " + e.Message + " open=" + Resource.Open.ToString(CultureInfo.InvariantCulture));
            }
            using (new Scope("s1"))
            {
                Console.WriteLine("inside scope");
            }
        }

        static string Runtime(int which)
        {
            try
            {
                switch (which)
                {
                    case 0:
                        object o = null;
                        return o.ToString();
                    case 1:
                        int[] arr = new int[2];
                        return arr[which + 5].ToString(CultureInfo.InvariantCulture);
                    case 2:
                        object s = "str";
                        return ((Uri)s).Host;
                    case 3:
                        int big = int.MaxValue - which;
                        return checked(big + which + 1).ToString(CultureInfo.InvariantCulture);
                    default:
                        return "ok";
                }
            }
            catch (Exception e)
            {
                return e.GetType().Name;
            }
        }

        static int Main()
        {
            CultureInfo.CurrentCulture = CultureInfo.InvariantCulture;
            Console.WriteLine("safe " + SafeDivide(10, 2) + " " + SafeDivide(1, 0) + " " + SafeDivide(-9, 3));

            foreach (int code in new[] { -1, 1, 2, 20 })
                Console.WriteLine("classify " + code + " -> " + Classify(code));

            for (int code = 1; code <= 4; code++)
            {
                try
                {
                    Console.WriteLine("level1 " + code + " -> " + Level1(code));
                }
                catch (CodeException e)
                {
                    Console.WriteLine("main caught " + e.Message);
                }
            }

            try
            {
                Wrap(42);
            }
            catch (InvalidOperationException e)
            {
                Console.WriteLine("wrap -> " + e.Message + " inner " + e.InnerException.Message);
            }

            for (int mode = 0; mode <= 3; mode++)
                Console.WriteLine("nested " + mode + " " + Nested(mode));

            var log = new List<string>();
            Console.WriteLine("return " + ReturnFromTry(log) + " " + string.Join(",", log));
            Console.WriteLine("loop " + LoopWithTry());
            Console.WriteLine(ThrowFromFinally());
            UseResources();
            for (int i = 0; i <= 4; i++) Console.WriteLine("runtime " + i + " " + Runtime(i));

            Console.WriteLine("trace: " + string.Join(" | ", trace));
            return 0;
        }
    }
}
