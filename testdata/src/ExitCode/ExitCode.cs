// Writes to stdout and stderr and returns a non-zero exit code (3) from Main.
using System;

namespace Fixtures
{
    public static class ExitCode
    {
        static bool Validate(string input) => input.Length > 0 && char.IsDigit(input[0]);

        static int Main()
        {
            string[] inputs = { "1abc", "xyz", "42", "" };
            int failures = 0;
            foreach (string s in inputs)
            {
                if (Validate(s))
                {
                    Console.WriteLine("ok: '" + s + "'");
                }
                else
                {
                    failures++;
                    Console.Error.WriteLine("error: invalid input '" + s + "'");
                }
            }
            Console.WriteLine("failures: " + failures);
            Console.Error.WriteLine("exiting with code 3");
            return failures + 1;
        }
    }
}
