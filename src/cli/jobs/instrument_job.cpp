// One input instrumented into one output: the library's job, with what only the tool does around
// it (signals, heap, test-only breakage, trace mode's deps.json) and its messages made into lines.
#include "cli/jobs/instrument_job.h"

#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "cli/jobs/break_output.h"
#include "cli/common.h"
#include "cli/jobs/deps_file.h"
#include "cli/jobs/heap_policy.h"
#include "cli/jobs/interrupts.h"

namespace cil::cli {

namespace {

/// Trace mode's deps.json files that load the output and the hooks copy they name, prepared and
/// put in place when the job says (deps_file.h).
class TraceFiles final : public instrument::JobCompanions {
 public:
  TraceFiles(const std::string& input, const std::string& output, const InstrumentSetup& setup, OutputOptions file_options)
      : input_(input), output_(output), setup_(setup), file_options_(file_options) {}

  Status place() override {
    const instrument::HookContract& hooks = *setup_.options.hooks;
    DepsLibrary library{hooks.assembly,
                        fmt::format("{}.{}.{}.{}", hooks.version[0], hooks.version[1], hooks.version[2], hooks.version[3]),
                        std::filesystem::path(setup_.hooks_path).filename().string()};
    auto prepared = TraceCompanions::prepare(input_, output_, setup_.deps_arg, setup_.hooks_path, library, file_options_);
    if (!prepared) return prepared.error();
    companions_.emplace(std::move(*prepared));
    return companions_->commit();
  }
  void roll_back() override {
    if (companions_) companions_->roll_back();
  }
  bool about_output(const Error& error) const override { return error.structure == kTraceFilesStructure; }

  /// What was placed, into `outcome`.
  void report(InstrumentOutcome& outcome) const {
    if (!companions_) return;
    outcome.deps_found = companions_->deps_found();
    outcome.deps_updated = companions_->deps_updated();
    outcome.hooks_copied = companions_->hooks_copied();
  }

 private:
  const std::string& input_;
  const std::string& output_;
  const InstrumentSetup& setup_;
  OutputOptions file_options_;
  std::optional<TraceCompanions> companions_;
};

/// The test-only breakage (kBreakOutputVariable), written to the mapped output (or its PDB).
Status break_on_purpose(const std::string& what, std::span<uint8_t> bytes, std::span<uint8_t> pdb, const instrument::InstrumentReport& report) {
  auto planned = plan_breakage(what, bytes, report.instrumented, !pdb.empty());
  if (!planned) return planned.error();
  if (!*planned) return ok();
  const Breakage& b = **planned;
  std::span<uint8_t> target = b.in_pdb ? pdb : bytes;
  std::copy(b.bytes.begin(), b.bytes.end(), target.begin() + static_cast<ptrdiff_t>(b.offset));
  return ok();
}

/// The exit status and the line of a failed job.
void report_failure(InstrumentOutcome& outcome, const instrument::JobError& failure, const std::string& output) {
  switch (failure.fault) {
    case instrument::JobFault::SelfCheck:
      outcome.diagnostics += diagnostic_line(
          "internal error", output,
          fmt::format("the output failed its self-check, so it was not written: {} (--no-verify skips the check)", failure.error.to_string()));
      outcome.exit = kExitInternal;
      return;
    case instrument::JobFault::Output: outcome.exit = kExitOutput; break;
    case instrument::JobFault::Input: outcome.exit = exit_code_for(failure.error); break;
  }
  outcome.diagnostics += diagnostic_line("error", failure.error.file, failure.error.to_string());
}

}  // namespace

const char* strong_name_json(StrongName state) {
  switch (state) {
    case StrongName::None: return nullptr;
    case StrongName::Removed: return "removed";
    case StrongName::Signed: return "signed";
    case StrongName::DelaySigned: return "delay-signed";
  }
  return nullptr;
}

InstrumentOutcome instrument_file(const std::string& input, const std::string& output, const InstrumentSetup& setup,
                                  std::unique_ptr<md::Module> module) {
  instrument::JobSpec spec;
  spec.input = input;
  spec.output = output;
  spec.options = setup.options;
  spec.pdb_arg = setup.pdb_arg;
  spec.key_path = setup.key_path;
  spec.delay_sign = setup.delay_sign;
  spec.verify = setup.verify;
  spec.file_options = setup.interruptible ? interruptible_output() : OutputOptions{};
  // The heap the job will touch, made ready at once.
  spec.on_start = [](uint64_t methods, uint64_t pdb_bytes) { ready_heap(expected_heap(methods, pdb_bytes)); };
  // Coverage mode: the heap the output was made in (kept by keep_heap) goes back to the system
  // before the check maps the output and reads the PDB back, so that the peak stays the
  // writing's (issue 15's bound, tests/scripts/memory_test.sh). Count mode's check adds nothing
  // to the peak with the heap kept, and making it again would cost 5 ms of mscorlib's 55
  // (bench/README.md).
  if (setup.options.mode == instrument::Mode::Coverage) spec.on_written = [] { release_free_heap(); };
  if (const char* what = std::getenv(kBreakOutputVariable))  // test-only (man page, ENVIRONMENT)
    spec.tamper = [what = std::string(what)](std::span<uint8_t> bytes, std::span<uint8_t> pdb, const instrument::InstrumentReport& report) {
      return break_on_purpose(what, bytes, pdb, report);
    };
  spec.keep_check_pages = std::getenv(kKeepCheckPagesVariable) != nullptr;  // test-only (man page, ENVIRONMENT)
  std::optional<TraceFiles> trace_files;
  if (setup.options.hooks && setup.deps_arg != "none") spec.companions = &trace_files.emplace(input, output, setup, spec.file_options);

  instrument::JobResult job = instrument::run_job(spec, std::move(module));
  InstrumentOutcome outcome;
  outcome.module = std::move(job.module);
  outcome.output_pdb = std::move(job.output_pdb);
  outcome.milliseconds = job.milliseconds;
  outcome.strong_name = job.strong_name;
  outcome.key_token = std::move(job.key_token);
  outcome.check = job.check;
  if (job.error) {
    report_failure(outcome, *job.error, output);
    outcome.error = std::move(job.error->error);
    return outcome;
  }
  if (trace_files) trace_files->report(outcome);
  for (const auto& w : job.warnings) outcome.diagnostics += diagnostic_line("warning", w.file, w.text);
  outcome.report = std::move(job.report);
  return outcome;
}

}  // namespace cil::cli
