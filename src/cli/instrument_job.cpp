// One input instrumented into one output: load, rewrite, write the PDB, then put the output in place.
#include "cli/instrument_job.h"

#include <chrono>

#include <fmt/format.h>

#include "cli/common.h"
#include "cli/interrupts.h"
#include "cli/pdb_options.h"
#include "metadata/text_encoding.h"
#include "support/file_io.h"

namespace cil::cli {

namespace {

/// The new section's bodies go straight into the output file as they are made; a failed write
/// is an error about the output, whichever part of the job it ends.
class OutputSink final : public pe::SectionSink {
 public:
  explicit OutputSink(OutputFile& file) : file_(file) {}
  Status write(uint64_t file_offset, std::span<const uint8_t> bytes) override {
    Status written = file_.write_at(file_offset, bytes);
    if (!written) return in_file(std::move(written).error(), file_.path());
    return written;
  }

 private:
  OutputFile& file_;
};

InstrumentOutcome failed(InstrumentOutcome outcome, Error error, std::string_view output) {
  outcome.diagnostics += diagnostic_line("error", error.file, error.to_string());
  outcome.exit = !output.empty() && error.file == output ? kExitOutput : exit_code_for(error);
  outcome.error = std::move(error);
  outcome.report.reset();
  return outcome;
}

}  // namespace

InstrumentOutcome instrument_file(const std::string& input, const std::string& output, const InstrumentSetup& setup,
                                  std::unique_ptr<md::Module> module) {
  InstrumentOutcome outcome;
  auto started = std::chrono::steady_clock::now();
  // OUT.pdb beside the output: the name its CodeView entry gives and the runtime looks for.
  outcome.output_pdb = without_extension(output) + ".pdb";
  if (!module) {
    auto loaded = load_module(input);
    if (!loaded) return failed(std::move(outcome), std::move(loaded).error(), output);
    module = std::move(*loaded);
  }
  outcome.module = std::move(module);
  const md::Module& m = *outcome.module;
  // Written to a file beside OUTPUT that takes its name only when complete (FILES in the man page).
  OutputOptions file_options = setup.interruptible ? interruptible_output() : OutputOptions{};
  OutputFile file(output, file_options);
  OutputSink sink(file);
  il::InstrumentOptions opts = setup.options;
  opts.sink = &sink;
  opts.pdb = pdb_options(setup.pdb_arg, input, outcome.output_pdb);
  auto report = il::instrument(m, opts);
  // What fails inside the job is about the input, unless the sink already named the output.
  if (!report) return failed(std::move(outcome), in_file(std::move(report).error(), input), output);
  Status written = file.write_pieces(report->output.pieces(), m.copy_source());
  if (!written) return failed(std::move(outcome), in_file(std::move(written).error(), output), output);
  // The PDB first: an assembly is never left naming a PDB that was not written.
  if (report->pdb.output == il::PdbOutcome::Output::Standalone) {
    OutputFile pdb_file(outcome.output_pdb, file_options);
    Status pdb_written = pdb_file.write_pieces(report->pdb.standalone.pieces());
    if (pdb_written) pdb_written = pdb_file.commit();
    if (!pdb_written) return failed(std::move(outcome), in_file(std::move(pdb_written).error(), outcome.output_pdb), outcome.output_pdb);
  }
  written = file.commit();
  if (!written) return failed(std::move(outcome), in_file(std::move(written).error(), output), output);
  outcome.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  for (const auto& w : report->warnings) outcome.diagnostics += diagnostic_line("warning", input, w);
  // One line on stderr for bodies the input got wrong, as dump gives, so that CI logs show it.
  size_t malformed = 0;
  const il::SkippedMethod* first = nullptr;
  for (const auto& s : report->skipped) {
    if (!s.malformed()) continue;
    if (malformed++ == 0) first = &s;
  }
  if (first)
    outcome.diagnostics += diagnostic_line(
        "warning", input,
        fmt::format("{} method bod{} could not be read and {} left as in the input; the first: 0x{:08X} {}: {}", malformed,
                    malformed == 1 ? "y" : "ies", malformed == 1 ? "was" : "were",
                    md::make_token(md::TableId::MethodDef, first->rid), md::clip_text(first->name, md::kMaxQuotedText),
                    first->text()));
  outcome.report = std::move(*report);
  return outcome;
}

}  // namespace cil::cli
