// The library LoadContexts loads three times (see Program.cs).
namespace Fixtures
{
    public static class Work
    {
        public static int Add(int a, int b) => a + b;
    }
}
