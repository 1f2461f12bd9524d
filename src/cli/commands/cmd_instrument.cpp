// `cil-instrument [instrument] IN... -o OUT [--mode M] [--include P]... [--exclude P]...
// [--method-rva RVA]... [--pdb PATH|none] [--key FILE.snk] [--delay-sign] [--no-verify] [--json]`:
// rewrite the chosen methods, write new assemblies and their PDBs beside them, sign them, and
// read both back before they take their names.
#include <cstdio>
#include <filesystem>
#include <map>

#include <sys/stat.h>

#include <fmt/format.h>

#include <cxxopts.hpp>

#include "cli/commands/commands.h"
#include "cli/common.h"
#include "cli/jobs/heap_policy.h"
#include "cli/jobs/batch_instrument.h"
#include "cli/jobs/file_copy.h"
#include "cli/jobs/instrument_job.h"
#include "cli/commands/instrument_options.h"
#include "instrument/pdb_files.h"
#include "cli/output/scoped_printer.h"
#include "instrument/instrumenter.h"
#include "metadata/module.h"
#include "metadata/printer.h"
#include "metadata/text_encoding.h"
#include "support/file_io.h"
#include "support/write_confinement.h"

namespace cil::cli {

namespace {

/// Methods without IL to rewrite are counted by reason; the others (native or OPTIL code, bodies
/// that could not be read or rewritten) are counted as "could not be rewritten" and each listed.
bool counted_by_reason(instrument::SkipReason reason) {
  switch (reason) {
    case instrument::SkipReason::RuntimeImplemented:
    case instrument::SkipReason::Abstract:
    case instrument::SkipReason::PInvoke:
    case instrument::SkipReason::InternalCall:
    case instrument::SkipReason::Extern: return true;
    default: return false;
  }
}

/// What was asked and what the finishing steps did, for the summary.
struct Job {
  const std::string& input;
  const std::string& output;
  const std::string& output_pdb;  ///< where a standalone PDB goes
  std::string mode;
  double milliseconds;
  StrongName strong_name = StrongName::None;
  std::string key_token;  ///< the public key token of the signing key, in hex
  std::optional<instrument::OutputCheckStats> check;  ///< the self-check's work, when it ran
  std::vector<std::string> deps_updated;  ///< trace mode: the deps.json files given the hooks
  std::string hooks_copied;               ///< where the hooks assembly was copied
};

/// Trace mode's deps.json files: in text a line each for what changed, in JSON always.
void print_deps(ScopedPrinter& p, const Job& job) {
  for (const auto& path : job.deps_updated)
    p.field(Key::text_only(), fmt::format("deps: the hooks assembly added to {}", md::printable(path)));
  if (!job.hooks_copied.empty()) p.field(Key::text_only(), fmt::format("hooks: copied to {}", md::printable(job.hooks_copied)));
  if (Key list = Key::json_only("depsUpdated"); p.shows(list)) {
    ListScope updated(p, list);
    for (const auto& path : job.deps_updated) p.field({}, path);
  }
  p.field(Key::json_only("hooksCopied"), job.hooks_copied.empty() ? Value::null() : Value(job.hooks_copied));
}

/// The strong name's fate: in text one line when --key was given, in JSON always.
void print_strong_name(ScopedPrinter& p, const Job& job) {
  if (job.strong_name == StrongName::Signed) p.field(Key::text_only(), fmt::format("strong name: signed (public key token {})", job.key_token));
  if (job.strong_name == StrongName::DelaySigned)
    p.field(Key::text_only(), fmt::format("strong name: delay-signed (public key token {}; sign it with sn -R)", job.key_token));
  const char* state = strong_name_json(job.strong_name);
  p.field(Key::json_only("strongName"), state ? Value(state) : Value::null());
}

/// The self-check: in JSON whether it ran and what it read (text says nothing: it passed).
void print_check(ScopedPrinter& p, const Job& job) {
  ObjectScope object(p, Key::json_only("selfCheck"));
  p.field("ran", job.check.has_value());
  if (!job.check) return;
  p.field("tables", uint64_t{job.check->tables});
  p.field("rows", job.check->rows);
  p.field("bodies", uint64_t{job.check->bodies});
  p.field("tokens", job.check->tokens);
  p.field("pdb", job.check->pdb);
}

/// What became of the debug information: in JSON every fact (which PDB was read, written, its
/// id, or why none), in text one line when a PDB was written (warnings say the rest).
void print_pdb(ScopedPrinter& p, const Job& job, const instrument::PdbOutcome& pdb) {
  using Output = instrument::PdbOutcome::Output;
  if (pdb.output == Output::Standalone)
    p.field(Key::text_only(), fmt::format("PDB: {} (from {}, id {})", md::printable(job.output_pdb), md::printable(pdb.input),
                                          instrument::pdb_id_text(*pdb.id, instrument::PdbIdStyle::Summary)));
  else if (pdb.output == Output::Embedded)
    p.field(Key::text_only(), fmt::format("PDB: embedded (id {})", instrument::pdb_id_text(*pdb.id, instrument::PdbIdStyle::Summary)));
  ObjectScope object(p, Key::json_only("pdb"));
  p.field("input", pdb.input.empty() ? Value::null() : Value(pdb.input));
  switch (pdb.output) {
    case Output::None: p.field("output", Value::null()); break;
    case Output::Standalone: p.field("output", job.output_pdb); break;
    case Output::Embedded: p.field("output", "embedded"); break;
  }
  p.field("id", pdb.id ? Value(instrument::pdb_id_text(*pdb.id, instrument::PdbIdStyle::Summary)) : Value::null());
  p.field("reason", pdb.reason.empty() ? Value::null() : Value(pdb.reason));
  p.field("claimsRemoved", pdb.claims_removed);
}

/// The summary, for both forms. The text form is a few sentences: its first line says what JSON
/// has in four members and the time (which JSON gives last); it counts the skipped methods per
/// reason and lists only those skipped for an unusual one; it does not list the instrumented
/// methods or the warnings (which go to stderr in either form). Names from the file (and the
/// output's) go through md::printable in the text form; JSON escapes them in its own way.
void print_summary(ScopedPrinter& p, const Job& job, const md::Module& m, const instrument::InstrumentReport& report) {
  using md::printable;
  ObjectScope summary(p, {}, Layout::lines());
  size_t n = report.instrumented.size();
  p.field(Key::text_only(), fmt::format("{}: instrumented {} method{} ({} mode) in {:.0f} ms", printable(job.output), n, n == 1 ? "" : "s",
                                        job.mode, job.milliseconds));
  p.field(Key::json_only("input"), job.input);
  p.field(Key::json_only("output"), job.output);
  p.field(Key::json_only("mode"), job.mode);
  p.field(Key::json_only("instrumented"), uint64_t{n});
  p.field(Key::json_only("excluded"), uint64_t{report.excluded});
  if (Key list = Key::json_only("instrumentedMethods"); p.shows(list)) {
    ListScope instrumented(p, list);
    md::Printer printer(m);
    for (md::MethodDefId id : report.instrumented) {
      ObjectScope method(p, {}, Layout().inline_json());
      p.field("token", fmt::format("0x{:08X}", id.token()));
      p.field("name", printer.method_name(id));
    }
  }
  {
    size_t k = report.skipped.size();
    std::string heading = fmt::format("skipped {} method{}{}", k, k == 1 ? "" : "s", k ? ":" : "");
    ListScope skipped(p, "skipped", Layout::lines().with_heading(heading, false));
    std::map<std::string, uint32_t> reasons;
    for (const auto& s : report.skipped) ++reasons[counted_by_reason(s.reason) ? std::string(s.text()) : "could not be rewritten"];
    for (const auto& [reason, count] : reasons) p.field(Key::text_only(), fmt::format("  {:>6}  {}", count, printable(reason)));
    for (const auto& s : report.skipped) {
      // Text shows only those not counted above: the rest are not formatted at all (mscorlib skips
      // thousands of abstract methods).
      Key key = Key().text_if(!counted_by_reason(s.reason));
      if (!p.shows(key)) continue;
      ObjectScope method(p, key, Layout::one_row("          {} {}: {}"));
      p.field("token", fmt::format("0x{:08X}", s.method.token()));
      p.field("name", Value(s.name).text(printable(s.name)));
      p.field("reason", Value(s.text()).text(printable(s.text())));
    }
  }
  {
    ListScope warnings(p, Key::json_only("warnings"));
    for (const auto& w : report.warnings) p.field({}, w);
  }
  if (report.excluded) p.field(Key::text_only("excluded by the filters"), uint64_t{report.excluded});
  print_pdb(p, job, report.pdb);
  print_strong_name(p, job);
  print_check(p, job);
  print_deps(p, job);
  p.field(Key::json_only("milliseconds"), static_cast<int64_t>(job.milliseconds + 0.5));
}


/// The files every run reads besides its inputs: the hooks assembly, the key, --pdb's file.
WriteConfinement inputs_of(const InstrumentParse& parsed) {
  WriteConfinement confinement;
  for (const std::string* path : {&parsed.batch.hooks_path, &parsed.batch.instrument.key_path, &parsed.batch.instrument.pdb_arg})
    if (!path->empty()) confinement.add_input(*path);
  return confinement;
}

/// `instrument IN... -o OUTDIR` and `instrument DIR -o OUTDIR`.
int run_instrument_many(const std::vector<std::string>& inputs, const std::string& out_dir, InstrumentParse& parsed) {
  namespace fs = std::filesystem;
  std::error_code ec;
  for (const auto& input : inputs)
    if (fs::is_directory(input, ec) && fs::exists(out_dir, ec) && fs::equivalent(input, out_dir, ec)) {
      print_usage_error(fmt::format("the output directory must not be the input directory {} (exec instruments in place)", input));
      return kExitUsage;
    }
  if (fs::exists(out_dir, ec) && !fs::is_directory(out_dir, ec)) {
    print_usage_error(fmt::format("-o {}: several inputs or a directory need an output directory", out_dir));
    return kExitUsage;
  }
  auto files = plan_inputs(inputs, out_dir);
  if (!files) {
    if (files.error().kind == ErrorKind::Usage) print_usage_error(files.error().message);
    else print_error(files.error());
    return files.error().kind == ErrorKind::Usage ? kExitUsage : kExitBadInput;
  }
  if (parsed.batch.filter.assemblies.empty()) {
    // "My code": in a folder that holds the user's build, only that build, not the packages
    // and the test platform beside it.
    auto root = default_source_root();
    if (!root) {
      print_usage_error(root.error().message);
      return kExitUsage;
    }
    parsed.batch.filter.user_root = user_build_root(*files, *root);
    if (!parsed.batch.filter.user_root.empty()) {
      std::string line = diagnostic_line("note", "", fmt::format("instrumenting the assemblies built from sources under {}, test assemblies left out (--assemblies chooses others)", *root));
      std::fwrite(line.data(), 1, line.size(), stderr);
    }
  }
  // Every output is checked before any work, so a refused run changes nothing.
  WriteConfinement confinement = inputs_of(parsed);
  for (const auto& file : *files) {
    confinement.add_input(file.input);
    if (!file.pdb.empty()) confinement.add_input(file.pdb);
  }
  const std::string& pdb_arg = parsed.batch.instrument.pdb_arg;
  if (Status placed = check_outputs(*files, out_dir, confinement, !pdb_arg.empty() && pdb_arg != "none"); !placed) {
    print_error(placed.error());
    return placed.error().kind == ErrorKind::Usage ? kExitUsage : kExitOutput;
  }
  if (int status = load_hooks(parsed); status != kExitOk) return status;
  parsed.batch.confinement = &confinement;
  parsed.batch.out_dir = out_dir;
  return run_batch(*files, out_dir, parsed.batch);
}

}  // namespace

int run_instrument(int argc, char** argv) {
  cxxopts::Options options("cil-instrument instrument", "Instrument the methods of assemblies and write new ones.");
  options.add_options()("o,output", "output assembly, or output directory for several inputs or a directory (required; created when missing)",
                        cxxopts::value<std::string>(), "OUT");
  add_instrument_options(options);
  options.add_options()("json", "print the summary as JSON (several inputs: one record per file and line)")("h,help", "show this help")(
      "input", "assemblies or directories", cxxopts::value<std::vector<std::string>>());
  options.parse_positional({"input"});
  options.positional_help("IN... ");
  cxxopts::ParseResult args;
  if (auto done = parse_options(options, argc, argv, args)) return *done;
  InstrumentParse parsed;
  if (int status = parse_instrument_options("instrument", args, parsed); status != kExitOk) return status;
  if (!args.count("input")) {
    print_usage_error("missing input assembly");
    return kExitUsage;
  }
  if (!args.count("output")) {
    print_usage_error("missing -o OUT");
    return kExitUsage;
  }
  std::vector<std::string> inputs = args["input"].as<std::vector<std::string>>();
  std::string output = args["output"].as<std::string>();
  std::error_code ec;
  bool many = inputs.size() > 1 || std::filesystem::is_directory(inputs[0], ec) || output.ends_with('/');
  if (many) return run_instrument_many(inputs, output, parsed);
  if (!parsed.batch.filter.assemblies.empty() || !parsed.batch.filter.skip_assemblies.empty()) {
    print_usage_error("--assemblies and --skip-assemblies choose among several inputs or a directory's files");
    return kExitUsage;
  }
  const std::string& input = inputs[0];
  if (same_file(input, output)) {
    print_usage_error("the output must not be the input: the input is never modified");
    return kExitUsage;
  }
  // OUT.pdb beside the output: the name its CodeView entry gives and the runtime looks for.
  std::string output_pdb = instrument::pdb_beside(output);
  const std::string& pdb_arg = parsed.batch.instrument.pdb_arg;
  if (!pdb_arg.empty() && pdb_arg != "none" && same_file(pdb_arg, output_pdb)) {
    print_usage_error(fmt::format("the output's PDB ({}) must not be the input's: the input is never modified", output_pdb));
    return kExitUsage;
  }
  if (!parsed.batch.hooks_path.empty() && same_file(parsed.batch.hooks_path, output)) {
    print_usage_error("the output must not be the hooks assembly: the hooks assembly is never modified");
    return kExitUsage;
  }
  // Refused before the work, and again when the output is put in place.
  if (Status usable = OutputFile::check_destination(output); !usable) {
    return fail(in_file(usable.error(), output), output);
  }
  // A PDB will be written when the input has one beside it or --pdb names one.
  bool pdb_expected = pdb_arg.empty() ? std::filesystem::exists(instrument::pdb_beside(input), ec) : pdb_arg != "none";
  // The output and its PDB against every file the run reads (hard links and the PDB beside the
  // input included: `-o App.exe` beside App.dll would otherwise replace App.pdb).
  WriteConfinement confinement = inputs_of(parsed);
  confinement.add_input(input);
  confinement.add_input(instrument::pdb_beside(input));
  for (const std::string& path : {output, output_pdb}) {
    if (path == output_pdb && !pdb_expected) continue;
    if (Status usable = confinement.check_named(path); !usable) {
      if (usable.error().kind == ErrorKind::Usage) {
        print_error(usable.error());
        return kExitUsage;
      }
      return fail(usable.error(), path);
    }
  }
  // Its name must fit where OUT's does (OUT of 252 to 255 bytes without an extension gets a
  // longer OUT.pdb).
  if (pdb_expected && !name_fits(output_pdb)) {
    print_usage_error(fmt::format("-o {}: the PDB beside it, {}, would have a name longer than the file system allows; give a shorter "
                                  "output name, or --pdb none",
                                  output, instrument::file_name(output_pdb)));
    return kExitUsage;
  }
  if (int status = load_hooks(parsed); status != kExitOk) return status;
  // Missing directories of OUT are made, as folder mode makes OUTDIR (the path is the user's).
  if (auto parent = std::filesystem::path(output).parent_path(); !parent.empty()) std::filesystem::create_directories(parent, ec);

  keep_heap();
  InstrumentOutcome outcome = instrument_file(input, output, parsed.batch.instrument);
  std::fwrite(outcome.diagnostics.data(), 1, outcome.diagnostics.size(), stderr);
  if (outcome.error) return outcome.exit;
  auto printer = make_printer(parsed.batch.json);
  print_summary(*printer,
                Job{input, output, outcome.output_pdb, parsed.batch.instrument.mode_name, outcome.milliseconds, outcome.strong_name,
                    outcome.key_token, outcome.check, outcome.deps_updated, outcome.hooks_copied},
                *outcome.module, *outcome.report);
  // OUT is in place by now: a summary that cannot be printed must not hide that.
  return write_stdout(printer->output(), fmt::format("{} was written", output)) ? kExitOk : kExitOutput;
}

}  // namespace cil::cli
