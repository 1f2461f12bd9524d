// One input instrumented into one output: load, rewrite, write the PDB, then put the output in place.
#include "cli/jobs/instrument_job.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "cli/jobs/break_output.h"
#include "cli/common.h"
#include "cli/jobs/deps_file.h"
#include "cli/jobs/heap_policy.h"
#include "cli/jobs/interrupts.h"
#include "cli/commands/pdb_options.h"
#include "metadata/sha1.h"
#include "metadata/text_encoding.h"
#include "pe/strong_name.h"
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

/// `outcome` is taken by reference, not by value: callers pass `outcome.output_pdb` in the same
/// call, and a by-value parameter could be moved from before that argument is read (clang
/// evaluates arguments left to right, g++ right to left).
InstrumentOutcome failed(InstrumentOutcome&& outcome, Error error, std::string_view output) {
  outcome.diagnostics += diagnostic_line("error", error.file, error.to_string());
  outcome.exit = !output.empty() && error.file == output ? kExitOutput : exit_code_for(error);
  outcome.error = std::move(error);
  outcome.report.reset();
  return std::move(outcome);
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
Status break_on_purpose(const std::string& what, std::span<uint8_t> bytes, std::span<uint8_t> pdb, const instrument::InstrumentReport& report) {
  auto planned = plan_breakage(what, bytes, report.instrumented, !pdb.empty());
  if (!planned) return planned.error();
  if (!*planned) return ok();
  const Breakage& b = **planned;
  std::span<uint8_t> target = b.in_pdb ? pdb : bytes;
  std::copy(b.bytes.begin(), b.bytes.end(), target.begin() + static_cast<ptrdiff_t>(b.offset));
  return ok();
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
  {
    // The heap the job will touch, made ready at once; the PDB counted is the one the job reads
    // when it is where it is looked for first.
    std::error_code ec;
    uint64_t pdb_bytes = 0;
    if (setup.pdb_arg != "none") {
      pdb_bytes = std::filesystem::file_size(setup.pdb_arg.empty() ? without_extension(input) + ".pdb" : setup.pdb_arg, ec);
      if (ec) pdb_bytes = 0;
    }
    ready_heap(expected_heap(m.tables().rows(md::TableId::MethodDef), pdb_bytes));
  }
  auto key = signing_key(m, setup.key_path, setup.delay_sign);
  if (!key) return failed(std::move(outcome), in_file(std::move(key).error(), input), output);
  // Written to a file beside OUTPUT that takes its name only when complete (FILES in the man page).
  OutputOptions file_options = setup.interruptible ? interruptible_output() : OutputOptions{};
  OutputFile file(output, file_options);
  OutputSink sink(file);
  instrument::InstrumentOptions opts = setup.options;
  opts.sink = &sink;
  opts.strong_name = key->has_value();
  opts.pdb = pdb_options(setup.pdb_arg, input, outcome.output_pdb);
  auto report = instrument::instrument_module(m, opts);
  // What fails inside the job is about the input, unless the sink already named the output.
  if (!report) return failed(std::move(outcome), in_file(std::move(report).error(), input), output);
  Status written = file.write_pieces(report->output.pieces(), m.copy_source());
  if (!written) return failed(std::move(outcome), in_file(std::move(written).error(), output), output);
  std::optional<OutputFile> pdb_file;
  if (report->pdb.output == instrument::PdbOutcome::Output::Standalone) {
    pdb_file.emplace(outcome.output_pdb, file_options);
    Status pdb_written = pdb_file->write_pieces(report->pdb.standalone.pieces());
    if (!pdb_written) return failed(std::move(outcome), in_file(std::move(pdb_written).error(), outcome.output_pdb), outcome.output_pdb);
  }
  // The bytes are in the files now: the pieces the output was made of (the new bodies, the
  // rewritten metadata, the PDB) are let go before the self-check maps the files back. Most
  // pieces are views of the input, so this saves little (1.5 MB of 75 MB peak on the 11.5 MB
  // BenchDebug in coverage mode; see bench/README.md, coverage's memory).
  const uint64_t output_size = report->output.size();
  const uint64_t pdb_size = report->pdb.standalone.size();
  report->output = pe::OutputImage{};
  report->pdb.standalone = pe::OutputImage{};
  // Coverage mode: the heap they were in (kept by keep_heap) goes back to the system before the
  // check maps the output and reads the PDB back, so that the peak stays the writing's (issue
  // 15's bound, tests/scripts/memory_test.sh). Count mode's check adds nothing to the peak with
  // the heap kept, and making it again would cost 5 ms of mscorlib's 55 (bench/README.md).
  if (setup.options.mode == instrument::Mode::Coverage) release_free_heap();
  // Finishing, on the temporary files mapped back: what is signed and checked is what will be
  // renamed.
  const char* break_what = std::getenv(kBreakOutputVariable);  // test-only (man page, ENVIRONMENT)
  if (m.cli().flags & pe::kComImageStrongNameSigned) outcome.strong_name = StrongName::Removed;
  if (*key || setup.verify || break_what) {
    auto mapped = file.map_back(output_size);
    if (!mapped) return failed(std::move(outcome), in_file(std::move(mapped).error(), output), output);
    std::span<uint8_t> bytes = mapped->bytes();
    if (*key) {
      // Writes into the mapping are writes to the file.
      auto changed = pe::finish_strong_name(bytes, **key, setup.delay_sign);
      if (!changed) return failed(std::move(outcome), in_file(std::move(changed).error(), output), output);
      outcome.strong_name = setup.delay_sign ? StrongName::DelaySigned : StrongName::Signed;
      outcome.key_token = hex(md::public_key_token((*key)->assembly_public_key()));
    }
    std::optional<OutputFile::Mapping> pdb_mapped;
    std::span<uint8_t> pdb_bytes;
    if (pdb_file && (setup.verify || break_what)) {
      auto read = pdb_file->map_back(pdb_size);
      if (!read) return failed(std::move(outcome), in_file(std::move(read).error(), outcome.output_pdb), outcome.output_pdb);
      pdb_mapped.emplace(std::move(*read));
      pdb_bytes = pdb_mapped->bytes();
    }
    if (break_what) {
      Status broken = break_on_purpose(break_what, bytes, pdb_bytes, *report);
      if (!broken) return failed(std::move(outcome), std::move(broken).error(), output);
    }
    if (setup.verify) {
      instrument::OutputExpectations expect;
      expect.rewritten = report->instrumented;
      expect.input_methods = m.tables().rows(md::TableId::MethodDef);
      expect.embedded_pdb = report->pdb.output == instrument::PdbOutcome::Output::Embedded;
      expect.standalone_pdb = pdb_bytes;
      expect.signed_with = *key && !setup.delay_sign ? &**key : nullptr;
      // Peak memory: the pages the check has read go back as it goes, and so do the input's (all
      // read by now; what is read of it later comes from the file again). Each mapping only lets
      // go of its own ranges.
      if (!std::getenv(kKeepCheckPagesVariable)) {  // test-only (man page, ENVIRONMENT)
        expect.release = [&](std::span<const uint8_t> part) {
          mapped->release_pages(part);
          if (pdb_mapped) pdb_mapped->release_pages(part);
        };
        m.release_pages();
      }
      auto checked = instrument::check_output(bytes, expect);
      if (!checked) {
        // The temporary files are removed: nothing takes the names.
        file.abandon();
        if (pdb_file) pdb_file->abandon();
        outcome.diagnostics += diagnostic_line(
            "internal error", output,
            fmt::format("the output failed its self-check, so it was not written: {} (--no-verify skips the check)", checked.error().to_string()));
        outcome.exit = kExitInternal;
        outcome.error = std::move(checked).error();
        outcome.report.reset();
        return outcome;
      }
      outcome.check = *checked;
    }
  }
  // Trace mode: the deps.json files that load the output and the hooks copy they name, all
  // written to temporary files before anything takes its name, and put in place before the
  // output (all or nothing: deps_file.h).
  std::optional<TraceCompanions> companions;
  if (setup.options.hooks && setup.deps_arg != "none") {
    const instrument::HookContract& hooks = *setup.options.hooks;
    DepsLibrary library{hooks.assembly,
                        fmt::format("{}.{}.{}.{}", hooks.version[0], hooks.version[1], hooks.version[2], hooks.version[3]),
                        std::filesystem::path(setup.hooks_path).filename().string()};
    auto about = [&](const Error& e) { return e.structure == kTraceFilesStructure ? e.file : output; };
    auto prepared = TraceCompanions::prepare(input, output, setup.deps_arg, setup.hooks_path, library, file_options);
    if (!prepared) return failed(std::move(outcome), prepared.error(), about(prepared.error()));
    companions.emplace(std::move(*prepared));
    if (Status placed = companions->commit(); !placed) return failed(std::move(outcome), placed.error(), about(placed.error()));
  }
  // The PDB first: an assembly is never left naming a PDB that was not written.
  if (pdb_file) {
    Status pdb_written = pdb_file->commit();
    if (!pdb_written) {
      if (companions) companions->roll_back();
      return failed(std::move(outcome), in_file(std::move(pdb_written).error(), outcome.output_pdb), outcome.output_pdb);
    }
  }
  written = file.commit();
  if (!written) {
    if (companions) companions->roll_back();
    return failed(std::move(outcome), in_file(std::move(written).error(), output), output);
  }
  if (companions) {
    outcome.deps_found = companions->deps_found();
    outcome.deps_updated = companions->deps_updated();
    outcome.hooks_copied = companions->hooks_copied();
  }
  outcome.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  for (const auto& w : report->warnings) outcome.diagnostics += diagnostic_line("warning", input, w);
  // One line on stderr for bodies the input got wrong, as dump gives, so that CI logs show it.
  size_t malformed = 0;
  const instrument::SkippedMethod* first = nullptr;
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
