// "My code": which assemblies are the user's own, as coverage of `dotnet test` (run's profiler)
// and the folder defaults (folder mode, exec, the collector) choose them (issue 40): built from
// sources under a source root, as the portable PDB's documents say, and not a test assembly.
#pragma once

#include <string_view>

#include "metadata/module.h"
#include "metadata/portable_pdb.h"

namespace cil::instrument {

/// `pdb` names a document under `root` (an absolute directory without its trailing '/'; "/"
/// holds every absolute path): the module was built from sources there. Packages, the test
/// platform and the framework carry PDBs (when they carry any) whose documents are on their
/// own build machines.
bool documents_under(const md::PortablePdb& pdb, std::string_view root);

/// `module` is a test assembly: it references a test framework's attributes (xunit, NUnit,
/// MSTest, TUnit). Coverage leaves it out by default, as coverlet does.
bool is_test_assembly(const md::Module& module);

}  // namespace cil::instrument
