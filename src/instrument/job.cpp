// One input instrumented into one output: read, rewrite, write the PDB, sign, check, then put the
// output in place.
#include "instrument/job.h"

#include <chrono>
#include <filesystem>

#include <fmt/format.h>

#include "instrument/pdb_files.h"
#include "metadata/sha1.h"
#include "metadata/text_encoding.h"
#include "pe/strong_name.h"

namespace cil::instrument {

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
  Status move_down(uint64_t file_offset, uint64_t to, uint64_t size) override {
    Status moved = file_.move_down(file_offset, to, size);
    if (!moved) return in_file(std::move(moved).error(), file_.path());
    return moved;
  }

 private:
  OutputFile& file_;
};

/// Ends the job with `error`: the output's fault when the error names `output` (the file being
/// written at that step, if any), else the input's. Nothing takes its name.
JobResult& failed(JobResult& result, Error error, std::string_view output) {
  JobFault fault = !output.empty() && error.file == output ? JobFault::Output : JobFault::Input;
  result.error = JobError{std::move(error), fault};
  result.report.reset();
  return result;
}

std::string hex(std::span<const uint8_t> bytes) {
  std::string out;
  for (uint8_t b : bytes) out += fmt::format("{:02x}", b);
  return out;
}

/// The key the output is signed with (or delay-signed for), checked against the assembly before
/// any work; nullopt when the output is not to carry a strong name. Without a key file,
/// delay-signing takes the assembly's own public key.
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

/// The bytes of the PDB the job will read, when it is where it is looked for first (0 otherwise).
uint64_t input_pdb_size(const JobSpec& spec) {
  std::string path = input_pdb_path(spec.pdb_arg, spec.input);
  if (path.empty()) return 0;
  std::error_code ec;
  uint64_t size = std::filesystem::file_size(path, ec);
  return ec ? 0 : size;
}

/// The warnings of a written output, about its input: the report's, then one line for the bodies
/// the input got wrong (as dump gives), so that CI logs show it.
void collect_warnings(const std::string& input, const InstrumentReport& report, std::vector<JobMessage>& out) {
  for (const auto& w : report.warnings) out.push_back({input, w});
  size_t malformed = 0;
  const SkippedMethod* first = nullptr;
  for (const auto& s : report.skipped) {
    if (!s.malformed()) continue;
    if (malformed++ == 0) first = &s;
  }
  if (first)
    out.push_back({input, fmt::format("{} method bod{} could not be read and {} left as in the input; the first: 0x{:08X} {}: {}", malformed,
                                      malformed == 1 ? "y" : "ies", malformed == 1 ? "was" : "were",
                                      first->method.token(), md::clip_text(first->name, md::kMaxQuotedText),
                                      first->text())});
}

}  // namespace

