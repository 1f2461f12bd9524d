// Fuzz target: the whole pipeline. Read a file, instrument it in count mode, write it, and read
// the output back with the same reader. Whenever the input was accepted and instrumented, the
// output must parse, and every method body that was readable in the input (and every body the
// tool added) must be readable and listable in the output. Seed with small real assemblies and
// run with -max_len=262144.
#include <string>

#include <fmt/format.h>

#include "fuzz_check.h"
#include "il/body_reader.h"
#include "il/disassembler.h"
#include "il/instruction.h"
#include "il/instrumenter.h"
#include "metadata/module.h"
#include "metadata/printer.h"

namespace {

using namespace cil;
using md::TableId;

bool body_readable(const md::Module& m, uint32_t rid) {
  auto body = il::read_body(m, rid);
  return body && il::decode_code(body->code, body->code_file_offset);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto input = md::Module::parse(std::vector<uint8_t>(data, data + size));
  if (!input) return 0;
  const md::Module& in = **input;
  uint32_t methods = in.tables().rows(TableId::MethodDef);
  std::vector<bool> readable(size_t{methods} + 1);
  for (uint32_t rid = 1; rid <= methods; ++rid) readable[rid] = il::has_il_body(in, rid) && body_readable(in, rid);

  il::InstrumentOptions options;
  options.mode = il::Mode::Count;
  auto report = il::instrument(in, options);
  if (!report) return 0;
  std::vector<uint8_t> bytes = report->output.flatten();
  CIL_FUZZ_CHECK(bytes.size() == report->output.size(), "flatten() and size() disagree");

  auto output = md::Module::parse(std::move(bytes));
  CIL_FUZZ_CHECK(output, "the output does not read back: " + output.error().to_string());
  const md::Module& out = **output;
  uint32_t out_methods = out.tables().rows(TableId::MethodDef);
  CIL_FUZZ_CHECK(out_methods >= methods, "the output lost methods");
  md::Printer printer(out);
  std::string listing;
  for (uint32_t rid = 1; rid <= out_methods; ++rid) {
    bool added = rid > methods;
    if (!il::has_il_body(out, rid)) {
      CIL_FUZZ_CHECK(!added && !readable[rid], fmt::format("method {:#x} lost its body", rid));
      continue;
    }
    auto body = il::read_body(out, rid);
    if (!body) {
      CIL_FUZZ_CHECK(!added && !readable[rid], fmt::format("method {:#x}: {}", rid, body.error().to_string()));
      continue;
    }
    auto code = il::decode_code(body->code, body->code_file_offset);
    CIL_FUZZ_CHECK(code || (!added && !readable[rid]),
                   fmt::format("method {:#x} code: {}", rid, code ? std::string() : code.error().to_string()));
    listing.clear();
    il::list_method(printer, rid, 0, &*body, code ? &*code : nullptr, "", {}, listing);
  }
  return 0;
}
