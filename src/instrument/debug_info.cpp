// Finding, checking and rewriting the input's PDB, and the output's debug directory.
#include "instrument/debug_info.h"

#include <fmt/format.h>

#include "instrument/output_check.h"
#include "instrument/pdb_files.h"
#include "instrument/pdb_rewrite.h"
#include "metadata/heaps.h"
#include "metadata/pdb_writer.h"
#include "pe/embedded_pdb.h"

namespace cil::instrument {

namespace {

using Entry = pe::DebugEntry;

bool names_pdb(const Entry& e) {
  return e.type == pe::kDebugTypeCodeView || e.type == pe::kDebugTypePdbChecksum || e.type == pe::kDebugTypeEmbeddedPortablePdb;
}
bool portable_codeview(const Entry& e) {
  return e.type == pe::kDebugTypeCodeView && e.codeview && e.minor_version == pe::kPortableCodeViewMinor;
}

const char* kNoClaim = "the output's debug directory no longer names a PDB";

pe::DebugDirectoryEdit::Entry header_of(const Entry& e) {
  return {static_cast<const pe::DebugEntryHeader&>(e), true};
}

/// The CodeView path with its file name replaced: the runtime looks for the PDB by that name
/// beside the assembly.
std::string renamed(const std::string& path, const std::string& file_name) {
  size_t slash = path.find_last_of("/\\");
  return slash == std::string::npos ? file_name : path.substr(0, slash + 1) + file_name;
}

}  // namespace

PdbSource find_pdb(const md::Module& module, const std::vector<pe::DebugEntry>& entries, const PdbOptions& options) {
  PdbSource source;
  const Entry* portable_cv = nullptr;
  const Entry* other_cv = nullptr;
  const Entry* embedded = nullptr;
  for (const auto& e : entries) {
    if (portable_codeview(e) && !portable_cv) portable_cv = &e;
    if (e.type == pe::kDebugTypeCodeView && !portable_codeview(e) && !other_cv) other_cv = &e;
    if (e.type == pe::kDebugTypeEmbeddedPortablePdb && !embedded) embedded = &e;
  }
  auto none = [&](std::string reason, bool warn = true, bool missing = false) {
    source.pdb.reset();
    source.reason = std::move(reason);
    source.warn = warn;
    source.missing = missing;
    return std::move(source);
  };

  if (options.mode == PdbOptions::Mode::None) return none("no debug information on purpose (--pdb none)", false);
  std::shared_ptr<const std::vector<uint8_t>> bytes;
  if (embedded) {
    if (options.mode == PdbOptions::Mode::File)
      source.notes.push_back(fmt::format("{}: not used: the assembly embeds its PDB, which is used instead", options.path));
    source.input = "embedded";
    source.embedded = true;
    auto inflated = pe::read_embedded_pdb(module.image(), *embedded);
    if (!inflated) return none(fmt::format("embedded PDB: {}", inflated.error().to_string()));
    bytes = std::make_shared<const std::vector<uint8_t>>(std::move(*inflated));
  } else if (options.bytes || options.read_error) {
    source.input = options.path;
    if (options.read_error) return none(fmt::format("{}: {}", options.path, options.read_error->to_string()));
    bytes = options.bytes;
    if (md::is_windows_pdb(*bytes)) return none(fmt::format("{} is a Windows PDB, which this tool does not read (portable PDBs only)", options.path));
  } else if (other_cv && !portable_cv) {
    std::string named = other_cv->codeview ? other_cv->codeview->path : "a PDB";
    return none(fmt::format("the assembly names a Windows PDB ({}), which this tool does not read (portable PDBs only)", named), true, true);
  } else if (portable_cv) {
    return none(fmt::format("no PDB found (the assembly names {}{})", portable_cv->codeview->path,
                            options.path.empty() ? "" : fmt::format("; looked for {}", options.path)),
                true, true);
  } else {
    return source;  // the input claims no PDB
  }

  auto parsed = md::PortablePdb::parse(std::move(bytes));
  if (!parsed) return none(fmt::format("{}: {}", source.input, parsed.error().to_string()));
  const md::PortablePdb& pdb = **parsed;
  // Portable PDB v1.0: the CodeView entry names the PDB id's GUID and carries its stamp.
  if (portable_cv) {
    const auto& guid = portable_cv->codeview->guid;
    if (!std::equal(guid.begin(), guid.end(), pdb.id().begin()) || portable_cv->timestamp != load_le<uint32_t>(pdb.id().data() + 16))
      return none(fmt::format("{} does not match the assembly (its id is {}, the assembly names {})", source.input,
                              pdb_id_text(pdb.id(), PdbIdStyle::Message), pdb_id_text(guid, portable_cv->timestamp, PdbIdStyle::Message)));
  } else if (!embedded) {
    return none(fmt::format("{} not used: the assembly names no portable PDB (no CodeView entry)", source.input));
  }
  md::Sha256Digest hash = md::pdb_content_hash(pdb.bytes(), pdb.pdb_stream().file_offset + md::kPdbIdOffset);
  for (const auto& e : entries) {
    if (!e.pdb_checksum || e.pdb_checksum->algorithm != "SHA256") continue;
    if (!std::equal(hash.begin(), hash.end(), e.pdb_checksum->checksum.begin(), e.pdb_checksum->checksum.end()))
      return none(fmt::format("{} does not match the assembly's PDB checksum", source.input));
  }
  // The checks the output's PDB will be held to, on the input's: a fault here is the input's.
  Status fits = check_pdb_contents(pdb, module.tables().rows(md::TableId::MethodDef));
  if (!fits) return none(fmt::format("{}: {}", source.input, fits.error().to_string()));
  source.pdb = std::move(*parsed);
  return source;
}

DebugInfoJob DebugInfoJob::open(const md::Module& module, const PdbOptions& options, std::vector<std::string>& warnings) {
  DebugInfoJob job;
  job.options_ = options;
  auto entries = pe::read_debug_directory(module.image());
  if (!entries) {
    warnings.push_back(fmt::format("{}; the debug directory is copied as it is", entries.error().to_string()));
    return job;
  }
  job.entries_ = std::move(*entries);
  PdbSource source = find_pdb(module, job.entries_, options);
  for (auto& note : source.notes) warnings.push_back(std::move(note));
  if (!source.pdb && source.warn) warnings.push_back(fmt::format("{}; {}", source.reason, kNoClaim));
  job.pdb_ = std::move(source.pdb);
  if (job.pdb_) job.rewriter_ = std::make_unique<PdbRewriter>(*job.pdb_);
  job.embedded_ = source.embedded;
  job.input_ = std::move(source.input);
  job.reason_ = std::move(source.reason);
  return job;
}

void DebugInfoJob::remove_claims(md::ModuleEditor& editor, PdbOutcome& outcome) const {
  std::vector<md::ModuleEditor::DebugEntrySpec> kept;
  bool removed = false;
  for (const auto& e : entries_) {
    if (names_pdb(e)) {
      removed = true;
      continue;
    }
    kept.push_back({header_of(e), std::nullopt});
  }
  if (!removed) return;
  editor.set_debug_directory(std::move(kept));
  outcome.claims_removed = true;
}

Status DebugInfoJob::write_pdb(md::ModuleEditor& editor, md::WrittenPdb pdb, PdbOutcome& outcome) const {
  std::vector<md::ModuleEditor::DebugEntrySpec> out;
  uint32_t stamp = load_le<uint32_t>(pdb.id.data() + 16);
  for (const auto& e : entries_) {
    if (!names_pdb(e)) {
      out.push_back({header_of(e), std::nullopt});
      continue;
    }
    pe::DebugDirectoryEdit::Entry header = header_of(e);
    std::vector<uint8_t> data;
    if (portable_codeview(e)) {
      // RSDS, GUID, age, path (PE/COFF "Debug Type", CodeView): the new id and the new PDB's name.
      data.resize(24);
      store_le<uint32_t>(data.data(), pe::kCodeViewRsdsSignature);
      std::copy(pdb.id.begin(), pdb.id.begin() + 16, data.begin() + 4);
      store_le<uint32_t>(data.data() + 20, e.codeview->age);
      std::string path = renamed(e.codeview->path, options_.output_file_name);
      data.insert(data.end(), path.begin(), path.end());
      data.push_back(0);
      header.timestamp = stamp;
    } else if (e.pdb_checksum && e.pdb_checksum->algorithm == "SHA256") {
      std::string_view name = "SHA256";
      data.assign(name.begin(), name.end());
      data.push_back(0);
      data.insert(data.end(), pdb.checksum.begin(), pdb.checksum.end());
    } else if (e.type == pe::kDebugTypeEmbeddedPortablePdb && embedded_) {
      data = CIL_TRY(pe::embedded_pdb_payload(pdb.image));
    } else {
      continue;  // a claim this tool cannot renew (a Windows CodeView record, another checksum): dropped
    }
    out.push_back({header, std::move(data)});
  }
  editor.set_debug_directory(std::move(out));
  outcome.output = embedded_ ? PdbOutcome::Output::Embedded : PdbOutcome::Output::Standalone;
  outcome.id = pdb.id;
  if (!embedded_) outcome.standalone = std::move(pdb.image);
  return ok();
}

void DebugInfoJob::method_rewritten(md::MethodDefId method, const OffsetMap& map, md::Token local_sig_token) {
  if (!rewriter_) return;
  // A failure is kept by the rewriter and reported by finish().
  (void)rewriter_->method_rewritten(method, map, local_sig_token.row());
}

PdbOutcome DebugInfoJob::finish(md::ModuleEditor& editor, std::vector<std::string>& warnings) {
  PdbOutcome outcome;
  outcome.input = input_;
  outcome.reason = reason_;
  auto fail = [&](std::string reason) -> PdbOutcome {
    warnings.push_back(fmt::format("{}; {}", reason, kNoClaim));
    outcome.reason = std::move(reason);
    outcome.output = PdbOutcome::Output::None;
    outcome.standalone = {};
    remove_claims(editor, outcome);
    return std::move(outcome);
  };
  if (!pdb_) {
    remove_claims(editor, outcome);
    return outcome;
  }
  std::array<uint32_t, md::kTableSlots> rows{};
  for (unsigned id = 0; id < md::kTableSlots; ++id) rows[id] = editor.rows(static_cast<md::TableId>(id));
  auto written = rewriter_->finish(rows);
  if (!written) return fail(fmt::format("{}: {}", input_, written.error().to_string()));
  Status status = write_pdb(editor, std::move(*written), outcome);
  if (!status) return fail(fmt::format("{}: {}", input_, status.error().to_string()));
  rewriter_.reset();
  outcome.source = std::move(pdb_);  // the written PDB's views of it outlive the job
  return outcome;
}

}  // namespace cil::instrument
