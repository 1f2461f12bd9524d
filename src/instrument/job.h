// The whole instrument job as one call: read the input, instrument it, write the output and the
// PDB beside it through temporary files, sign, check, and put them in place, or leave nothing.
// What it has to say comes back as values; the caller prints and chooses the exit status.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "instrument/instrumenter.h"
#include "instrument/output_check.h"
#include "metadata/module.h"
#include "support/error.h"
#include "support/file_io.h"

namespace cil::instrument {

/// Files that take their names with the output, all or nothing (trace mode's deps.json files and
/// hooks copy, which the tool prepares): put in place after the self-check, before the output's
/// PDB and the output take their names, and rolled back if either cannot.
class JobCompanions {
 public:
  virtual ~JobCompanions() = default;
  /// Writes and puts the files in place. An error names the file it is about.
  virtual Status place() = 0;
  /// Undoes place(): the output could not take its name.
  virtual void roll_back() = 0;
  /// True when `error` (from place()) is about a file written, not one read.
  virtual bool about_output(const Error& error) const = 0;
};

/// What one job does.
struct JobSpec {
  std::string input;
  std::string output;  ///< its PDB, when it gets a standalone one, goes beside it (pdb_beside)
  /// Mode, filters, RVAs, hooks; the job sets the sink, the PDB and the strong name itself.
  InstrumentOptions options;
  std::string pdb_arg;         ///< --pdb's value ("" when not given; "none")
  std::string key_path;        ///< the .snk the output is re-signed with ("" when not given)
  bool delay_sign = false;     ///< the output left delay-signed
  bool verify = true;          ///< the self-check before the output takes its name
  OutputOptions file_options;  ///< how the temporary files are made (and watched)
  JobCompanions* companions = nullptr;
  /// Told the size of the work before it starts (the input's MethodDef rows, the bytes of the PDB
  /// it will read), for the caller's memory policy.
  std::function<void(uint64_t methods, uint64_t pdb_bytes)> on_start;
  /// Called when the output's bytes are in its files and the pieces they were made of are let go,
  /// before the files are mapped back to be signed and checked.
  std::function<void()> on_written;
  /// Test-only: changes the finished output (`assembly`, or `pdb`, empty without one) before the
  /// self-check, to show that the check catches it.
  std::function<Status(std::span<uint8_t> assembly, std::span<uint8_t> pdb, const InstrumentReport& report)> tamper;
  /// Test-only: the self-check keeps the pages it has read.
  bool keep_check_pages = false;
};

/// What became of the strong name.
enum class StrongName { None, Removed, Signed, DelaySigned };

/// Whose fault a failed job is.
enum class JobFault {
  Input,      ///< the input (or another file read) is bad, or the request cannot be met
  Output,     ///< an output could not be written
  SelfCheck,  ///< the output failed its self-check: a fault of the tool; nothing was written
};

struct JobError {
  Error error;
  JobFault fault = JobFault::Input;
};

/// A warning about a file, for the caller to show.
struct JobMessage {
  std::string file;
  std::string text;
};

/// What became of one job.
struct JobResult {
  std::unique_ptr<md::Module> module;       ///< the input, once read (the report's names are its)
  std::optional<InstrumentReport> report;   ///< set when the output was written
  std::optional<JobError> error;            ///< set when nothing was written
  std::vector<JobMessage> warnings;         ///< once written: the report's warnings, then bodies left unread
  std::string output_pdb;                   ///< where a standalone PDB went (or would go)
  double milliseconds = 0;
  StrongName strong_name = StrongName::None;
  std::string key_token;                    ///< the public key token of the signing key, in hex
  std::optional<OutputCheckStats> check;    ///< the self-check's work, when it ran
};

/// Runs the job `spec` describes: `module`, when given, is the input already read. Either the
/// output (and its PDB, and the companions) all take their names, or none does.
JobResult run_job(const JobSpec& spec, std::unique_ptr<md::Module> module = nullptr);

}  // namespace cil::instrument
