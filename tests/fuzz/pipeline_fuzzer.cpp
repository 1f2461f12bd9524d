// Fuzz target: the whole pipeline. Read a file, read it as a hooks assembly too (the trace-mode
// contract, with and without a hook type), instrument it in count mode, write it, and read the
// output back with the same reader. Whenever the input was accepted and instrumented, the
// output must parse and pass the tool's self-check, and every method body that was readable in the input (and every body the
// tool added) must be readable and listable in the output. Seed with small real assemblies and
// run with -max_len=262144.
#include <optional>
#include <string>

#include <fmt/format.h>

#include "cli/output/listing_printer.h"
#include "fuzz_check.h"
#include "il/body_reader.h"
#include "il/disassembler.h"
#include "instrument/hook_contract.h"
#include "il/instruction.h"
#include "instrument/instrumenter.h"
#include "instrument/output_check.h"
#include "metadata/module.h"
#include "metadata/printer.h"
#include "metadata/text_encoding.h"

namespace {

using namespace cil;
using md::TableId;

bool body_readable(const md::Module& m, uint32_t rid) {
  auto body = il::read_body(m, md::MethodDefId(rid));
  return body && il::decode_code(body->code, body->code_file_offset);
}

/// The hooks assembly is a file the user hands over as well: its contract must read or be
/// refused with a message whose quoted names and lists are cut, and an accepted one must name a
/// hook type of the file with at least one hook whose parameters are all different.
void check_hooks(const md::Module& m) {
  md::Printer printer(m);
  uint32_t types = m.tables().rows(TableId::TypeDef);
  std::optional<std::string> choices[] = {std::nullopt, types >= 2 ? std::optional(printer.type_def_name(md::TypeDefId(2))) : std::nullopt};
  for (const auto& hook_type : choices) {
    auto contract = instrument::read_hook_contract(m, hook_type);
    if (!contract) {
      CIL_FUZZ_CHECK(contract.error().message.size() <= 4 * md::kMaxQuotedText + 512,
                     fmt::format("a {}-byte hook contract error", contract.error().message.size()));
      continue;
    }
    CIL_FUZZ_CHECK(contract->on_enter.present || contract->on_leave.present || contract->on_exception.present,
                   "a hook contract without hooks");
    for (const instrument::HookMethod* hook : {&contract->on_enter, &contract->on_leave, &contract->on_exception})
      for (size_t i = 0; i < hook->params.size(); ++i)
        for (size_t j = i + 1; j < hook->params.size(); ++j)
          CIL_FUZZ_CHECK(hook->params[i] != hook->params[j], "a hook parameter declared twice");
    if (hook_type) {
      std::string chosen = contract->type_namespace.empty() ? contract->type_name
                                                            : contract->type_namespace + "." + contract->type_name;
      CIL_FUZZ_CHECK(chosen == *hook_type || hook_type->find("...") != std::string::npos,
                     "the contract names another type than the one asked for");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto input = md::Module::parse(std::vector<uint8_t>(data, data + size));
  if (!input) return 0;
  const md::Module& in = **input;
  check_hooks(in);
  uint32_t methods = in.tables().rows(TableId::MethodDef);
  std::vector<bool> readable(size_t{methods} + 1);
  for (uint32_t rid = 1; rid <= methods; ++rid) readable[rid] = il::has_il_body(in, md::MethodDefId(rid)) && body_readable(in, rid);

  instrument::InstrumentOptions options;
  options.mode = instrument::Mode::Count;
  auto report = instrument::instrument_module(in, options);
  if (!report) return 0;
  std::vector<uint8_t> bytes = report->output.flatten();
  CIL_FUZZ_CHECK(bytes.size() == report->output.size(), "flatten() and size() disagree");
  // What the tool accepted and wrote, its own self-check accepts: faults of the input are refused
  // before anything is written (issue 36), so a fault the check finds is the tool's.
  {
    instrument::OutputExpectations expect;
    expect.rewritten = report->instrumented;
    expect.input_methods = methods;
    expect.embedded_pdb = report->pdb.output == instrument::PdbOutcome::Output::Embedded;
    auto checked = instrument::check_output(bytes, expect);
    CIL_FUZZ_CHECK(checked, "the output fails the self-check: " + (checked ? std::string() : checked.error().to_string()));
  }

  auto output = md::Module::parse(std::move(bytes));
  CIL_FUZZ_CHECK(output, "the output does not read back: " + output.error().to_string());
  const md::Module& out = **output;
  uint32_t out_methods = out.tables().rows(TableId::MethodDef);
  CIL_FUZZ_CHECK(out_methods >= methods, "the output lost methods");
  md::Printer printer(out);
  for (uint32_t rid = 1; rid <= out_methods; ++rid) {
    bool added = rid > methods;
    if (!il::has_il_body(out, md::MethodDefId(rid))) {
      CIL_FUZZ_CHECK(!added && !readable[rid], fmt::format("method {:#x} lost its body", rid));
      continue;
    }
    auto body = il::read_body(out, md::MethodDefId(rid));
    if (!body) {
      CIL_FUZZ_CHECK(!added && !readable[rid], fmt::format("method {:#x}: {}", rid, body.error().to_string()));
      continue;
    }
    auto code = il::decode_code(body->code, body->code_file_offset);
    CIL_FUZZ_CHECK(code || (!added && !readable[rid]),
                   fmt::format("method {:#x} code: {}", rid, code ? std::string() : code.error().to_string()));
    // Listed in both forms, as dump and diff print it.
    il::MethodListing listing = il::list_method(printer, md::MethodDefId(rid), 0, &*body, code ? &*code : nullptr, "unreadable");
    for (bool json : {false, true}) {
      auto p = cli::make_printer(json);
      {
        cli::ListScope methods(*p);
        cli::print_listing(*p, listing, cli::LabelNames::offsets(), cli::ListingStyle::Dump);
      }
      CIL_FUZZ_CHECK(!p->output().empty(), fmt::format("method {:#x}: empty listing", rid));
    }
    CIL_FUZZ_CHECK(!cli::diff_text(listing, cli::LabelNames::numbered(listing)).empty(), "empty diff listing");
  }
  return 0;
}
