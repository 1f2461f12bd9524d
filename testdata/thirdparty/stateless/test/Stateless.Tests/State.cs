namespace Stateless.Tests
{
    enum State
    {
        A, B, C, D
    }
}
