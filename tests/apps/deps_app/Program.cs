// Prints, throws and catches, and exits with 3: the traced copy must do the same.
static class Program {
  static int Twice(int x) => 2 * x;

  static void Fail(string why) => throw new System.InvalidOperationException(why);

  static int Main() {
    System.Console.WriteLine("twice 21 = " + Twice(21));
    try {
      Fail("on purpose");
    } catch (System.InvalidOperationException e) {
      System.Console.WriteLine("caught: " + e.Message);
    }
    return 3;
  }
}
