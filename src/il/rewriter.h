// The rewrites shared by every mode: code inserted at entry, locals appended, and the body
// wrapped in try/filter/finally with every `ret` turned into a `leave` to one exit block.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "il/body_model.h"
#include "metadata/metadata_sink.h"
#include "support/error.h"

namespace cil::il {

/// An Unsupported error about a method body: what the rewrite cannot do (one home for rewrite.cpp
/// and rewriter.cpp).
inline Error rewrite_error(std::string message) { return make_error(ErrorKind::Unsupported, "method body", std::move(message)); }

/// Extends a method's local signature: the original locals keep their indexes and new ones are
/// appended; commit() writes the result as a new StandAloneSig row.
class LocalsBuilder {
 public:
  /// Reads the current signature (`token` 0: no locals yet).
  static Expected<LocalsBuilder> open(md::MetadataSink& sink, md::Token token);
  /// Adds a local of the encoded type (II.23.2.6) and returns its index.
  uint32_t add(std::span<const uint8_t> encoded_type);
  uint32_t count() const { return count_; }
  /// The token of the extended signature; the original token when nothing was added.
  Expected<md::Token> commit(md::MetadataSink& sink);

 private:
  md::Token token_;
  uint32_t count_ = 0;
  uint32_t original_count_ = 0;
  std::vector<uint8_t> types_;  ///< the encoded types, original first
};

/// Inserts `code` before the instruction at `index` (or at the end). Branches and clauses that
/// named the instruction at `index` still name it, so the new code runs only when control falls
/// into it: at method entry, that means once per call.
void insert_code(BodyModel& body, size_t index, std::vector<Instr> code);

/// A `tail.` call in the protected region and the locals its stack operands go to, first
/// pushed first (see il/tail_calls.h).
struct TailSite {
  uint32_t prefix_id = kNoLabel;    ///< the `tail.` instruction
  std::vector<uint32_t> operands;   ///< locals, in push order
};

struct WrapSpec {
  /// Index of the first instruction inside the new protected region (after a base constructor
  /// call, for constructors). Instructions before it stay outside.
  size_t try_start = 0;
  /// Local that receives the return value at every `ret`; nullopt for void methods.
  std::optional<uint32_t> result_local;
  /// Filter clause: observes an exception in the first pass without catching it, so the
  /// runtime's two-pass order (every filter up the stack before any finally), the exception
  /// object and its stack trace stay the original's (II.19, I.12.4.2.5). `filter_code` starts
  /// with the thrown object on the stack and must consume it; `ldc.i4.0` `endfilter` (continue
  /// the search) is appended. Its handler never runs; it is `pop` `rethrow`. The filter block
  /// may not contain protected regions: code that must catch calls out to a method.
  bool filter_clause = false;
  std::vector<Instr> filter_code;
  /// Interception (opted into by an OnException hook that returns a value): `filter_code` leaves
  /// its own verdict on the stack (nothing is appended), and when it is 1 the handler throws the
  /// exception in `handler_throw_local` instead, or, with `handler_suppresses`, leaves to the exit
  /// block (a void method returns normally). Either way the second pass then runs the inner
  /// finallys first, as for any catch.
  bool filter_decides = false;
  std::optional<uint32_t> handler_throw_local;
  bool handler_suppresses = false;
  /// Finally clause: present when true; `endfinally` is appended to `finally_code`.
  bool finally_clause = false;
  std::vector<Instr> finally_code;
  /// Code that runs after the protected region on the normal path, before the result is reloaded.
  std::vector<Instr> epilogue;
  /// `tail.` calls in the region (plan_tail_sites): each stores its operands, sets
  /// `tail_flag` (when given) to 1, and leaves to a stub after the handlers that reloads them
  /// and makes the call with its prefix. The finally runs on the way out, before the call.
  std::vector<TailSite> tail_sites;
  std::optional<uint32_t> tail_flag;
};

/// Wraps the body from `spec.try_start` to its end in try/filter/finally. Every `ret` becomes a
/// store to the result local and a `leave` to one exit block that runs the epilogue, reloads the
/// result and returns; a branch that targeted a `ret` now reaches the store. The new clauses
/// come after the existing ones, so inner clauses still come first (II.19). Fails on bodies
/// that use `jmp`, that make `tail.` calls not in `spec.tail_sites` (a tail call cannot leave a
/// protected region, and dropping the prefix turns constant-stack recursion into a stack
/// overflow, III.2.4), or that branch across the start of the region.
Status wrap_body(BodyModel& body, const WrapSpec& spec);

}  // namespace cil::il
