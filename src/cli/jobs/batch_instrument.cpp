// Many files at once: choose, instrument or copy each one on a pool of threads, print in order.
#include "cli/jobs/batch_instrument.h"

#include <charconv>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <thread>

#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "cli/common.h"
#include "cli/jobs/file_copy.h"
#include "cli/jobs/heap_policy.h"
#include "cli/jobs/interrupts.h"
#include "cli/output/json_writer.h"
#include "instrument/pdb_files.h"
#include "metadata/text_encoding.h"
#include "support/file_io.h"

namespace cil::cli {

namespace {

namespace fs = std::filesystem;

using instrument::pdb_beside;

/// Whether a PDB may be written beside the output of `file`: the input has one beside it, or
/// --pdb named one.
bool may_write_pdb(const PlannedFile& file, const std::string& pdb_arg) { return !file.pdb.empty() || (!pdb_arg.empty() && pdb_arg != "none"); }

void record_common(JsonWriter& json, const PlannedFile& file, const std::string& output, std::string_view status) {
  json.begin_object(true);
  json.key("input").value(file.input);
  json.key("output").value(output);
  json.key("status").value(status);
}

}  // namespace

JobResult process_file(const PlannedFile& file, const std::string& output, const BatchSetup& setup, FileDone& done) {
  JobResult result;
  if (setup.confinement) {
    // Checked before the run began; again here, where the directories are made, one at a time.
    auto placed = setup.confinement->check_under(setup.out_dir, file.relative, true);
    Status pdb_placed = ok();
    if (placed && may_write_pdb(file, setup.instrument.pdb_arg))
      if (auto pdb = setup.confinement->check_under(setup.out_dir, pdb_beside(file.relative), false); !pdb) pdb_placed = pdb.error();
    if (!placed || !pdb_placed) {
      const Error& refusal = placed ? pdb_placed.error() : placed.error();
      result.err += diagnostic_line("error", refusal.file, refusal.to_string());
      result.exit = kExitOutput;
      done.status = FileStatus::Failed;
      return result;
    }
  } else {
    std::error_code ec;
    fs::create_directories(fs::path(output).parent_path(), ec);
  }
  Choice choice;
  if (!setup.hooks_path.empty() && same_file(file.input, setup.hooks_path)) choice.reason = "the hooks assembly";
  else choice = choose_file(file, setup.filter);

  std::optional<Error> failure = choice.error;
  InstrumentOutcome outcome;
  if (choice.instrument) {
    outcome = instrument_file(file.input, output, setup.instrument, std::move(choice.module));
    result.err += outcome.diagnostics;
    if (outcome.error && outcome.error->kind == ErrorKind::Unsupported) {
      // Valid input the tool will not rewrite (mixed-mode, already instrumented): left as it is.
      choice.reason = outcome.error->to_string();
      outcome.error.reset();
      result.err.clear();
      result.err += diagnostic_line("warning", file.input, choice.reason + "; left unchanged");
    } else if (outcome.error) {
      failure = outcome.error;
      result.exit = outcome.exit;
    }
  } else if (failure) {
    result.err += diagnostic_line("error", failure->file, failure->to_string());
    result.exit = exit_code_for(*failure);
  }
  bool instrumented = choice.instrument && outcome.report.has_value();
  // An output that could not be written (its own line is out already) would fail the copy in the
  // same way and say so a second time.
  bool output_failed = failure && (failure->file == output || failure->file == pdb_beside(output));
  if (!instrumented && setup.copy_unchanged && !output_failed) {
    // Left as it is (or failed): the output folder still gets the original, so it runs as before.
    Status copied = copy_file(file.input, output, setup.instrument.interruptible);
    if (copied && !file.pdb.empty()) copied = copy_file(file.pdb, pdb_beside(output), setup.instrument.interruptible);
    if (!copied) {
      // An input that could not be read to be instrumented cannot be read to be copied either:
      // its line is out already, and the same line twice says nothing more.
      std::string line = diagnostic_line("error", copied.error().file, copied.error().to_string());
      if (!failure || line != diagnostic_line("error", failure->file, failure->to_string())) result.err += line;
      if (result.exit == 0) result.exit = copied.error().file == file.input || copied.error().file == file.pdb ? kExitBadInput : kExitOutput;
      if (!failure) failure = copied.error();
    }
  }
  done.status = instrumented ? FileStatus::Instrumented : failure ? FileStatus::Failed : FileStatus::Copied;
  done.wrote_pdb = instrumented && outcome.report->pdb.output == instrument::PdbOutcome::Output::Standalone;

  if (setup.json) {
    JsonWriter json;
    record_common(json, file, output, instrumented ? "instrumented" : failure ? "failed" : "copied");
    if (instrumented) {
      const instrument::InstrumentReport& r = *outcome.report;
      json.key("mode").value(setup.instrument.mode_name);
      json.key("instrumented").value(uint64_t{r.instrumented.size()});
      json.key("skipped").value(uint64_t{r.skipped.size()});
      json.key("excluded").value(uint64_t{r.excluded});
      json.key("pdb").value(done.wrote_pdb ? pdb_beside(output) : r.pdb.output == instrument::PdbOutcome::Output::Embedded ? "embedded" : "");
      const char* strong_name = strong_name_json(outcome.strong_name);
      json.key("strongName");
      if (strong_name) json.value(strong_name);
      else json.null();
      json.key("selfCheck").begin_object(true);
      json.key("ran").value(outcome.check.has_value());
      if (outcome.check) {
        json.key("tables").value(uint64_t{outcome.check->tables});
        json.key("rows").value(outcome.check->rows);
        json.key("bodies").value(uint64_t{outcome.check->bodies});
        json.key("tokens").value(outcome.check->tokens);
        json.key("pdb").value(outcome.check->pdb);
      }
      json.end_object();
      json.key("warnings").begin_array(true);
      for (const auto& w : r.warnings) json.value(w);
      json.end_array();
    } else if (failure) {
      json.key("error").value(failure->to_string());
    } else {
      json.key("reason").value(choice.reason);
    }
    json.end_object();
    for (const auto& piece : json.text().pieces()) result.out += piece;
  } else if (instrumented) {
    size_t n = outcome.report->instrumented.size();
    result.out += fmt::format("{}: instrumented {} method{} ({} mode)\n", md::printable(output), n, n == 1 ? "" : "s",
                              setup.instrument.mode_name);
  }
  return result;
}

Status check_outputs(const std::vector<PlannedFile>& files, const std::string& out_dir, const WriteConfinement& confinement,
                     bool pdb_given) {
  for (const auto& file : files) {
    if (auto placed = confinement.check_under(out_dir, file.relative, false); !placed) return placed.error();
    if (!file.pdb.empty() || pdb_given)
      if (auto placed = confinement.check_under(out_dir, pdb_beside(file.relative), false); !placed) return placed.error();
  }
  return ok();
}

unsigned default_jobs() {
  unsigned cores = std::thread::hardware_concurrency();
  return std::clamp(cores, 1u, kMaxWritingThreads);
}

std::optional<unsigned> parse_jobs(const std::string& text) {
  unsigned value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value == 0 || value > kMaxWritingThreads) return std::nullopt;
  return value;
}

