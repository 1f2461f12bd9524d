// "My code" (see user_code.h).
#include "instrument/user_code.h"

#include <string>

namespace cil::instrument {

bool documents_under(const md::PortablePdb& pdb, std::string_view root) {
  // Whole path components only: /src/app does not hold /src/application.
  std::string prefix = root == "/" ? std::string("/") : std::string(root) + '/';
  for (md::DocumentId document : md::RowRange<md::TableId::Document>(pdb.tables().rows(md::TableId::Document)))
    if (pdb.document_name(document).starts_with(prefix)) return true;
  return false;
}

bool is_test_assembly(const md::Module& module) {
  // The assemblies that declare the frameworks' test attributes ([Fact], [Test], [TestMethod]);
  // MSTest 4 renamed its Microsoft.VisualStudio.TestPlatform.TestFramework to MSTest.TestFramework.
  static constexpr std::string_view kTestFrameworks[] = {"xunit.core",
                                                         "xunit.v3.core",
                                                         "nunit.framework",
                                                         "Microsoft.VisualStudio.TestPlatform.TestFramework",
                                                         "MSTest.TestFramework",
                                                         "TUnit.Core"};
  for (uint32_t rid = 1; rid <= module.tables().rows(md::TableId::AssemblyRef); ++rid) {
    std::string_view name = module.row<md::TableId::AssemblyRef>(rid).name();
    for (std::string_view framework : kTestFrameworks)
      if (name == framework) return true;
  }
  return false;
}

}  // namespace cil::instrument
