// The one function every method body the tool writes goes through: offline in every mode (the
// rewritten methods and the helpers' own bodies) and in the profiler at JIT time. It returns the
// encoded body and the offset map (offset_map.h) that debug information, coverage and the
// profiler's instrumented-code map are remapped through.
#pragma once

#include <cstdint>
#include <functional>
#include <span>

#include "il/body_encoder.h"
#include "il/body_model.h"
#include "il/instruction.h"
#include "il/method_body.h"
#include "support/error.h"

namespace cil::il {

/// What a rewrite does to a body.
struct BodyEdit {
  /// Straight-line code (no branch, no switch) that runs first, once per call: branches and
  /// clauses that named the first instruction still name it. It must leave the stack as it found
  /// it; it runs on an empty one, so the body needs max(its own max stack, entry_max_stack).
  std::span<const Instr> entry_code;
  uint16_t entry_max_stack = 0;
  /// Edits of the model after the entry code is in (wrap, trace), max stack included. A rewrite
  /// with neither entry code nor an edit re-encodes the body as it was.
  std::function<Status(BodyModel&)> edit;
};

enum class RewritePath {
  /// Entry code alone is spliced in front of the original bytes without building the model:
  /// the same bytes and map, for 39% fewer instructions in count mode on CoreLib
  /// (bench/README.md). Anything else: the model.
  Fastest,
  /// Always through the model (for the tests that compare the two paths).
  Model,
};

/// Rewrites an existing body, `code` being its decoded code. Fails, naming the instruction or
/// clause, when a branch or clause boundary is not on an instruction boundary (check_targets,
/// whichever path), or when the edit fails.
Expected<EncodedBody> rewrite_body(const MethodBody& body, const DecodedCode& code, const BodyEdit& edit,
                                   RewritePath path = RewritePath::Fastest);
/// The same into `out`, whose buffers are reused (for loops over many bodies).
Status rewrite_body_into(const MethodBody& body, const DecodedCode& code, const BodyEdit& edit, EncodedBody& out,
                         RewritePath path = RewritePath::Fastest);

/// A body the tool writes from scratch (the helpers' methods), built as `model` and then edited
/// by `edit`. Its map is empty: it had no original instructions.
Expected<EncodedBody> rewrite_body(BodyModel model, const BodyEdit& edit);

}  // namespace cil::il
