// Instrumenting many files at once: each chosen assembly instrumented, the other files copied,
// in parallel, with messages in input order.
#pragma once

#include <string>
#include <vector>

#include "cli/jobs/input_tree.h"
#include "cli/jobs/instrument_job.h"
#include "cli/jobs/ordered_jobs.h"
#include "support/write_confinement.h"

namespace cil::cli {

struct BatchSetup {
  InstrumentSetup instrument;
  AssemblyFilter filter;
  std::string hooks_path;      ///< trace mode: never instrumented itself
  bool json = false;           ///< one JSON record per file on stdout, instead of text
  bool copy_unchanged = true;  ///< files that are not instrumented are copied to the output
  unsigned threads = 1;
  bool fail_fast = false;
  /// Folder mode: every file is written under `out_dir` at its relative path, as `confinement`
  /// allows (never over an input, never through a link). Null for exec, which stages its
  /// outputs in its own directory.
  const WriteConfinement* confinement = nullptr;
  std::string out_dir;
};

enum class FileStatus { Instrumented, Copied, Failed };

/// What one file's job did, beyond its messages.
struct FileDone {
  FileStatus status = FileStatus::Copied;
  bool wrote_pdb = false;  ///< OUT.pdb was written beside the output
};

/// Instruments `file` into `output` (its PDB beside it), or, when it is not chosen, copies it
/// (and its PDB) there when setup.copy_unchanged. A file that cannot be instrumented is copied
/// too, so that the output folder still runs; the failure is in the result's exit and message.
JobResult process_file(const PlannedFile& file, const std::string& output, const BatchSetup& setup, FileDone& done);

/// The outputs of `files` under `out_dir` (each file and the PDB beside it), checked against
/// `confinement` before any work, nothing created: the first refusal, or ok.
Status check_outputs(const std::vector<PlannedFile>& files, const std::string& out_dir, const WriteConfinement& confinement,
                     bool pdb_given);

/// Every file of `files` into `out_dir` (created when missing), on setup.threads threads.
/// Prints the per-file lines (or JSON records) in order, a progress line on a terminal and a
/// closing summary line; returns the exit status (the first failure's, or 0).
int run_batch(const std::vector<PlannedFile>& files, const std::string& out_dir, const BatchSetup& setup);

/// The default for -j: the number of cores (at most kMaxWritingThreads).
unsigned default_jobs();
/// Parses -j's value: 1 to kMaxWritingThreads.
std::optional<unsigned> parse_jobs(const std::string& text);

}  // namespace cil::cli
