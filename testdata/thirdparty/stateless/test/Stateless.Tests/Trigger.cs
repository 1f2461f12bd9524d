namespace Stateless.Tests
{
    enum Trigger
    {
        X, Y, Z
    }
}
