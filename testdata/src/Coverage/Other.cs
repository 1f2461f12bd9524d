// A second source, for --exclude-by-file.
namespace Fixtures {
public static class Other {
  public static int Twice(int x) {
    return x * 2;
  }
}
}
