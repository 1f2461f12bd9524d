// Prologue insertion, locals extension, and the try/filter/finally wrap.
#include "il/rewriter.h"

#include <algorithm>
#include <unordered_map>

#include <fmt/format.h>

#include "metadata/signature.h"
#include "support/byte_reader.h"

namespace cil::il {

Expected<LocalsBuilder> LocalsBuilder::open(md::MetadataSink& sink, md::Token token) {
  LocalsBuilder b;
  b.token_ = token;
  if (!token) return b;
  if (md::token_table(token) != md::TableId::StandAloneSig)
    return rewrite_error(fmt::format("local signature token 0x{:08X} is not a StandAloneSig", token.value()));
  std::vector<uint8_t> blob = CIL_TRY(sink.signature_of(token));
  ByteReader r(blob, 0, "local variable signature");
  uint8_t kind = CIL_TRY(r.u8());
  if (kind != md::kSigLocals) return rewrite_error(fmt::format("local signature starts with {:#04x}", kind));
  b.original_count_ = b.count_ = CIL_TRY(r.compressed_u32());
  // Keep the original encoding of the existing locals byte for byte.
  auto rest = CIL_TRY(r.bytes(r.remaining()));
  b.types_.assign(rest.begin(), rest.end());
  return b;
}

uint32_t LocalsBuilder::add(std::span<const uint8_t> encoded_type) {
  types_.insert(types_.end(), encoded_type.begin(), encoded_type.end());
  return count_++;
}

Expected<md::Token> LocalsBuilder::commit(md::MetadataSink& sink) {
  if (count_ == original_count_) return token_;
  if (count_ > 0xFFFE) return rewrite_error("more than 65534 locals");
  std::vector<uint8_t> sig{md::kSigLocals};
  md::encode_compressed_u32(sig, count_);
  sig.insert(sig.end(), types_.begin(), types_.end());
  return sink.standalone_sig(sig);
}

void insert_code(BodyModel& body, size_t index, std::vector<Instr> code) {
  if (code.empty()) return;
  index = std::min(index, body.instrs.size());
  body.instrs.insert(body.instrs.begin() + static_cast<std::ptrdiff_t>(index), std::make_move_iterator(code.begin()),
                     std::make_move_iterator(code.end()));
  body.edited = true;
}

Status wrap_body(BodyModel& body, const WrapSpec& spec) {
  auto& instrs = body.instrs;
  size_t start = std::min(spec.try_start, instrs.size());
  if (start == instrs.size()) return rewrite_error("nothing to protect");

  // Runs once per traced method at JIT time: a dense index by id, no map and no copy of the
  // targets (bench/README.md, jit_trace_bench.sh).
  std::vector<uint32_t> position = body.positions();
  auto inside = [&](uint32_t label) {
    if (label == kEndLabel) return true;
    return label < position.size() && position[label] != kNoLabel && position[label] >= start;
  };
  uint32_t start_id = instrs[start].id;
  auto crosses = [&](size_t i, uint32_t t) -> Status {
    bool from_inside = i >= start;
    if (from_inside && !inside(t)) return rewrite_error("a branch leaves the protected region backwards");
    if (!from_inside && inside(t) && t != start_id) return rewrite_error("a branch enters the protected region");
    return ok();
  };
  for (size_t i = 0; i < instrs.size(); ++i) {
    const Instr& in = instrs[i];
    if (in.op == Op::Jmp) return rewrite_error("the body uses jmp, which cannot leave a protected region");
    if (in.op == Op::Tail && i >= start &&
        std::none_of(spec.tail_sites.begin(), spec.tail_sites.end(), [&](const TailSite& t) { return t.prefix_id == in.id; }))
      return rewrite_error("the body makes tail. calls, which a protected region would turn into ordinary calls (left as is)");
    for (uint32_t t : in.targets) CIL_TRY(crosses(i, t));
    if (in.target != kNoLabel) CIL_TRY(crosses(i, in.target));
  }

  // Labels of the blocks that follow the original code.
  auto first_id = [&](const std::vector<Instr>& code, uint32_t fallback) { return code.empty() ? fallback : code.front().id; };
  std::vector<Instr> exit_block = spec.epilogue;
  if (spec.result_local) exit_block.push_back(body.ldloc(*spec.result_local));
  exit_block.push_back(body.make(Op::Ret));
  uint32_t exit_id = exit_block.front().id;

  std::vector<Instr> finally_block;
  if (spec.finally_clause) {
    finally_block = spec.finally_code;
    finally_block.push_back(body.make(Op::Endfinally));
  }
  // The filter block, then its handler (which must follow it directly, II.19).
  std::vector<Instr> filter_block, handler_block;
  if (spec.filter_clause) {
    filter_block = spec.filter_code;
    if (!spec.filter_decides) filter_block.push_back(body.ldc_i4(0));
    filter_block.push_back(body.make(Op::Endfilter));
    handler_block.push_back(body.make(Op::Pop));
    if (spec.handler_throw_local) {
      handler_block.push_back(body.ldloc(*spec.handler_throw_local));
      handler_block.push_back(body.make(Op::Throw));
    } else if (spec.handler_suppresses) {
      handler_block.push_back(body.make_branch(Op::Leave, exit_id));
    } else {
      handler_block.push_back(body.make(Op::Rethrow));
    }
  }
  uint32_t finally_id = first_id(finally_block, exit_id);
  uint32_t handler_id = first_id(handler_block, finally_id);
  uint32_t filter_id = first_id(filter_block, handler_id);

  // Every tail call in the region: its operands to their locals, [the flag set,] leave to its
  // stub; the stub, after the exit block, reloads them and makes the call with its prefix. The
  // `ret` after the call stays, unreachable unless a branch targets it.
  std::vector<Instr> stubs;
  std::unordered_map<uint32_t, uint32_t> stub_of;  // prefix id -> stub label
  for (const TailSite& site : spec.tail_sites) stub_of.emplace(site.prefix_id, body.reserve_label());

  // Every ret in the region: [stloc result] leave exit. The first replacement keeps the ret's id.
  std::vector<Instr> rewritten;
  rewritten.reserve(instrs.size() + 16);
  for (size_t i = 0; i < instrs.size(); ++i) {
    Instr in = std::move(instrs[i]);
    if (i >= start && in.op == Op::Tail && i + 1 < instrs.size()) {
      auto site = std::find_if(spec.tail_sites.begin(), spec.tail_sites.end(), [&](const TailSite& t) { return t.prefix_id == in.id; });
      uint32_t stub = stub_of.at(in.id);
      std::vector<Instr> spill;
      for (auto it = site->operands.rbegin(); it != site->operands.rend(); ++it) spill.push_back(body.stloc(*it));
      if (spec.tail_flag) {
        spill.push_back(body.ldc_i4(1));
        spill.push_back(body.stloc(*spec.tail_flag));
      }
      spill.push_back(body.make_branch(Op::Leave_S, stub));
      if (spill.size() < 2) spill.insert(spill.begin(), body.make(Op::Nop));
      // The original ids stay in order: the prefix's on the first instruction (a branch to the
      // call reaches the spill, with the same stack), the call's on the leave.
      const Instr& original_call = instrs[++i];
      spill.front().id = in.id;
      spill.back().id = original_call.id;
      rewritten.insert(rewritten.end(), spill.begin(), spill.end());
      Instr call = body.make(original_call.op, original_call.value);
      for (size_t k = 0; k < site->operands.size(); ++k) {
        Instr load = body.ldloc(site->operands[k]);
        if (k == 0) load.id = stub;
        stubs.push_back(load);
      }
      Instr prefix = body.make(Op::Tail);
      if (site->operands.empty()) prefix.id = stub;
      stubs.push_back(prefix);
      stubs.push_back(std::move(call));
      stubs.push_back(body.make(Op::Ret));
      continue;
    }
    if (i >= start && in.op == Op::Ret) {
      uint32_t id = in.id;
      if (spec.result_local) {
        Instr store = body.stloc(*spec.result_local);
        store.id = id;
        rewritten.push_back(store);
        Instr leave = body.make_branch(Op::Leave_S, exit_id);
        rewritten.push_back(leave);
      } else {
        Instr leave = body.make_branch(Op::Leave_S, exit_id);
        leave.id = id;
        rewritten.push_back(leave);
      }
      continue;
    }
    rewritten.push_back(std::move(in));
  }
  instrs = std::move(rewritten);

  // Clauses that ended at the end of the code now end where the new handlers begin, and so does
  // the original code.
  for (auto& c : body.clauses) {
    for (uint32_t* label : {&c.try_end, &c.handler_end})
      if (*label == kEndLabel) *label = filter_id;
  }
  if (body.end_of_original == kEndLabel) body.end_of_original = filter_id;
  instrs.insert(instrs.end(), filter_block.begin(), filter_block.end());
  instrs.insert(instrs.end(), handler_block.begin(), handler_block.end());
  instrs.insert(instrs.end(), finally_block.begin(), finally_block.end());
  instrs.insert(instrs.end(), exit_block.begin(), exit_block.end());
  instrs.insert(instrs.end(), stubs.begin(), stubs.end());

  if (spec.filter_clause) {
    EhRegion c;
    c.kind = ClauseKind::Filter;
    c.try_start = start_id;
    c.try_end = filter_id;
    c.filter_start = filter_id;
    c.handler_start = handler_id;
    c.handler_end = finally_id;
    body.clauses.push_back(c);
  }
  if (spec.finally_clause) {
    EhRegion f;
    f.kind = ClauseKind::Finally;
    f.try_start = start_id;
    f.try_end = finally_id;
    f.handler_start = finally_id;
    f.handler_end = exit_id;
    body.clauses.push_back(f);
  }
  body.edited = true;
  return ok();
}

}  // namespace cil::il
