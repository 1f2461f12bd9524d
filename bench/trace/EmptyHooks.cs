// Hooks that do nothing and take nothing: the floor of trace mode's cost.
namespace EmptyHooks
{
    public static class Hooks
    {
        public static void OnEnter() { }
        public static void OnLeave() { }
    }
}
