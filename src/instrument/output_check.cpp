// The self-check: an output read back as any input is read, then held to what the writer promised.
#include "instrument/output_check.h"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "il/body_reader.h"
#include "il/decoder_loop.h"
#include "il/instruction.h"
#include "instrument/pdb_rewrite.h"
#include "metadata/module.h"
#include "metadata/portable_pdb.h"
#include "metadata/reference_check.h"
#include "pe/debug_directory.h"
#include "pe/embedded_pdb.h"
#include "pe/section_layout.h"
#include "pe/strong_name.h"

namespace cil::instrument {

namespace {

using md::TableId;

Status check_tables(const md::Metadata& metadata, md::ReferenceScope scope, OutputCheckStats& stats) {
  md::ReferenceCheckStats read;
  Status checked = md::check_references(metadata, scope, &read);
  stats.tables += read.tables;
  stats.rows += read.rows;
  return checked;
}

/// The tables a token may name, one bit per table id (II.22).
using TableMask = uint64_t;
constexpr TableMask mask_of(std::initializer_list<TableId> tables) {
  TableMask mask = 0;
  for (TableId t : tables) mask |= TableMask{1} << static_cast<uint8_t>(t);
  return mask;
}
constexpr TableMask kMethodTables = mask_of({TableId::MethodDef, TableId::MemberRef, TableId::MethodSpec});
constexpr TableMask kFieldTables = mask_of({TableId::Field, TableId::MemberRef});
constexpr TableMask kTypeTables = mask_of({TableId::TypeDef, TableId::TypeRef, TableId::TypeSpec});
constexpr TableMask kSigTables = mask_of({TableId::StandAloneSig});
constexpr TableMask kTokTables = kTypeTables | kMethodTables | kFieldTables;

/// The tables an operand of kind `operand` may name (III.1.9, II.22); 0 for no token.
constexpr TableMask token_tables(Operand operand) {
  switch (operand) {
    case Operand::Method: return kMethodTables;
    case Operand::Field: return kFieldTables;
    case Operand::Type: return kTypeTables;
    case Operand::Sig: return kSigTables;
    case Operand::Tok: return kTokTables;
    default: return 0;
  }
}

/// What the check does with an instruction, by opcode: nothing (most of them), keep it (a branch
/// or switch), look up its #US string, or resolve its token in `tables`. A table indexed by the
/// opcode, built from the one opcode table, so that an instruction with nothing to check costs a
/// load and a test.
struct OpCheck {
  enum What : uint8_t { None, Jump, String, Token } what = None;
  TableMask tables = 0;
};
inline constexpr std::array<OpCheck, kOpCount> kOpChecks = [] {
  std::array<OpCheck, kOpCount> checks{};
  for (size_t i = 0; i < kOpCount; ++i) {
    Operand operand = il::detail::kOps[i].operand;
    if (is_branch_operand(operand) || operand == Operand::Switch) checks[i].what = OpCheck::Jump;
    else if (operand == Operand::String) checks[i].what = OpCheck::String;
    else if (TableMask tables = token_tables(operand)) checks[i] = {OpCheck::Token, tables};
  }
  return checks;
}();

/// Whether an opcode's operand is a token or a #US string (kOpChecks' String and Token), a byte
/// each: the test a pass over decoded instructions makes on every one of them.
inline constexpr std::array<bool, kOpCount> kHoldsToken = [] {
  std::array<bool, kOpCount> holds{};
  for (size_t i = 0; i < kOpCount; ++i) holds[i] = kOpChecks[i].what == OpCheck::String || kOpChecks[i].what == OpCheck::Token;
  return holds;
}();

/// True when `token` names a row of one of the `allowed` tables.
[[gnu::always_inline]] inline bool token_resolves(const md::Module& m, md::Token token, TableMask allowed) {
  uint8_t table = md::token_type(token);
  return table < 64 && (allowed >> table & 1) && m.tables().valid_rid(static_cast<TableId>(table), md::token_rid(token));
}

Error unresolved(std::string what, md::Token token, uint64_t offset) {
  return make_error(ErrorKind::Format, std::move(what), fmt::format("token 0x{:08X} names no row it may name", token), offset);
}

/// True when the token or #US string of `in`, an instruction `check` says holds one, names what
/// its operand allows.
[[gnu::always_inline]] inline bool resolves(const md::Module& m, OpCheck check, const Instruction& in) {
  auto token = static_cast<md::Token>(in.value);
  if (check.what == OpCheck::String)
    return md::token_type(token) == md::kUserStringTokenType && md::token_rid(token) != 0 &&
           m.metadata().user_strings().reads(md::token_rid(token));
  return token_resolves(m, token, check.tables);
}

std::string body_text(md::MethodDefId method) { return fmt::format("MethodDef 0x{:08X} body", method.token()); }

/// The error for `in`, an instruction of `rid`'s body whose operand does not resolve.
Error unresolved_operand(md::MethodDefId rid, const MethodBody& body, const Instruction& in) {
  auto token = static_cast<md::Token>(in.value);
  auto at = body.code_file_offset + in.offset;
  if (operand_of(in.op) == Operand::String)
    return make_error(ErrorKind::Format, body_text(rid), fmt::format("ldstr at IL_{:04x}: token 0x{:08X} names no #US string", in.offset, token), at);
  return unresolved(fmt::format("{} at IL_{:04x}", body_text(rid), in.offset), token, at);
}

/// The tokens of a body outside its code: the local signature and the catch clauses' types.
/// True when they resolve (how many in `tokens`); the error is made only for one that does not.
[[gnu::always_inline]] inline bool side_tokens_resolve(const md::Module& m, const MethodBody& body, uint64_t& tokens) {
  if (body.local_sig_token) {
    if (!token_resolves(m, body.local_sig_token, kSigTables)) return false;
    ++tokens;
  }
  for (const auto& clause : body.clauses) {
    if (clause.kind != ClauseKind::Catch) continue;
    if (!token_resolves(m, clause.class_token, kTypeTables)) return false;
    ++tokens;
  }
  return true;
}

/// The error side_tokens_resolve found.
Error side_token_error(const md::Module& m, md::MethodDefId rid, const MethodBody& body) {
  if (body.local_sig_token && !token_resolves(m, body.local_sig_token, kSigTables))
    return unresolved(body_text(rid) + " local signature", body.local_sig_token, body.file_offset + 8);
  for (const auto& clause : body.clauses)
    if (clause.kind == ClauseKind::Catch && !token_resolves(m, clause.class_token, kTypeTables))
      return unresolved(body_text(rid) + " catch clause", clause.class_token, body.file_offset);
  return make_error(ErrorKind::Format, body_text(rid), "a token names no row it may name", body.file_offset);
}

/// Gives the pages read so far back after every megabyte of bodies (see
/// OutputExpectations::release): each body is read once, and the few metadata pages the next
/// bodies need are simply read again.
class BodyPages {
 public:
  BodyPages(std::span<const uint8_t> bytes, const std::function<void(std::span<const uint8_t>)>& release)
      : bytes_(bytes), release_(release) {}
  /// `size` more bytes of bodies have been read.
  void read(uint64_t size) {
    read_ += size;
    if (read_ >= kBatch) release_all();
  }
  void release_all() {
    if (release_) release_(bytes_);
    read_ = 0;
  }

