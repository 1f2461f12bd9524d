// Instrumenting one input file into one output file (instrument::run_job), with the messages
// made into the tool's lines and kept for the caller to print (so that parallel jobs can print in
// input order), and the exit status chosen.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "instrument/instrumenter.h"
#include "instrument/job.h"
#include "instrument/output_check.h"
#include "metadata/module.h"
#include "support/error.h"

namespace cil::cli {

/// What every file of a run is instrumented with.
struct InstrumentSetup {
  instrument::InstrumentOptions options;  ///< mode, filters, RVAs, hooks; sink and pdb are set per file
  std::string mode_name;
  std::string pdb_arg;          ///< --pdb's value ("" when not given)
  bool interruptible = true;    ///< temporary files watched by the tool's signal handlers
  std::string key_path;         ///< --key: the .snk the output is re-signed with ("" when not given)
  bool delay_sign = false;      ///< --delay-sign
  bool verify = true;           ///< the self-check before the rename (--no-verify clears it)
  std::string hooks_path;       ///< trace mode: the hooks assembly's file
  std::string deps_arg;         ///< --deps: a deps.json, "none", or "" (those beside the output)
};

using instrument::StrongName;
/// The JSON spelling of a strong name's fate ("removed", "signed", "delay-signed"), or null for
/// an assembly that had none.
const char* strong_name_json(StrongName state);

/// What became of one file.
struct InstrumentOutcome {
  int exit = 0;                  ///< an ExitCode
  std::optional<Error> error;    ///< set when nothing was written
  std::string diagnostics;       ///< the error and warning lines, in the order the tool prints them
  std::unique_ptr<md::Module> module;
  std::optional<instrument::InstrumentReport> report;
  std::string output_pdb;        ///< where a standalone PDB went (or would go)
  double milliseconds = 0;
  StrongName strong_name = StrongName::None;
  std::string key_token;         ///< the public key token of the signing key, in hex
  std::optional<instrument::OutputCheckStats> check;  ///< the self-check's work, when it ran
  std::vector<std::string> deps_found;  ///< trace mode: the deps.json files that load the output
  std::vector<std::string> deps_updated;  ///< those given the hooks assembly
  std::string hooks_copied;     ///< where the hooks assembly was copied ("" when not)
};

/// Loads `input` and writes the instrumented `output` (and OUT.pdb when the PDB is standalone),
/// or nothing (instrument::run_job, with the tool's signal handling, heap policy, test-only
/// breakage and trace mode's deps.json files). `module`, when given, is the already loaded input.
InstrumentOutcome instrument_file(const std::string& input, const std::string& output, const InstrumentSetup& setup,
                                  std::unique_ptr<md::Module> module = nullptr);

}  // namespace cil::cli