JobResult run_job(const JobSpec& spec, std::unique_ptr<md::Module> module) {
  const std::string& input = spec.input;
  const std::string& output = spec.output;
  JobResult result;
  auto started = std::chrono::steady_clock::now();
  // OUT.pdb beside the output: the name its CodeView entry gives and the runtime looks for.
  result.output_pdb = pdb_beside(output);
  if (!module) {
    auto loaded = md::Module::load(input);
    if (!loaded) return std::move(failed(result, in_file(std::move(loaded).error(), input), output));
    module = std::move(*loaded);
  }
  result.module = std::move(module);
  const md::Module& m = *result.module;
  if (spec.on_start) spec.on_start(m.tables().rows(md::TableId::MethodDef), input_pdb_size(spec));
  auto key = signing_key(m, spec.key_path, spec.delay_sign);
  if (!key) return std::move(failed(result, in_file(std::move(key).error(), input), output));
  // Written to a file beside OUTPUT that takes its name only when complete (FILES in the man page).
  OutputFile file(output, spec.file_options);
  OutputSink sink(file);
  InstrumentOptions opts = spec.options;
  opts.sink = &sink;
  opts.strong_name = key->has_value();
  opts.pdb = pdb_options(spec.pdb_arg, input, result.output_pdb);
  auto report = instrument_module(m, opts);
  // What fails inside the job is about the input, unless the sink already named the output.
  if (!report) return std::move(failed(result, in_file(std::move(report).error(), input), output));
  Status written = file.write_pieces(report->output.pieces(), m.copy_source());
  if (!written) return std::move(failed(result, in_file(std::move(written).error(), output), output));
  std::optional<OutputFile> pdb_file;
  if (report->pdb.output == PdbOutcome::Output::Standalone) {
    pdb_file.emplace(result.output_pdb, spec.file_options);
    Status pdb_written = pdb_file->write_pieces(report->pdb.standalone.pieces());
    if (!pdb_written) return std::move(failed(result, in_file(std::move(pdb_written).error(), result.output_pdb), result.output_pdb));
  }
  // The bytes are in the files now: the pieces the output was made of (the new bodies, the
  // rewritten metadata, the PDB) are let go before the self-check maps the files back. Most
  // pieces are views of the input, so this saves little (1.5 MB of 75 MB peak on the 11.5 MB
  // BenchDebug in coverage mode; see bench/README.md, coverage's memory).
  const uint64_t output_size = report->output.size();
  const uint64_t pdb_size = report->pdb.standalone.size();
  report->output = pe::OutputImage{};
  report->pdb.standalone = pe::OutputImage{};
  if (spec.on_written) spec.on_written();
  // Finishing, on the temporary files mapped back: what is signed and checked is what will be
  // renamed.
  const bool tamper = static_cast<bool>(spec.tamper);
  if (m.cli().flags & pe::kComImageStrongNameSigned) result.strong_name = StrongName::Removed;
  if (*key || spec.verify || tamper) {
    auto mapped = file.map_back(output_size);
    if (!mapped) return std::move(failed(result, in_file(std::move(mapped).error(), output), output));
    std::span<uint8_t> bytes = mapped->bytes();
    if (*key) {
      // Writes into the mapping are writes to the file.
      auto changed = pe::finish_strong_name(bytes, **key, spec.delay_sign);
      if (!changed) return std::move(failed(result, in_file(std::move(changed).error(), output), output));
      result.strong_name = spec.delay_sign ? StrongName::DelaySigned : StrongName::Signed;
      result.key_token = hex(md::public_key_token((*key)->assembly_public_key()));
    }
    std::optional<OutputFile::Mapping> pdb_mapped;
    std::span<uint8_t> pdb_bytes;
    if (pdb_file && (spec.verify || tamper)) {
      auto read = pdb_file->map_back(pdb_size);
      if (!read) return std::move(failed(result, in_file(std::move(read).error(), result.output_pdb), result.output_pdb));
      pdb_mapped.emplace(std::move(*read));
      pdb_bytes = pdb_mapped->bytes();
    }
    if (tamper) {
      Status broken = spec.tamper(bytes, pdb_bytes, *report);
      if (!broken) return std::move(failed(result, std::move(broken).error(), output));
    }
    if (spec.verify) {
      OutputExpectations expect;
      expect.rewritten = report->instrumented;
      expect.input_methods = m.tables().rows(md::TableId::MethodDef);
      expect.embedded_pdb = report->pdb.output == PdbOutcome::Output::Embedded;
      expect.standalone_pdb = pdb_bytes;
      expect.signed_with = *key && !spec.delay_sign ? &**key : nullptr;
      // Peak memory: the pages the check has read go back as it goes, and so do the input's (all
      // read by now; what is read of it later comes from the file again). Each mapping only lets
      // go of its own ranges.
      if (!spec.keep_check_pages) {
        expect.release = [&](std::span<const uint8_t> part) {
          mapped->release_pages(part);
          if (pdb_mapped) pdb_mapped->release_pages(part);
        };
        m.release_pages();
      }
      auto checked = check_output(bytes, expect);
      if (!checked) {
        // The temporary files are removed: nothing takes the names.
        file.abandon();
        if (pdb_file) pdb_file->abandon();
        result.error = JobError{std::move(checked).error(), JobFault::SelfCheck};
        result.report.reset();
        return result;
      }
      result.check = *checked;
    }
  }
  // The companions (trace mode's deps.json files and hooks copy), all written to temporary files
  // before anything takes its name, and put in place before the output (all or nothing).
  if (spec.companions) {
    if (Status placed = spec.companions->place(); !placed) {
      std::string about = spec.companions->about_output(placed.error()) ? placed.error().file : output;
      return std::move(failed(result, placed.error(), about));
    }
  }
  // The PDB first: an assembly is never left naming a PDB that was not written.
  if (pdb_file) {
    Status pdb_written = pdb_file->commit();
    if (!pdb_written) {
      if (spec.companions) spec.companions->roll_back();
      return std::move(failed(result, in_file(std::move(pdb_written).error(), result.output_pdb), result.output_pdb));
    }
  }
  written = file.commit();
  if (!written) {
    if (spec.companions) spec.companions->roll_back();
    return std::move(failed(result, in_file(std::move(written).error(), output), output));
  }
  result.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  collect_warnings(input, *report, result.warnings);
  result.report = std::move(*report);
  return result;
}

}  // namespace cil::instrument
