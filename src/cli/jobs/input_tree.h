// The files a run over many inputs works on: directories walked, every file placed under the
// output directory, and which assemblies are chosen for instrumenting (--assemblies, the defaults).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "metadata/module.h"
#include "support/error.h"

namespace cil::cli {

/// One input file and its place under the output directory.
struct PlannedFile {
  std::string input;
  std::string relative;  ///< under the output directory (a file given by name: its name)
  std::string pdb;       ///< IN.pdb beside an .dll/.exe input, when there is one ("" otherwise)
  bool named = false;    ///< given by name on the command line, not found in a directory
};

/// Every file of `inputs` (files, and directories walked recursively; the tool's own temporary
/// and journal files and the directory `skip_dir`, if inside, left out). A symbolic link to a
/// file is planned as that file, at the link's own relative path; links to directories (and
/// dangling links) are left out. A PDB beside a
/// .dll/.exe of the same name goes with it, not as a file of its own. Refuses (Usage) an input
/// that does not exist, two inputs that would land on the same output path, and more than
/// kMaxPlannedFiles files. Sorted by relative path, so messages come in a stable order.
Expected<std::vector<PlannedFile>> plan_inputs(const std::vector<std::string>& inputs, const std::string& skip_dir = {});
inline constexpr size_t kMaxPlannedFiles = 1'000'000;

/// Why a file is left as it is, or nothing when it is chosen for instrumenting.
struct Choice {
  bool instrument = false;
  std::string reason;  ///< when not: "not a managed assembly", "reference assembly"...
  std::unique_ptr<md::Module> module;  ///< the loaded input, when instrumented
  std::optional<Error> error;          ///< the input looked like an assembly and could not be read
};

struct AssemblyFilter {
  std::vector<std::string> assemblies;       ///< globs on the file name (or the relative path when one has a '/')
  std::vector<std::string> skip_assemblies;  ///< the same, for files to leave
  /// Without --assemblies, for files found in a directory: when set (user_build_root), only the
  /// user's build is chosen, the assemblies whose portable PDB names sources under it, less
  /// the test assemblies; packages, the test platform and the framework are left.
  std::string user_root;
};

/// The source root the defaults judge "my code" by: CIL_INSTRUMENT_SOURCE_ROOT (absolute; its
/// trailing '/' dropped), else the current directory. Usage error for a relative value.
Expected<std::string> default_source_root();

/// `root` when some file of `files` found in a directory has a PDB beside it, or embedded in
/// it, that names a source under `root` (the folder holds the user's build), else "": a folder of packages or
/// of assemblies built without PDBs keeps the older default (every assembly but the
/// framework's). Unreadable PDBs count as not naming one; choosing the file says why later.
std::string user_build_root(const std::vector<PlannedFile>& files, const std::string& root);

/// Chooses: files that are not .dll/.exe PE images with a CLI header (II.25.3.3) are left; so
/// are files --assemblies does not match or --skip-assemblies does, reference assemblies
/// (ReferenceAssemblyAttribute), and, unless --assemblies is given, the .NET framework's own
/// assemblies (signed with one of the framework's public keys); with filter.user_root, files
/// found in a directory are instead chosen when they are the user's (instrument/user_code.h),
/// framework-signed or not (Roslyn's own build is signed with Microsoft's key).
Choice choose_file(const PlannedFile& file, const AssemblyFilter& filter);

/// True for a PE image whose CLI header directory entry is set (read from the first bytes
/// only; a file too broken to say is taken as managed, so that loading it reports why).
bool looks_managed(const std::string& path);

}  // namespace cil::cli
