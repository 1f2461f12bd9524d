// One method through the rewrite engine, as instrumenter.cpp does it for offline count mode.
#include "profiler/probe_rewrite.h"

#include "il/body_model.h"
#include "il/instruction.h"
#include "il/method_body.h"
#include "il/rewrite.h"

namespace cil::profiler {

instrument::CounterRef native_counter(uint64_t address) {
  instrument::CounterRef counter;
  counter.address = address;
  return counter;
}

std::vector<cilprof::COR_IL_MAP> instrumented_code_map(const il::OffsetMap& map) {
  std::vector<cilprof::COR_IL_MAP> out;
  out.reserve(map.entries().size());
  for (const il::OffsetMap::Entry& e : map.entries()) out.push_back({e.old_offset, e.new_offset, cilprof::TRUE});
  return out;
}

Expected<il::EncodedBody> add_entry_probe(std::span<const uint8_t> bytes, const instrument::CounterRef& counter,
                                          md::Token increment, uint16_t probe_depth) {
  il::MethodBody body = CIL_TRY(il::parse_method_body(ByteReader(bytes, 0, "method body")));
  il::DecodedCode code = CIL_TRY(il::decode_code(body.code, body.code_file_offset));
  il::BodyModel scratch;  // only hands out the probe's instruction ids
  std::vector<il::Instr> probe = instrument::counter_probe(scratch, counter, increment);
  il::BodyEdit edit;
  edit.entry_code = probe;
  edit.entry_max_stack = probe_depth;
  return il::rewrite_body(body, code, edit);
}

}  // namespace cil::profiler
