#include "metadata/module.h"
#include <fmt/format.h>
int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    auto m = cil::md::Module::load(argv[i]);
    if (!m) { fmt::print(stderr, "cil-instrument: error: {}: {}\n", argv[i], m.error().to_string()); continue; }
    fmt::print("{}: {} methods\n", argv[i], (*m)->tables().rows(cil::md::TableId::MethodDef));
  }
}
