// The trace-mode hook contract read from synthetic hooks assemblies: the work it takes grows
// linearly with the number of types; generic hook types and framework names are refused.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <string>

#include "instrument/hook_contract.h"
#include "metadata/module.h"
#include "support/allocation_meter.h"
#include "support/synthetic_image.h"

namespace cil {
namespace {

using md::TableId;

/// A hooks assembly named `assembly` with `types` public types H.T0, H.T1... in namespace H,
/// each declaring `public static void OnEnter(string method)`.
struct HooksModule {
  testing::TablesBuilder tables;
  testing::StringsBuilder strings;
  testing::BlobBuilder blobs;

  HooksModule(std::string_view assembly, uint32_t types) {
    tables.add(TableId::Module, {0, strings.add(fmt::format("{}.dll", assembly)), 0, 0, 0});
    tables.add(TableId::Assembly, {0x8004, 1, 0, 0, 0, 0, 0, strings.add(assembly), 0});
    tables.add(TableId::TypeDef, {0, strings.add("<Module>"), 0, 0, 1, 1});
    const uint8_t void_of_string[] = {0x00, 1, 0x01, 0x0E};
    uint32_t sig = blobs.add(void_of_string);
    uint32_t ns = strings.add("H");
    uint32_t on_enter = strings.add("OnEnter");
    uint32_t method = strings.add("method");
    for (uint32_t i = 0; i < types; ++i) {
      uint32_t rid = i + 1;  // the type's method and parameter
      tables.add(TableId::TypeDef, {0x1 | 0x80 | 0x100, strings.add(fmt::format("T{}", i)), ns, 0, 1, rid});
      tables.add(TableId::MethodDef, {0, 0, 0x16, on_enter, sig, rid});
      tables.add(TableId::Param, {0, 1, method});
    }
    if (strings.data.size() > 0xFFFF) tables.heap_sizes |= 0x01;
  }

  std::unique_ptr<md::Module> parse() const {
    auto module = md::Module::parse(testing::pe_image(testing::metadata_root(tables, strings, blobs)));
    EXPECT_TRUE(module) << module.error().to_string();
    return module ? std::move(*module) : nullptr;
  }
};

TEST(HookContract, SyntheticHooksRead) {
  auto m = HooksModule("Hooks", 1).parse();
  ASSERT_TRUE(m);
  auto contract = instrument::read_hook_contract(*m, std::nullopt);
  ASSERT_TRUE(contract) << contract.error().to_string();
  EXPECT_EQ(contract->assembly, "Hooks");
  EXPECT_EQ(contract->type_namespace + "." + contract->type_name, "H.T0");
  EXPECT_TRUE(contract->on_enter.wants(instrument::HookParam::Method));
}

TEST(HookContract, ManyHookTypesCostLinearWork) {
  // Each type's name used to be made by a printer of its own, whose construction sizes a name
  // cache for every type: 4,000 types took 0.16 s, 10,000 took 34 s. Measured in bytes asked
  // for, which do not depend on the machine's load: linear is a few hundred bytes a type, the
  // old way was 320 kB a type here.
  const uint32_t types = 5000;
  auto m = HooksModule("Hooks", types).parse();
  ASSERT_TRUE(m);
  std::optional<Expected<instrument::HookContract>> several, chosen;
  size_t several_bytes = testing::bytes_allocated_by([&] { several = instrument::read_hook_contract(*m, std::nullopt); });
  ASSERT_FALSE(*several);
  EXPECT_NE(several->error().message.find("several hook types (H.T0, H.T1,"), std::string::npos);
  size_t chosen_bytes = testing::bytes_allocated_by([&] { chosen = instrument::read_hook_contract(*m, std::string("H.T4999")); });
  ASSERT_TRUE(*chosen) << chosen->error().to_string();
  EXPECT_EQ((*chosen)->type_name, "T4999");
  EXPECT_LT(several_bytes, size_t{types} * 1024) << "bytes allocated to list the hook types";
  EXPECT_LT(chosen_bytes, size_t{types} * 1024) << "bytes allocated to find the hook type";
}

TEST(HookContract, GenericHookTypeIsRefused) {
  // H.T0`1: the instrumented code would reference it without type arguments, and the runtime
  // throws TypeLoadException at the first call.
  HooksModule hooks("Hooks", 2);
  hooks.tables.add(TableId::GenericParam, {0, 0, 1u << 1 | 0 /* TypeDef 1: <Module> */, hooks.strings.add("U")});
  hooks.tables.add(TableId::GenericParam, {0, 0, 2u << 1 | 0 /* TypeDef 2: H.T0 */, hooks.strings.add("T")});
  auto m = hooks.parse();
  ASSERT_TRUE(m);
  auto chosen = instrument::read_hook_contract(*m, std::string("H.T0"));
  ASSERT_FALSE(chosen);
  EXPECT_EQ(chosen.error().to_string(),
            "hooks: hook type H.T0 must not be generic: the instrumented code calls it without type arguments");
  EXPECT_EQ(chosen.error().kind, ErrorKind::Usage);
  EXPECT_TRUE(instrument::read_hook_contract(*m, std::string("H.T1"))) << "a type beside a generic one";
}

TEST(HookContract, FrameworkAssemblyNamesAreRefused) {
  // The runtime binds these names to its own assembly: the hook type is not found there.
  for (const char* name : {"System.Private.CoreLib", "System.Runtime", "mscorlib", "MSCORLIB", "netstandard",
                           "System", "Microsoft.CSharp", "Microsoft.AspNetCore.Http", "WindowsBase", "Mono.Posix"}) {
    auto m = HooksModule(name, 1).parse();
    ASSERT_TRUE(m);
    auto contract = instrument::read_hook_contract(*m, std::nullopt);
    ASSERT_FALSE(contract) << name;
    EXPECT_EQ(contract.error().message,
              fmt::format("the hooks assembly is named {}, a name the runtime resolves to the framework's own assembly: the "
                          "hook type would not be found (TypeLoadException); give it a name of its own",
                          name));
  }
  // Names of no framework assembly are the user's, prefixes included.
  for (const char* name : {"Hooks", "System.Contoso.Hooks", "Microsoft.Contoso", "SystemHooks", "mscorlibx"}) {
    auto m = HooksModule(name, 1).parse();
    ASSERT_TRUE(m);
    auto contract = instrument::read_hook_contract(*m, std::nullopt);
    EXPECT_TRUE(contract) << name << ": " << contract.error().to_string();
  }
}

}  // namespace
}  // namespace cil
