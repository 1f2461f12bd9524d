// The instrument job's debug information: which PDB the input has (embedded, a standalone file,
// a Windows PDB, none), whether it matches, and what the output gets: a rewritten portable PDB
// (embedded again, or to be written beside the output) with the debug directory naming it, or no
// claim at all. Never fails the job: a missing, broken or foreign PDB is a warning.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "instrument/pdb_rewrite.h"
#include "metadata/module.h"
#include "metadata/module_editor.h"
#include "metadata/portable_pdb.h"
#include "pe/debug_directory.h"
#include "instrument/engine_names.h"

namespace cil::instrument {

/// Where the caller wants debug information taken from.
struct PdbOptions {
  enum class Mode {
    Auto,  ///< the embedded PDB, else `file` (the caller found one beside the input), else none
    None,  ///< none on purpose: the output claims no PDB
    File,  ///< the standalone PDB in `file`, which the user named
  };
  Mode mode = Mode::Auto;
  /// A standalone PDB: its path (for messages), and its bytes or why they could not be read.
  std::string path;
  /// Shared, not copied: the options are copied, and the parsed PDB keeps the bytes.
  std::shared_ptr<const std::vector<uint8_t>> bytes;
  std::optional<Error> read_error;
  /// The file name of the PDB beside the output (OUT with .pdb), which the CodeView entry names.
  std::string output_file_name = "out.pdb";
};

/// The input's PDB, found and checked against the assembly.
struct PdbSource {
  std::unique_ptr<md::PortablePdb> pdb;  ///< null when there is none to use
  std::string input;                     ///< "embedded", the standalone PDB's path, or empty
  bool embedded = false;
  std::string reason;                    ///< why there is none, when the assembly names one or the user gave one
  bool warn = false;                     ///< the reason is worth a warning (it is not, after --pdb none)
  bool missing = false;                  ///< the reason is that no PDB is there at all
  std::vector<std::string> notes;        ///< warnings whatever the outcome (a --pdb PATH not used)
};

/// Finds the PDB that `options` describe for `module`, whose debug directory is `entries` (the
/// embedded one, else the standalone file), and checks it: a portable PDB whose id is the CodeView
/// entry's, whose SHA-256 is the PdbChecksum entry's, and whose method count is the assembly's.
PdbSource find_pdb(const md::Module& module, const std::vector<pe::DebugEntry>& entries, const PdbOptions& options);

/// What the output got.
struct PdbOutcome {
  enum class Output { None, Standalone, Embedded };
  std::string input;                ///< "embedded", the standalone PDB's path, or empty
  Output output = Output::None;
  std::string reason;               ///< why no PDB was written, when one could have been
  pe::OutputImage standalone;        ///< Output::Standalone: the PDB to write beside the output
  std::unique_ptr<md::PortablePdb> source;  ///< the input PDB, whose bytes `standalone` views
  std::optional<md::PdbId> id;      ///< the written PDB's id
  bool claims_removed = false;      ///< debug directory entries that named a PDB were dropped
};

/// The input's debug information, opened before the methods are rewritten.
class DebugInfoJob {
 public:
  /// Finds and checks the PDB; problems become warnings in `warnings`.
  static DebugInfoJob open(const md::Module& module, const PdbOptions& options, std::vector<std::string>& warnings);

  DebugInfoJob(DebugInfoJob&&) = default;

  /// True when a PDB was found that matches the input and will be rewritten.
  bool has_pdb() const { return static_cast<bool>(pdb_); }
  const md::PortablePdb* pdb() const { return pdb_.get(); }

  /// MethodDef `rid` got a new body whose header names `local_sig_token` (EncodedBody's), where
  /// the rewrite's `map` says its original offsets went. Its debug information moves now, so that
  /// the map need not be kept.
  void method_rewritten(md::MethodDefId method, const OffsetMap& map, md::Token local_sig_token);

  /// Writes the PDB and sets the output's debug directory in `editor`; call after every row is
  /// added. Problems become warnings, and the output then claims no PDB.
  PdbOutcome finish(md::ModuleEditor& editor, std::vector<std::string>& warnings);

 private:
  /// Drops every entry that names a PDB (CodeView, PdbChecksum, EmbeddedPortablePdb).
  void remove_claims(md::ModuleEditor& editor, PdbOutcome& outcome) const;
  Status write_pdb(md::ModuleEditor& editor, md::WrittenPdb pdb, PdbOutcome& outcome) const;

  DebugInfoJob() = default;

  PdbOptions options_;
  std::vector<pe::DebugEntry> entries_;
  std::unique_ptr<md::PortablePdb> pdb_;
  std::unique_ptr<PdbRewriter> rewriter_;  ///< refers to *pdb_
  bool embedded_ = false;
  std::string input_;   ///< "embedded" or the path
  std::string reason_;  ///< why there is no PDB to rewrite
};

}  // namespace cil::instrument
