// An app's deps.json (the .NET host's list of the files it may load) given the hooks assembly of
// trace mode, so that an instrumented app built by `dotnet build` finds its hooks.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "support/error.h"
#include "support/file_io.h"

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
  std::string original;  ///< its bytes as read, put back if the output cannot be put in place
};

/// The deps.json files through which `output` is loaded: `explicit_path` when given, else every
/// `*.deps.json` beside `output` that lists `output`'s file name as a runtime asset (none for an
/// app without one: the host then loads any assembly of the app's folder). Each is read and,
/// unless it names `library` already, given it: a "project" library and a runtime asset of the
/// runtime target, the rest rewritten as it was read (members in order, numbers as written).
/// Errors name the file and, for bad JSON, the line and column.
Expected<std::vector<DepsUpdate>> plan_deps_updates(const std::string& output, const std::string& explicit_path,
                                                    const DepsLibrary& library);

/// The structure named by TraceCompanions' errors about the files it writes (an output error, exit
/// status 4), as against those about the files it reads.
inline constexpr std::string_view kTraceFilesStructure = "trace mode";

/// Trace mode's files beside an output: the deps.json updates and the copy of the hooks assembly
/// they name. All or nothing (an output whose deps.json names hooks that are not there, or that
/// needs hooks its deps.json does not name, dies at start-up): prepare() plans them and writes
/// every new file to a temporary file, refusing any destination that cannot be replaced (a
/// symbolic link found beside the output, a special file, an immutable or append-only file, an
/// input, the output itself) before anything takes a name; commit() then puts them in place
/// (the hooks first, so a deps.json never names a missing file) and, should one fail, puts back
/// what it had replaced; roll_back() does the same after a commit(), when the output itself
/// cannot be put in place.
class TraceCompanions {
 public:
  /// `deps_arg` is --deps (a path, or "" to look beside `output`); a path the user gave is
  /// followed if it is a symbolic link. Nothing is prepared when no deps.json loads `output`.
  static Expected<TraceCompanions> prepare(const std::string& input, const std::string& output, const std::string& deps_arg,
                                           const std::string& hooks_path, const DepsLibrary& library, OutputOptions options);
  TraceCompanions(TraceCompanions&&) = default;
  TraceCompanions& operator=(TraceCompanions&&) = default;
  ~TraceCompanions();

  /// Errors name the file that could not be put in place; what was put in place is put back.
  Status commit();
  void roll_back();

  const std::vector<std::string>& deps_found() const { return found_; }
  std::vector<std::string> deps_updated() const;
  const std::string& hooks_copied() const { return hooks_copied_; }

 private:
  TraceCompanions() = default;
  struct Pending {
    std::string path;
    std::unique_ptr<OutputFile> file;
    bool existed = false;
    std::string original;   ///< the replaced file's bytes (existed)
    uint32_t mode = 0;      ///< the permission bits to give it (0: OutputFile's choice)
    bool committed = false;
  };
  std::vector<std::string> found_;
  std::vector<Pending> pending_;  ///< in commit order: the hooks copy, then the deps.json files
  std::string hooks_copied_;
};

}  // namespace cil::cli