 private:
  static constexpr uint64_t kBatch = 1u << 20;
  std::span<const uint8_t> bytes_;
  const std::function<void(std::span<const uint8_t>)>& release_;
  uint64_t read_ = 0;
};

/// What the check keeps of a body while it is decoded, reused from body to body.
struct BodyBuffers {
  MethodBody body;
  std::vector<uint8_t> starts;     ///< one byte per code byte and the end: 1 where one starts
  std::vector<Instruction> jumps;  ///< branches and switches, in order
  std::vector<int64_t> targets;    ///< the switches' targets
};

/// Where the check's decoding puts each instruction: its start marked, a branch or switch kept
/// (checked once every start is known), a token or #US string resolved at once, the first that
/// names nothing noted. No instruction is stored otherwise.
struct CheckSink {
  const md::Module& m;
  BodyBuffers& buffers;
  OutputCheckStats& stats;
  std::optional<Instruction> unresolved;  ///< the first whose token or #US string does not resolve

  [[gnu::always_inline]] void add(const Instruction& in) {
    buffers.starts[in.offset] = 1;
    const OpCheck check = kOpChecks[static_cast<size_t>(in.op)];
    if (check.what == OpCheck::None) [[likely]] return;
    if (check.what == OpCheck::Jump) {
      buffers.jumps.push_back(in);
    } else if (!resolves(m, check, in)) {
      note(in);
    } else {
      ++stats.tokens;
    }
  }
  std::vector<int64_t>& switch_targets() { return buffers.targets; }
  void add_jump() {}  // add() keeps them
  void add_checked() {}
  void note(const Instruction& in) {
    if (!unresolved) unresolved = in;
  }
};

/// The new body of MethodDef `rid`: decoded, branches on instruction starts, every token resolving.
/// Each instruction is checked as it is decoded (a branch once every start is known); the error
/// is the first instruction's in code order, as a pass over the decoded body would find it.
Status check_body(const md::Module& m, md::MethodDefId rid, BodyBuffers& buffers, OutputCheckStats& stats, BodyPages& pages) {
  CIL_TRY(read_body_into(m, rid, buffers.body));
  const MethodBody& body = buffers.body;
  pages.read(body.code_file_offset + body.code.size() - body.file_offset);
  // Formatted only for an error: the check reads every new body of large assemblies.
  auto where = [rid] { return body_text(rid); };
  const std::vector<uint8_t>& starts = buffers.starts;
  buffers.starts.assign(body.code.size() + 1, 0);
  buffers.jumps.clear();
  buffers.targets.clear();
  CheckSink sink{m, buffers, stats, std::nullopt};
  if (Status decoded = decoder_loop::decode_code_with(body.code, body.code_file_offset, sink); !decoded) {
    Error e = std::move(decoded).error();
    e.structure = fmt::format("{}: {}", where(), e.structure);
    return e;
  }
  auto on_start = [&](int64_t target) { return target >= 0 && static_cast<uint64_t>(target) < body.code.size() && starts[target]; };
  for (const auto& in : buffers.jumps) {
    if (sink.unresolved && sink.unresolved->offset < in.offset) break;  // an earlier instruction's error comes first
    auto at = body.code_file_offset + in.offset;
    if (operand_of(in.op) == Operand::Switch) {
      std::span<const int64_t> targets = std::span<const int64_t>(buffers.targets).subspan(static_cast<size_t>(in.value), in.count);
      for (int64_t target : targets)
        if (!on_start(target)) return make_error(ErrorKind::Format, where(), fmt::format("switch at IL_{:04x} jumps to {}, not an instruction", in.offset, target), at);
    } else if (!on_start(in.value)) {
      return make_error(ErrorKind::Format, where(), fmt::format("{} at IL_{:04x} jumps to {}, not an instruction", in.info().name, in.offset, in.value), at);
    }
  }
  if (sink.unresolved) return unresolved_operand(rid, body, *sink.unresolved);
  if (!side_tokens_resolve(m, body, stats.tokens)) return side_token_error(m, rid, body);
  ++stats.bodies;
  return ok();
}

/// The output's PDB read back (see check_pdb_contents).
Status check_pdb(std::unique_ptr<md::PortablePdb> pdb, const md::Module& m, OutputCheckStats& stats) {
  CIL_TRY(check_pdb_contents(*pdb, m.tables().rows(TableId::MethodDef), &stats));
  stats.pdb = true;
  return ok();
}

Status named(Status status, std::string_view file) {
  if (status) return status;
  Error e = std::move(status).error();
  e.structure = fmt::format("{}: {}", file, e.structure);
  return e;
}

}  // namespace

Status check_body_tokens(const md::Module& m, md::MethodDefId rid, const MethodBody& body, const DecodedCode& code) {
  for (const Instruction& in : code.instructions) {
    if (!kHoldsToken[static_cast<size_t>(in.op)]) [[likely]] continue;
    if (!resolves(m, kOpChecks[static_cast<size_t>(in.op)], in)) return unresolved_operand(rid, body, in);
  }
  uint64_t tokens = 0;
  if (!side_tokens_resolve(m, body, tokens)) return side_token_error(m, rid, body);
  return ok();
}

Status check_pdb_contents(const md::PortablePdb& pdb, uint32_t method_rows, OutputCheckStats* stats) {
  md::ReferenceCheckStats read;
  CIL_TRY(md::check_references(pdb.metadata(), md::ReferenceScope::PdbOwn, &read));
  if (stats) {
    stats->tables += read.tables;
    stats->rows += read.rows;
  }
  CIL_TRY(check_pdb_fits(pdb, method_rows));
  // Every point decoded and checked, none stored.
  md::MethodSequencePoints header;
  uint32_t infos = pdb.tables().rows(TableId::MethodDebugInformation);
  for (uint32_t rid = 1; rid <= infos; ++rid) CIL_TRY(pdb.read_sequence_points(md::MethodDefId(rid), header, [](const md::SequencePoint&) { return ok(); }));
  return ok();
}

Expected<OutputCheckStats> check_output(std::span<const uint8_t> bytes, const OutputExpectations& expect) {
  OutputCheckStats stats;
  std::unique_ptr<md::Module> m;
  if (expect.signed_with) {
    auto layout = CIL_TRY(pe::strong_name_layout(bytes));
    CIL_TRY(pe::verify_strong_name(bytes, layout, *expect.signed_with));
  }
  m = CIL_TRY(md::Module::parse_view(bytes));
  CIL_TRY(pe::check_section_layout(m->image()));
  CIL_TRY(check_tables(m->metadata(), md::ReferenceScope::All, stats));
  BodyPages pages(bytes, expect.release);
  pages.release_all();  // the tables were read whole; the bodies read a few rows and heaps again
  BodyBuffers buffers;  // reused from body to body
  for (md::MethodDefId method : expect.rewritten) CIL_TRY(check_body(*m, method, buffers, stats, pages));
  for (md::MethodDefId method : m->ids<TableId::MethodDef>())
    if (method.value() > expect.input_methods && has_il_body(*m, method)) CIL_TRY(check_body(*m, method, buffers, stats, pages));
  pages.release_all();
  if (!expect.standalone_pdb.empty()) {
    // Read in place: the caller keeps the bytes alive for the whole check.
    auto parsed = md::PortablePdb::parse_view(expect.standalone_pdb);
    Status checked = parsed ? check_pdb(std::move(*parsed), *m, stats) : Status(std::move(parsed).error());
    if (expect.release) expect.release(expect.standalone_pdb);
    CIL_TRY(named(std::move(checked), "output PDB"));
  }
  if (expect.embedded_pdb) {
    auto entries = CIL_TRY(pe::read_debug_directory(m->image()));
    auto entry = std::find_if(entries.begin(), entries.end(), [](const auto& e) { return e.type == pe::kDebugTypeEmbeddedPortablePdb; });
    if (entry == entries.end()) return make_error(ErrorKind::Format, "debug directory", "has no EmbeddedPortablePdb entry");
    auto parsed = md::PortablePdb::parse(CIL_TRY(pe::read_embedded_pdb(m->image(), *entry)));
    CIL_TRY(named(parsed ? check_pdb(std::move(*parsed), *m, stats) : Status(std::move(parsed).error()), "embedded PDB"));
  }
  return stats;
}

}  // namespace cil::instrument
