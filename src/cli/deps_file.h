// An app's deps.json (the .NET host's list of the files it may load) given the hooks assembly of
// trace mode, so that an instrumented app built by `dotnet build` finds its hooks.
#pragma once

#include <string>
#include <vector>

#include "support/error.h"

namespace cil::cli {

/// The library added: the hooks assembly.
struct DepsLibrary {
  std::string name;       ///< the assembly's name, as the instrumented module references it
  std::string version;    ///< its version, "1.0.0.0"
  std::string file_name;  ///< its file, beside the app ("Hooks.dll")
};

/// A deps.json and what it becomes; `text` is empty when it lists the library already.
struct DepsUpdate {
  std::string path;
  std::string text;
};

/// The deps.json files through which `output` is loaded: `explicit_path` when given, else every
/// `*.deps.json` beside `output` that lists `output`'s file name as a runtime asset (none for an
/// app without one: the host then loads any assembly of the app's folder). Each is read and,
/// unless it names `library` already, given it: a "project" library and a runtime asset of the
/// runtime target, the rest rewritten as it was read (members in order, numbers as written).
/// Errors name the file and, for bad JSON, the line and column.
Expected<std::vector<DepsUpdate>> plan_deps_updates(const std::string& output, const std::string& explicit_path,
                                                    const DepsLibrary& library);

}  // namespace cil::cli
