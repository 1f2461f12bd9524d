// Coverage mode: where the probes go in a body, what each one describes, and which methods are
// excluded.
#include "instrument/coverage_mode.h"

#include <algorithm>

#include <fmt/compile.h>
#include <fmt/format.h>

#include "instrument/probe_blocks.h"
#include "instrument/runtime_contract.h"
#include "metadata/name_pattern.h"
#include "metadata/rows.h"
#include "metadata/token_text.h"

namespace cil::instrument {

namespace {

using md::TableId;
using md::Token;

constexpr std::string_view kAlwaysExcluding = "ExcludeFromCodeCoverage";

std::string_view without_suffix(std::string_view name) {
  constexpr std::string_view suffix = "Attribute";
  if (name.size() > suffix.size() && name.ends_with(suffix)) name.remove_suffix(suffix.size());
  return name;
}

bool is_prefix(Op op) { return op_info(op).flow == Flow::Meta; }

/// The C# compiler names a lambda `<Outer>b__N_M` and a local function `<Outer>g__Name|N_M`:
/// the enclosing method's name, or empty.
std::string_view generated_from(std::string_view name) {
  if (name.size() < 3 || name[0] != '<') return {};
  size_t close = name.find('>');
  if (close == std::string_view::npos || close + 2 >= name.size()) return {};
  char kind = name[close + 1];
  if (kind != 'b' && kind != 'g') return {};
  return name.substr(1, close - 1);
}

/// The local an ldloc (`load`) or stloc instruction names, or nullopt for any other instruction.
std::optional<int64_t> local_index(const Instr& in, bool load) {
  switch (in.op) {
    case Op::Ldloc_0: case Op::Ldloc_1: case Op::Ldloc_2: case Op::Ldloc_3:
      return load ? std::optional<int64_t>(static_cast<int>(in.op) - static_cast<int>(Op::Ldloc_0)) : std::nullopt;
    case Op::Stloc_0: case Op::Stloc_1: case Op::Stloc_2: case Op::Stloc_3:
      return load ? std::nullopt : std::optional<int64_t>(static_cast<int>(in.op) - static_cast<int>(Op::Stloc_0));
    case Op::Ldloc_S: case Op::Ldloc: return load ? std::optional<int64_t>(in.value) : std::nullopt;
    case Op::Stloc_S: case Op::Stloc: return load ? std::nullopt : std::optional<int64_t>(in.value);
    default: return std::nullopt;
  }
}

}  // namespace

CoveragePlan::CoveragePlan(const md::Module& m, const md::PortablePdb* pdb, CoverageOptions options)
    : module_(&m), pdb_(pdb), options_(std::move(options)) {
  // Types and methods that carry an excluding attribute (II.22.10: the attribute's type is the
  // owner of its constructor, a MethodDef or a MemberRef).
  std::vector<std::string_view> names{kAlwaysExcluding};
  for (const std::string& n : options_.exclude_by_attribute) names.push_back(without_suffix(n));
  for (uint32_t row = 1; row <= m.tables().rows(TableId::CustomAttribute); ++row) {
    auto attribute = m.row<TableId::CustomAttribute>(row);
    Token parent = attribute.parent();
    TableId table = md::token_table(parent);
    if (table != TableId::TypeDef && table != TableId::MethodDef) continue;
    std::string_view name = m.attribute_type(md::CustomAttributeId(row)).name;
    if (std::find(names.begin(), names.end(), without_suffix(name)) == names.end()) continue;
    (table == TableId::TypeDef ? marked_types_ : marked_methods_).insert(md::token_rid(parent));
  }
  if (pdb) {
    const auto& t = pdb->tables();
    for (uint32_t row = 1; row <= t.rows(TableId::StateMachineMethod); ++row) {
      md::RowViewOf<TableId::StateMachineMethod> sm(pdb->metadata(), row);
      kickoff_[sm.move_next_method()] = sm.kickoff_method();
    }
  }
}

Expected<CoverageMode> CoverageMode::begin(md::ModuleEditor& editor, md::RuntimeRefs& refs, const md::PortablePdb* pdb,
                                           const CoverageOptions& options) {
  CoverageMode mode;
  mode.counters_ =
      CIL_TRY(CountMode::begin(editor, refs, CounterFile::Hits, options.hit_counts ? ProbeKind::Count : ProbeKind::Hit));
  mode.plan_.emplace(editor.module(), pdb, options);
  return mode;
}

const std::string& CoveragePlan::document(md::DocumentId document) {
  auto it = documents_.find(document.value());
  if (it == documents_.end()) it = documents_.emplace(document.value(), pdb_->document_name(document)).first;
  return it->second;
}

md::MethodDefId CoveragePlan::source_method(md::MethodDefId method) const {
  const md::Module& m = *module_;
  uint32_t rid = method.value();
  for (unsigned depth = 0; depth < md::kMaxNestingDepth; ++depth) {
    if (auto k = kickoff_.find(rid); k != kickoff_.end() && m.tables().valid_rid(TableId::MethodDef, k->second)) {
      rid = k->second;
      continue;
    }
    std::string_view outer = generated_from(m.row<TableId::MethodDef>(rid).name());
    if (outer.empty()) return md::MethodDefId(rid);
    // The enclosing method is in the method's type or one that encloses it (a closure class).
    uint32_t found = 0;
    unsigned up = 0;
    for (md::TypeDefId type = m.method_owner(md::MethodDefId(rid)); !type.is_nil() && !found && up < md::kMaxNestingDepth;
         type = m.enclosing_type(type), ++up)
      for (md::MethodDefId candidate : m.methods_of(type))
        if (candidate.value() != rid && m.row(candidate).name() == outer) {
          found = candidate.value();
          break;
        }
    if (!found) return md::MethodDefId(rid);
    rid = found;
  }
  return md::MethodDefId(rid);
}

std::string_view CoveragePlan::member_name(Token token) const {
  const md::Module& m = *module_;
  if (auto field = m.find_row<TableId::Field>(token)) return field->name();
  if (auto method = m.find_row<TableId::MethodDef>(token)) return method->name();
  if (auto ref = m.find_row<TableId::MemberRef>(token)) return ref->name();
  if (auto spec = m.find_row<TableId::MethodSpec>(token)) return member_name(spec->method());
  return {};
}

bool CoveragePlan::compiler_branch(md::MethodDefId method, const BodyModel& model, size_t i) const {
  const std::vector<Instr>& code = model.instrs;
  Op op = code[i].op;
  if (kickoff_.count(method.value())) {
    // A state machine's MoveNext (async or iterator) copies `<>1__state` to a local first
    // (`ldarg.0; ldfld <>1__state; stloc.N`, N 1 when an iterator's MoveNext keeps its result in
    // local 0); every test of that copy, or of the field itself, in the two instructions before
    // the branch is the dispatch to the state to resume in, which no source shows.
    std::optional<int64_t> state_local;
    if (code.size() > 3 && code[0].op == Op::Ldarg_0 && code[1].op == Op::Ldfld &&
        member_name(static_cast<Token>(code[1].value)) == "<>1__state")
      state_local = local_index(code[2], false);
    for (size_t k = i >= 2 ? i - 2 : 0; k < i; ++k) {
      if (state_local && local_index(code[k], true) == state_local) return true;
      if (code[k].op == Op::Ldfld && member_name(static_cast<Token>(code[k].value)) == "<>1__state") return true;
    }
    // `call get_IsCompleted; brtrue`: whether an await's awaiter is already complete, which
    // decides only whether MoveNext suspends (coverlet skips it for the framework's Task awaiters,
    // not for others such as Task.Yield's).
    if (i >= 1 && (code[i - 1].op == Op::Call || code[i - 1].op == Op::Callvirt) &&
        member_name(static_cast<Token>(code[i - 1].value)) == "get_IsCompleted")
      return true;
  }
  if (op != Op::Brtrue && op != Op::Brtrue_S) return false;
  // `ldc.i4.1; brtrue`: a Debug build's place for a breakpoint in an expression (switch
  // expressions), always taken.
  if (i >= 1 && code[i - 1].op == Op::Ldc_I4_1) return true;
  // `ldsfld <>9__...; dup; brtrue` (a static lambda's cached delegate, made on first use), or
  // `ldfld <>9__...` (one cached in a closure); the field is a MemberRef when the closure class
  // is generic.
  if (i >= 2 && code[i - 1].op == Op::Dup && (code[i - 2].op == Op::Ldsfld || code[i - 2].op == Op::Ldfld))
    return member_name(static_cast<Token>(code[i - 2].value)).starts_with("<>9_");
  return false;
}

bool CoveragePlan::marked(md::MethodDefId method) const {
  const md::Module& m = *module_;
  if (marked_methods_.count(method.value())) return true;
  unsigned depth = 0;
  for (md::TypeDefId type = m.method_owner(method); !type.is_nil() && depth < md::kMaxNestingDepth;
       type = m.enclosing_type(type), ++depth)
    if (marked_types_.count(type.value())) return true;
  return false;
}

std::optional<std::string> CoveragePlan::excluded(md::MethodDefId method) {
  // Nothing marked (most assemblies): no walk to the source method, a search by name for lambdas.
  bool any_marked = !marked_methods_.empty() || !marked_types_.empty();
  if (any_marked && (marked(method) || marked(source_method(method)))) return std::string("excluded by attribute");
  if (pdb_ && !options_.exclude_by_file.empty()) {
    auto points = pdb_->sequence_points(method);
    if (points && !points->points.empty()) {
      const std::string& doc = document(md::DocumentId(points->points.front().document));
      for (const std::string& glob : options_.exclude_by_file)
        if (md::glob_match(glob, doc)) return fmt::format("excluded by file ({})", glob);
    }
  }
  return std::nullopt;
}

Status CoveragePlan::place(md::MethodDefId method, md::MethodDefId source, std::string_view name, BodyModel& model, uint16_t probe_max_stack,
                           const ProbeMaker& make_probe) {
  const std::vector<uint32_t>& at = model.original.boundaries;  // offsets of the original instructions, then the size
  const size_t n = model.instrs.size();
  if (at.size() != n + 1) return make_error(ErrorKind::Unsupported, "method body", "coverage needs the original layout");

  std::vector<md::SequencePoint>& points = scratch_.points;
  points.clear();
  if (pdb_) {
    auto all = pdb_->sequence_points(method);  // a broken blob: method-level coverage for this method
    if (all)
      for (const md::SequencePoint& p : all->points)
        if (!p.hidden()) points.push_back(p);
  }
  // The sequence point that starts at each original instruction, if any.
  std::vector<const md::SequencePoint*>& point_at = scratch_.point_at;
  point_at.assign(n, nullptr);
  for (const md::SequencePoint& p : points) {
    auto it = std::lower_bound(at.begin(), at.end() - 1, p.offset);
    if (it != at.end() - 1 && *it == p.offset) point_at[static_cast<size_t>(it - at.begin())] = &p;
  }

  // Branches the compiler made that no source shows, which coverlet does not count either: the
  // ones in a finally that has no visible sequence point where it starts (foreach, using, lock).
  std::vector<bool>& generated = scratch_.generated;
  generated.assign(n, false);
  for (const EhRegion& r : model.clauses) {
    if (r.kind != ClauseKind::Finally || r.handler_start >= n) continue;
    size_t end = r.handler_end == kEndLabel ? n : std::min<size_t>(r.handler_end, n);
    if (!point_at[r.handler_start])
      for (size_t k = r.handler_start; k < end; ++k) generated[k] = true;
  }

  // The points that get a line entry. Nothing goes between a prefix and its instruction, nor
  // between `tail. call` and its `ret`: a point there gets none (read before the loop below
  // moves the instructions out).
  std::vector<const md::SequencePoint*>& line_at = scratch_.line_at;
  line_at.assign(n, nullptr);
  for (size_t i = 0; i < n; ++i) {
    bool after_prefix = i > 0 && is_prefix(model.instrs[i - 1].op);
    bool tail_ret = model.instrs[i].op == Op::Ret && i >= 2 && model.instrs[i - 2].op == Op::Tail;
    if (!after_prefix && !tail_ret) line_at[i] = point_at[i];
  }

  // The branches that get outcome probes, and the point each reports on (null: none).
  std::vector<const md::SequencePoint*>& owner_of = scratch_.owner_of;
  owner_of.assign(n, nullptr);
  // An outcome whose target has no other way in is counted by the probe at its target, which
  // the target needs anyway for its line (hits of the outcome = entries into the target): per
  // instruction, the branch and path it carries (branch kNoLabel: none).
  std::vector<CarriedOutcome>& carried = scratch_.carried;
  carried.assign(n, CarriedOutcome{});
  StraightRuns& runs = scratch_.runs;
  find_straight_runs(model, runs);
  const md::SequencePoint* current = nullptr;  // the last non-hidden point at or before the instruction
  for (size_t i = 0; i < n; ++i) {
    if (point_at[i]) current = point_at[i];
    const Instr& in = model.instrs[i];
    if (op_info(in.op).flow != Flow::CondBranch) continue;
    // A branch before the first visible point (a switch on a parameter that opens the method,
    // under a hidden point) is reported on the first visible line that follows, as coverlet does.
    const md::SequencePoint* owner = current;
    if (!owner) {
      auto next_point = std::upper_bound(points.begin(), points.end(), at[i],
                                         [](uint32_t offset, const md::SequencePoint& p) { return offset < p.offset; });
      if (next_point != points.end()) owner = &*next_point;
    }
    if (!owner || i + 1 >= n || generated[i] || compiler_branch(method, model, i)) continue;
    owner_of[i] = owner;
    auto carry = [&](uint32_t target, uint32_t path) {
      if (target < n && runs.entries[target] == 1) carried[target] = CarriedOutcome{static_cast<uint32_t>(i), path};
    };
    carry(static_cast<uint32_t>(i + 1), 0);
    if (in.op == Op::Switch) {
      for (size_t k = 0; k < in.targets.size(); ++k) carry(in.targets[k], static_cast<uint32_t>(k + 1));
    } else {
      carry(in.target, 1);
    }
  }

  std::string last_document;
  uint32_t last_document_rid = 0;
  auto document_field = [&](uint32_t doc) -> std::string_view {
    if (doc == last_document_rid && !last_document.empty()) return std::string_view("", 0);  // empty, not null: fmt copies from it
    last_document_rid = doc;
    last_document = document(md::DocumentId(doc));
    return last_document;
  };
  std::vector<Instr>& probe = scratch_.probe;
  std::vector<Instr>& out = scratch_.out;
  out.clear();
  out.reserve(n * 2 + 8);
  // The entries of the next probe, in the order the hits file lists them.
  std::string& description = scratch_.description;
  description.clear();
  constexpr char tab = contract::kHitsSeparator;
  auto next_entry = [&]() {
    if (!description.empty()) description += contract::kHitsEntrySeparator;
  };
  auto add_line = [&](const md::SequencePoint& p) {
    next_entry();
    fmt::format_to(std::back_inserter(description), FMT_COMPILE("{}{}{}{}{}{}{}"), contract::kHitsLine, tab, p.start_line, tab,
                   p.end_line, tab, document_field(p.document));
  };
  auto add_branch = [&](size_t branch, uint32_t path) {
    const md::SequencePoint& owner = *owner_of[branch];
    next_entry();
    fmt::format_to(std::back_inserter(description), FMT_COMPILE("{}{}{}{}{}{}{}{}{}"), contract::kHitsBranch, tab, owner.start_line,
                   tab, at[branch], tab, path, tab, document_field(owner.document));
  };
  auto emit = [&]() {
    make_probe(model, description, probe);
    description.clear();
    out.insert(out.end(), probe.begin(), probe.end());
    return probe.front().id;
  };
  // The lines of the straight run after instruction `from` share the probe being described:
  // whatever reaches it reaches them, as often (probe_blocks.h).
  std::vector<bool>& taken = scratch_.taken;
  taken.assign(n, false);
  auto take_run = [&](size_t from) {
    for (size_t j = from + 1; j < n && runs.continues[j]; ++j)
      if (const md::SequencePoint* p = line_at[j]) {
        add_line(*p);
        taken[j] = true;
      }
  };

  // The method entry, with the lines that start the method if nothing else leads to them.
  fmt::format_to(std::back_inserter(description), FMT_COMPILE("{}{}{}{}{}"), contract::kHitsMethod, tab,
                 md::token_text(source.token()), tab, name);
  if (n > 0 && runs.continues[0]) {
    if (const md::SequencePoint* p = line_at[0]) {
      add_line(*p);
      taken[0] = true;
    }
    take_run(0);
  }
  emit();

  // Branches and clauses that named an original instruction with a probe name the probe.
  std::vector<uint32_t>& redirect = scratch_.redirect;
  redirect.assign(n, kNoLabel);
  for (size_t i = 0; i < n; ++i) {
    const md::SequencePoint* p = taken[i] ? nullptr : line_at[i];
    bool carries = carried[i].branch != kNoLabel;
    Instr in = std::move(model.instrs[i]);
    if (p || carries) {
      if (carries) add_branch(carried[i].branch, carried[i].path);
      if (p) add_line(*p);
      taken[i] = true;
      take_run(i);
      redirect[i] = emit();
    }
    if (!owner_of[i]) {
      out.push_back(std::move(in));
      continue;
    }
    // An outcome no target carries gets a probe of its own: the fall-through right after the
    // branch, then `br` on to the next instruction; a target a block after that, its probe then
    // `br` to the old target. The blocks stay in the branch's region, so every `br` is as legal
    // as the branch was.
    auto carried_by = [&](uint32_t target, uint32_t path) {
      return target < n && carried[target].branch == i && carried[target].path == path;
    };
    uint32_t next = static_cast<uint32_t>(i + 1);  // an original instruction's id is its index
    std::vector<uint32_t> old_targets = in.op == Op::Switch ? in.targets : std::vector<uint32_t>{in.target};
    std::vector<uint32_t> blocks(old_targets.size(), kNoLabel);
    bool any_block = false;
    for (size_t k = 0; k < blocks.size(); ++k)
      if (!carried_by(old_targets[k], static_cast<uint32_t>(k + 1))) {
        blocks[k] = model.reserve_label();
        any_block = true;
        if (in.op == Op::Switch) in.targets[k] = blocks[k];
        else in.target = blocks[k];
      }
    out.push_back(std::move(in));
    bool own_fall_through = !carried_by(next, 0);
    if (own_fall_through) {
      add_branch(i, 0);
      emit();
    }
    if (own_fall_through || any_block) out.push_back(model.make_branch(Op::Br_S, next));
    for (size_t k = 0; k < blocks.size(); ++k) {
      if (blocks[k] == kNoLabel) continue;
      size_t first = out.size();
      add_branch(i, static_cast<uint32_t>(k + 1));
      emit();
      out[first].id = blocks[k];  // the block starts with the probe's first instruction
      out.push_back(model.make_branch(Op::Br_S, old_targets[k]));
    }
  }
  auto retarget = [&](uint32_t& label) {
    if (label < n && redirect[label] != kNoLabel) label = redirect[label];
  };
  for (Instr& in : out) {
    if (op_info(in.op).operand == Operand::Switch) {
      for (uint32_t& t : in.targets) retarget(t);
    } else if (in.target != kNoLabel) {
      retarget(in.target);
    }
  }
  for (EhRegion& r : model.clauses)
    for (uint32_t* label : {&r.try_start, &r.try_end, &r.handler_start, &r.handler_end, &r.filter_start}) retarget(*label);
  std::swap(model.instrs, out);  // the model's old buffer is the next method's scratch
  model.edited = true;
  // Each probe is stack-neutral and needs its own depth on top of whatever the stack holds.
  model.max_stack = static_cast<uint16_t>(std::min<uint32_t>(0xFFFF, uint32_t{model.max_stack} + probe_max_stack));
  return ok();
}

Status CoverageMode::instrument(md::MethodDefId method, md::MethodDefId source, std::string_view name, BodyModel& model) {
  pending_text_.clear();
  pending_ends_.clear();
  return plan_->place(method, source, name, model, counters_.probe_max_stack(),
                      [&](BodyModel& body, std::string_view description, std::vector<Instr>& probe) {
                        counters_.probe_ahead(body, static_cast<uint32_t>(pending_ends_.size()), probe);
                        pending_text_ += description;
                        pending_ends_.push_back(pending_text_.size());
                      });
}

Status CoverageMode::commit(md::MethodDefId method) {
  size_t start = 0;
  for (size_t end : pending_ends_) {
    CIL_TRY(counters_.commit(method, std::string_view(pending_text_).substr(start, end - start)));
    start = end;
  }
  pending_text_.clear();
  pending_ends_.clear();
  return ok();
}

}  // namespace cil::instrument
