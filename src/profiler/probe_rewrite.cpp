// One method through the rewrite engine, as instrumenter.cpp does it for offline count mode.
#include "profiler/probe_rewrite.h"

#include <algorithm>

#include "il/body_encoder.h"
#include "il/body_model.h"
#include "il/instruction.h"
#include "il/method_body.h"
#include "il/probes.h"
#include "il/rewriter.h"

namespace cil::profiler {

namespace {

il::CounterRef native_counter(uint64_t address) {
  il::CounterRef counter;
  counter.address = address;
  return counter;
}

}  // namespace

Expected<uint16_t> probe_max_stack(md::Token increment, il::CallEffects& effects) {
  il::BodyModel body;
  body.instrs = il::counter_probe(body, native_counter(0), increment);
  body.instrs.push_back(body.make(il::Op::Ret));
  return il::compute_max_stack(body, false, effects);
}

Expected<std::vector<uint8_t>> add_entry_probe(std::span<const uint8_t> bytes, uint64_t counter, md::Token increment,
                                               uint16_t probe_depth) {
  il::MethodBody body = CIL_TRY(il::parse_method_body(ByteReader(bytes, 0, "method body")));
  il::DecodedCode code = CIL_TRY(il::decode_code(body.code, body.code_file_offset));
  il::BodyModel model = CIL_TRY(il::BodyModel::from(body, code));
  il::insert_code(model, 0, il::counter_probe(model, native_counter(counter), increment));
  model.max_stack = std::max(model.max_stack, probe_depth);
  return il::encode_body(model);
}

}  // namespace cil::profiler
