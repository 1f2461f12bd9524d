// `cil-instrument [instrument] IN -o OUT [--mode M] [--include P]... [--exclude P]...
// [--method-rva RVA]... [--pdb PATH|none] [--key FILE.snk] [--delay-sign] [--no-verify] [--json]`:
// rewrite the chosen methods, write a new assembly and its PDB beside it, sign it, and read both
// back before they take their names.
#include <chrono>
#include <cstdlib>
#include <map>

#include <sys/stat.h>

#include <fmt/format.h>

#include <cxxopts.hpp>

#include "cli/break_output.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/interrupts.h"
#include "cli/pdb_options.h"
#include "cli/scoped_printer.h"
#include "il/instrumenter.h"
#include "il/output_check.h"
#include "metadata/module.h"
#include "metadata/printer.h"
#include "metadata/sha1.h"
#include "metadata/text_encoding.h"
#include "pe/strong_name.h"
#include "support/file_io.h"

namespace cil::cli {

namespace {

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {}, sb {};
  return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

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

/// A PDB id as its GUID and stamp: what the output's CodeView entry names.
std::string pdb_id_text(const md::PdbId& id) {
  md::Guid guid{};
  std::copy(id.begin(), id.begin() + 16, guid.begin());
  return fmt::format("{}-{:08x}", md::format_guid(guid), load_le<uint32_t>(id.data() + 16));
}

std::optional<il::Mode> parse_mode(const std::string& name) {
  if (name == "count") return il::Mode::Count;
  if (name == "noop") return il::Mode::Noop;
  if (name == "wrap") return il::Mode::Wrap;
  if (name == "trace") return il::Mode::Trace;
  if (name == "coverage") return il::Mode::Coverage;
  return std::nullopt;
}

/// Methods without IL to rewrite are counted by reason; the others (native or OPTIL code, bodies
/// that could not be read or rewritten) are counted as "could not be rewritten" and each listed.
bool counted_by_reason(il::SkipReason reason) {
  switch (reason) {
    case il::SkipReason::RuntimeImplemented:
    case il::SkipReason::Abstract:
    case il::SkipReason::PInvoke:
    case il::SkipReason::InternalCall:
    case il::SkipReason::Extern: return true;
    default: return false;
  }
}

std::optional<uint32_t> parse_rva(const std::string& text) {
  try {
    size_t used = 0;
    unsigned long value = std::stoul(text, &used, 0);
    if (used != text.size() || value > 0xFFFFFFFF) return std::nullopt;
    return static_cast<uint32_t>(value);
  } catch (...) {
    return std::nullopt;
  }
}

/// What became of the strong name, for the summary.
enum class StrongName { None, Removed, Signed, DelaySigned };

/// What was asked and what the finishing steps did, for the summary.
struct Job {
  const std::string& input;
  const std::string& output;
  const std::string& output_pdb;  ///< where a standalone PDB goes
  std::string mode;
  double milliseconds;
  StrongName strong_name = StrongName::None;
  std::string key_token;  ///< the public key token of the signing key, in hex
  std::optional<il::OutputCheckStats> check;  ///< the self-check's work, when it ran
};

/// The strong name's fate: in text one line when --key was given, in JSON always.
void print_strong_name(ScopedPrinter& p, const Job& job) {
  if (job.strong_name == StrongName::Signed) p.field(Key::text_only(), fmt::format("strong name: signed (public key token {})", job.key_token));
  if (job.strong_name == StrongName::DelaySigned)
    p.field(Key::text_only(), fmt::format("strong name: delay-signed (public key token {}; sign it with sn -R)", job.key_token));
  const char* state = nullptr;
  switch (job.strong_name) {
    case StrongName::None: break;
    case StrongName::Removed: state = "removed"; break;
    case StrongName::Signed: state = "signed"; break;
    case StrongName::DelaySigned: state = "delay-signed"; break;
  }
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
void print_pdb(ScopedPrinter& p, const Job& job, const il::PdbOutcome& pdb) {
  using Output = il::PdbOutcome::Output;
  if (pdb.output == Output::Standalone)
    p.field(Key::text_only(), fmt::format("PDB: {} (from {}, id {})", md::printable(job.output_pdb), md::printable(pdb.input),
                                          pdb_id_text(*pdb.id)));
  else if (pdb.output == Output::Embedded)
    p.field(Key::text_only(), fmt::format("PDB: embedded (id {})", pdb_id_text(*pdb.id)));
  ObjectScope object(p, Key::json_only("pdb"));
  p.field("input", pdb.input.empty() ? Value::null() : Value(pdb.input));
  switch (pdb.output) {
    case Output::None: p.field("output", Value::null()); break;
    case Output::Standalone: p.field("output", job.output_pdb); break;
    case Output::Embedded: p.field("output", "embedded"); break;
  }
  p.field("id", pdb.id ? Value(pdb_id_text(*pdb.id)) : Value::null());
  p.field("reason", pdb.reason.empty() ? Value::null() : Value(pdb.reason));
  p.field("claimsRemoved", pdb.claims_removed);
}

/// The summary, for both forms. The text form is a few sentences: its first line says what JSON
/// has in four members and the time (which JSON gives last); it counts the skipped methods per
/// reason and lists only those skipped for an unusual one; it does not list the instrumented
/// methods or the warnings (which go to stderr in either form). Names from the file (and the
/// output's) go through md::printable in the text form; JSON escapes them in its own way.
void print_summary(ScopedPrinter& p, const Job& job, const md::Module& m, const il::InstrumentReport& report) {
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
    for (uint32_t rid : report.instrumented) {
      ObjectScope method(p, {}, Layout().inline_json());
      p.field("token", fmt::format("0x{:08X}", md::make_token(md::TableId::MethodDef, rid)));
      p.field("name", printer.method_name(rid));
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
      ObjectScope method(p, Key().text_if(!counted_by_reason(s.reason)), Layout::one_row("          {} {}: {}"));
      p.field("token", fmt::format("0x{:08X}", md::make_token(md::TableId::MethodDef, s.rid)));
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
  p.field(Key::json_only("milliseconds"), static_cast<int64_t>(job.milliseconds + 0.5));
}

std::string hex(std::span<const uint8_t> bytes) {
  std::string out;
  for (uint8_t b : bytes) out += fmt::format("{:02x}", b);
  return out;
}

/// The key the output is signed with (or delay-signed for), checked against the assembly before
/// any work; nullopt when the output is not to carry a strong name. Without --key, --delay-sign
/// takes the assembly's own public key.
Expected<std::optional<pe::StrongNameKey>> signing_key(const md::Module& m, const std::string& key_path, bool delay_sign) {
  if (key_path.empty() && !delay_sign) return std::optional<pe::StrongNameKey>();
  auto refuse = [](std::string message) { return make_error(ErrorKind::Unsupported, "Assembly row", std::move(message)); };
  if (!m.tables().rows(md::TableId::Assembly)) return refuse("absent: a module without an assembly manifest has no strong name");
  auto blob = m.row<md::TableId::Assembly>(1).public_key();
  if (!blob) return blob.error();
  if (blob->empty()) return refuse("has no public key: only strong-named assemblies are re-signed (their space for the signature is kept)");
  if (!m.cli().strong_name_signature.present())
    return make_error(ErrorKind::Unsupported, "CLI header", "has no space for a strong-name signature (its StrongNameSignature directory is empty)");
  auto assembly_key = pe::parse_strong_name_key(*blob);
  if (!assembly_key) return make_error(ErrorKind::Unsupported, "Assembly row", fmt::format("its public key is not an RSA key the tool can read: {}", assembly_key.error().message));
  std::string assembly_token = hex(md::public_key_token(*blob));
  pe::StrongNameKey key;
  if (key_path.empty()) {
    key = std::move(*assembly_key);
  } else {
    auto bytes = read_file(key_path, 1 << 20);
    if (!bytes) return in_file(std::move(bytes).error(), key_path);
    auto parsed = pe::parse_strong_name_key(*bytes);
    if (!parsed) return in_file(std::move(parsed).error(), key_path);
    key = std::move(*parsed);
    if (!key.same_public_key(*blob))
      return in_file(make_error(ErrorKind::Usage, "strong-name key",
                                fmt::format("its public key (token {}) is not the assembly's (token {}): the output would not be the same assembly",
                                            hex(md::public_key_token(key.assembly_public_key())), assembly_token)),
                     key_path);
    if (!delay_sign && !key.has_private_key())
      return in_file(make_error(ErrorKind::Usage, "strong-name key", "holds a public key only: give the key pair, or add --delay-sign"), key_path);
  }
  if (key.signature_size() != m.cli().strong_name_signature.size)
    return make_error(ErrorKind::Unsupported, "CLI header",
                      fmt::format("the StrongNameSignature space has {} bytes; the key's signatures have {}", m.cli().strong_name_signature.size,
                                  key.signature_size()));
  return std::optional(std::move(key));
}

/// The test-only breakage (kBreakOutputVariable), written to the mapped output (or its PDB).
Status break_on_purpose(const std::string& what, std::span<uint8_t> bytes, std::span<uint8_t> pdb, const il::InstrumentReport& report) {
  auto planned = plan_breakage(what, bytes, report.instrumented, !pdb.empty());
  if (!planned) return planned.error();
  if (!*planned) return ok();
  const Breakage& b = **planned;
  std::span<uint8_t> target = b.in_pdb ? pdb : bytes;
  std::copy(b.bytes.begin(), b.bytes.end(), target.begin() + static_cast<ptrdiff_t>(b.offset));
  return ok();
}

}  // namespace

int run_instrument(int argc, char** argv) {
  cxxopts::Options options("cil-instrument instrument", "Instrument the methods of an assembly and write a new one.");
  options.add_options()
      ("o,output", "output assembly (required)", cxxopts::value<std::string>(), "OUT")
      ("mode", "count (default), coverage, trace, noop or wrap", cxxopts::value<std::string>()->default_value("count"), "MODE")
      ("hooks", "trace mode: the assembly with the hook type", cxxopts::value<std::string>(), "HOOKS.dll")
      ("hook-type", "trace mode: the hook type, Namespace.Type (default: the one public type with hooks)", cxxopts::value<std::string>(), "TYPE")
      ("include", "instrument only methods whose Ns.Type::Method matches (repeatable)", cxxopts::value<std::vector<std::string>>(), "PATTERN")
      ("exclude", "do not instrument methods that match (repeatable)", cxxopts::value<std::vector<std::string>>(), "PATTERN")
      ("method-rva", "instrument only the method whose body is at this RVA (repeatable)", cxxopts::value<std::vector<std::string>>(), "RVA")
      ("pdb", "the input's portable PDB (default: the embedded one, else IN.pdb beside the input); none: write no debug information", cxxopts::value<std::string>(), "PATH|none")
      ("exclude-by-file", "coverage mode: do not instrument methods whose source matches (repeatable)", cxxopts::value<std::vector<std::string>>(), "GLOB")
      ("exclude-by-attribute", "coverage mode: do not instrument methods and types with this attribute (repeatable; ExcludeFromCodeCoverage always)", cxxopts::value<std::vector<std::string>>(), "NAME")
      ("key", "re-sign the strong-named output with this key pair (.snk); with --delay-sign, a public key will do", cxxopts::value<std::string>(), "FILE.snk")
      ("delay-sign", "leave the output delay-signed: StrongNameSigned set, signature space zero (sign it later with sn -R)")
      ("no-verify", "do not read the output back before it takes its name")
      ("json", "print the summary as JSON")
      ("h,help", "show this help")
      ("input", "assembly", cxxopts::value<std::string>());
  options.parse_positional({"input"});
  options.positional_help("IN");
  cxxopts::ParseResult args;
  if (auto done = parse_options(options, argc, argv, args)) return *done;
  if (!args.count("input")) {
    print_usage_error("missing input assembly");
    return kExitUsage;
  }
  if (!args.count("output")) {
    print_usage_error("missing -o OUT");
    return kExitUsage;
  }
  std::string input = args["input"].as<std::string>();
  std::string output = args["output"].as<std::string>();
  il::InstrumentOptions opts;
  auto mode = parse_mode(args["mode"].as<std::string>());
  if (!mode) {
    print_usage_error(fmt::format("unknown mode '{}' (count, coverage, trace, noop or wrap)", args["mode"].as<std::string>()));
    return kExitUsage;
  }
  opts.mode = *mode;
  if (args.count("include")) opts.filter.include = args["include"].as<std::vector<std::string>>();
  if (args.count("exclude")) opts.filter.exclude = args["exclude"].as<std::vector<std::string>>();
  if (args.count("method-rva")) {
    for (const auto& text : args["method-rva"].as<std::vector<std::string>>()) {
      auto rva = parse_rva(text);
      if (!rva) {
        print_usage_error(fmt::format("--method-rva: '{}' is not an RVA", text));
        return kExitUsage;
      }
      opts.method_rvas.push_back(*rva);
    }
  }
  if (same_file(input, output)) {
    print_usage_error("the output must not be the input: the input is never modified");
    return kExitUsage;
  }
  // OUT.pdb beside the output: the name its CodeView entry gives and the runtime looks for.
  std::string output_pdb = without_extension(output) + ".pdb";
  if (args.count("pdb") && args["pdb"].as<std::string>() != "none" && same_file(args["pdb"].as<std::string>(), output_pdb)) {
    print_usage_error(fmt::format("the output's PDB ({}) must not be the input's: the input is never modified", output_pdb));
    return kExitUsage;
  }

  if (args.count("exclude-by-file")) opts.coverage.exclude_by_file = args["exclude-by-file"].as<std::vector<std::string>>();
  if (args.count("exclude-by-attribute")) opts.coverage.exclude_by_attribute = args["exclude-by-attribute"].as<std::vector<std::string>>();
  if ((args.count("exclude-by-file") || args.count("exclude-by-attribute")) && opts.mode != il::Mode::Coverage) {
    print_usage_error("--exclude-by-file and --exclude-by-attribute go with --mode coverage");
    return kExitUsage;
  }
  if ((opts.mode == il::Mode::Trace) != static_cast<bool>(args.count("hooks"))) {
    print_usage_error(opts.mode == il::Mode::Trace ? "--mode trace needs --hooks HOOKS.dll" : "--hooks goes with --mode trace");
    return kExitUsage;
  }
  if (args.count("hooks") && same_file(args["hooks"].as<std::string>(), output)) {
    print_usage_error("the output must not be the hooks assembly: the hooks assembly is never modified");
    return kExitUsage;
  }
  // Refused before the work, and again when the output is put in place.
  if (Status usable = OutputFile::check_destination(output); !usable) {
    return fail(in_file(usable.error(), output), output);
  }

  auto started = std::chrono::steady_clock::now();
  std::unique_ptr<md::Module> hooks_module;
  std::optional<il::HookContract> contract;
  if (opts.mode == il::Mode::Trace) {
    std::string hooks_path = args["hooks"].as<std::string>();
    auto loaded = load_module(hooks_path);
    if (!loaded) return fail(loaded.error());
    hooks_module = std::move(*loaded);
    std::optional<std::string> hook_type;
    if (args.count("hook-type")) hook_type = args["hook-type"].as<std::string>();
    auto read = il::read_hook_contract(*hooks_module, hook_type);
    if (!read) return fail(in_file(read.error(), hooks_path));
    contract = std::move(*read);
    opts.hooks = &*contract;
  }
  auto module = load_module(input);
  if (!module) return fail(module.error());
  bool delay_sign = args.count("delay-sign") != 0;
  auto key = signing_key(**module, args.count("key") ? args["key"].as<std::string>() : "", delay_sign);
  if (!key) return fail(in_file(key.error(), input));
  opts.strong_name = key->has_value();
  bool verify = !args.count("no-verify");
  // Test-only (man page, ENVIRONMENT): breaks the output before the self-check.
  const char* break_what = std::getenv(kBreakOutputVariable);
  // Written to a file beside OUTPUT that takes its name only when complete (FILES in the man page).
  OutputFile file(output, interruptible_output());
  OutputSink sink(file);
  opts.sink = &sink;
  opts.pdb = pdb_options(args.count("pdb") ? args["pdb"].as<std::string>() : "", input, output_pdb);
  auto report = il::instrument(**module, opts);
  // What fails inside the job is about the input, unless the sink already named the output.
  if (!report) return fail(in_file(report.error(), input), output);
  Status written = file.write_pieces(report->output.pieces(), (*module)->copy_source());
  if (!written) return fail(in_file(written.error(), output), output);
  std::optional<OutputFile> pdb_file;
  if (report->pdb.output == il::PdbOutcome::Output::Standalone) {
    pdb_file.emplace(output_pdb, interruptible_output());
    Status pdb_written = pdb_file->write_pieces(report->pdb.standalone.pieces());
    if (!pdb_written) return fail(in_file(pdb_written.error(), output_pdb), output_pdb);
  }
  // Finishing, on the temporary files mapped back: what is signed and checked is what will be
  // renamed.
  Job job{input, output, output_pdb, args["mode"].as<std::string>(), 0};
  if ((*module)->cli().flags & pe::kComImageStrongNameSigned) job.strong_name = StrongName::Removed;
  if (*key || verify || break_what) {
    auto mapped = file.map_back(report->output.size());
    if (!mapped) return fail(in_file(mapped.error(), output), output);
    std::span<uint8_t> bytes = mapped->bytes();
    if (*key) {
      // Writes into the mapping are writes to the file.
      auto changed = pe::finish_strong_name(bytes, **key, delay_sign);
      if (!changed) return fail(in_file(changed.error(), output), output);
      job.strong_name = delay_sign ? StrongName::DelaySigned : StrongName::Signed;
      job.key_token = hex(md::public_key_token((*key)->assembly_public_key()));
    }
    std::optional<OutputFile::Mapping> pdb_mapped;
    std::span<uint8_t> pdb_bytes;
    if (pdb_file && (verify || break_what)) {
      auto read = pdb_file->map_back(report->pdb.standalone.size());
      if (!read) return fail(in_file(read.error(), output_pdb), output_pdb);
      pdb_mapped.emplace(std::move(*read));
      pdb_bytes = pdb_mapped->bytes();
    }
    if (break_what) {
      Status broken = break_on_purpose(break_what, bytes, pdb_bytes, *report);
      if (!broken) return fail(broken.error());
    }
    if (verify) {
      il::OutputExpectations expect;
      expect.rewritten = report->instrumented;
      expect.input_methods = (*module)->tables().rows(md::TableId::MethodDef);
      expect.embedded_pdb = report->pdb.output == il::PdbOutcome::Output::Embedded;
      expect.standalone_pdb = pdb_bytes;
      expect.signed_with = *key && !delay_sign ? &**key : nullptr;
      auto checked = il::check_output(bytes, expect);
      if (!checked) {
        // The temporary files are removed: nothing takes the names.
        file.abandon();
        if (pdb_file) pdb_file->abandon();
        std::string line = diagnostic_line("internal error", output,
                                           fmt::format("the output failed its self-check, so it was not written: {} (--no-verify skips the check)",
                                                       checked.error().to_string()));
        std::fwrite(line.data(), 1, line.size(), stderr);
        return kExitInternal;
      }
      job.check = *checked;
    }
  }
  // The PDB first: an assembly is never left naming a PDB that was not written.
  if (pdb_file) {
    Status pdb_written = pdb_file->commit();
    if (!pdb_written) return fail(in_file(pdb_written.error(), output_pdb), output_pdb);
  }
  written = file.commit();
  if (!written) return fail(in_file(written.error(), output), output);
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  for (const auto& w : report->warnings) print_warning(input, w);
  // One line on stderr for bodies the input got wrong, as dump gives, so that CI logs show it.
  size_t malformed = 0;
  const il::SkippedMethod* first = nullptr;
  for (const auto& s : report->skipped) {
    if (!s.malformed()) continue;
    if (malformed++ == 0) first = &s;
  }
  if (first)
    print_warning(input, fmt::format("{} method bod{} could not be read and {} left as in the input; the first: 0x{:08X} {}: {}",
                                     malformed, malformed == 1 ? "y" : "ies", malformed == 1 ? "was" : "were",
                                     md::make_token(md::TableId::MethodDef, first->rid),
                                     md::clip_text(first->name, md::kMaxQuotedText), first->text()));

  auto printer = make_printer(args.count("json") != 0);
  job.milliseconds = ms;
  print_summary(*printer, job, **module, *report);
  // OUT is in place by now: a summary that cannot be printed must not hide that.
  return write_stdout(printer->output(), fmt::format("{} was written", output)) ? kExitOk : kExitOutput;
}

}  // namespace cil::cli