int run_batch(const std::vector<PlannedFile>& files, const std::string& out_dir, const BatchSetup& setup) {
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec || !fs::is_directory(out_dir, ec)) {
    std::string line = diagnostic_line("error", out_dir, fmt::format("cannot create the output directory: {}", ec ? ec.message() : "not a directory"));
    std::fwrite(line.data(), 1, line.size(), stderr);
    return kExitOutput;
  }
  if (setup.instrument.interruptible) interruptible_output();  // the handlers, before any thread
  keep_heap();  // memory kept from file to file, set before any thread starts
  auto started = std::chrono::steady_clock::now();
  bool tty = ::isatty(STDOUT_FILENO) == 1 && !setup.json;
  auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(); };
  size_t instrumented = 0, copied = 0, failed = 0;
  std::vector<FileDone> dones(files.size());
  bool stdout_ok = true;
  auto output_of = [&](size_t i) { return (fs::path(out_dir) / files[i].relative).string(); };
  OrderedRun run = run_ordered(
      files.size(), setup.threads, setup.fail_fast,
      [&](size_t i) { return process_file(files[i], output_of(i), setup, dones[i]); },
      [&](size_t i, const JobResult& r) {
        switch (dones[i].status) {
          case FileStatus::Instrumented: ++instrumented; break;
          case FileStatus::Copied: ++copied; break;
          case FileStatus::Failed: ++failed; break;
        }
        if (tty) std::fputs("\r\033[K", stdout);
        std::fflush(stdout);
        std::fwrite(r.err.data(), 1, r.err.size(), stderr);
        if (stdout_ok && !r.out.empty()) stdout_ok = write_stdout(r.out);
      },
      [&](size_t done) {
        if (!tty) return;
        double s = seconds();
        std::fprintf(stdout, "\r\033[K[%zu/%zu] %.1f files/s", done, files.size(), s > 0 ? done / s : 0.0);
        std::fflush(stdout);
      });
  if (tty) std::fputs("\r\033[K", stdout);
  size_t not_run = files.size() - run.jobs_run;
  if (not_run) {
    std::string line = diagnostic_line("error", "", fmt::format("--fail-fast: stopped after a failure; {} file{} not processed", not_run, not_run == 1 ? "" : "s"));
    std::fwrite(line.data(), 1, line.size(), stderr);
  }
  if (!setup.json && stdout_ok) {
    double s = seconds();
    stdout_ok = write_stdout(fmt::format("{} file{}: {} instrumented, {} copied unchanged, {} failed in {:.0f} ms ({:.1f} files/s)\n",
                                         files.size(), files.size() == 1 ? "" : "s", instrumented, copied, failed, s * 1000,
                                         s > 0 ? run.jobs_run / s : 0.0));
  }
  if (run.first_failure) return run.first_failure;
  if (not_run) return kExitBadInput;
  return stdout_ok ? kExitOk : kExitOutput;
}

}  // namespace cil::cli
