// A method whose sequence points lie in two documents (a #line directive names another file), so
// its debug information has an initial document and a document record.
using System;

namespace Fixtures
{
    static class TwoDocuments
    {
        public static int Run(int value)
        {
            int doubled = value * 2;
#line 40 "Generated.g.cs"
            int shifted = doubled + 1;
            if (shifted == 1)
                throw new InvalidOperationException("generated code");
#line default
            return shifted;
        }
    }
}
