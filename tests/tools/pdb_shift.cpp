// The PDB rewrite end to end without the instrument modes: every IL body gets N `nop`s at entry
// (il::rewrite_body's entry code, which shifts exception clauses too) and the debug information
// job gets the map of that rewrite (every offset + N), exactly as the modes give theirs. The output
// and its PDB (beside it, or embedded) must run with the original's stack traces and pass the SRM
// oracle. With --lie K the job is told the code moved by K instead: a control, whose PDB must be
// caught as wrong.
//   cil_pdb_shift IN OUT [--nops N] [--lie K]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "il/body_reader.h"
#include "instrument/debug_info.h"
#include "instrument/pdb_files.h"
#include "il/instruction.h"
#include "il/rewrite.h"
#include "metadata/module.h"
#include "metadata/module_editor.h"
#include "support/file_io.h"

using namespace cil;

namespace {

int fail(const std::string& what) {
  fmt::print(stderr, "cil_pdb_shift: {}\n", what);
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return fail("usage: cil_pdb_shift IN OUT [--nops N] [--lie K]");
  std::string input = argv[1], output = argv[2];
  uint32_t nops = 16, told = UINT32_MAX;
  for (int i = 3; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--nops") == 0) nops = static_cast<uint32_t>(std::atoi(argv[i + 1]));
    else if (std::strcmp(argv[i], "--lie") == 0) told = static_cast<uint32_t>(std::atoi(argv[i + 1]));
    else return fail(fmt::format("unknown option {}", argv[i]));
  }
  if (told == UINT32_MAX) told = nops;
  auto loaded = md::Module::load(input);
  if (!loaded) return fail(loaded.error().to_string());
  const md::Module& m = **loaded;

  std::string output_pdb = instrument::pdb_beside(output);
  instrument::PdbOptions options = instrument::pdb_options("", input, output_pdb);
  std::vector<std::string> warnings;
  instrument::DebugInfoJob job = instrument::DebugInfoJob::open(m, options, warnings);
  if (!job.has_pdb()) return fail("no PDB to rewrite: " + (warnings.empty() ? std::string("none claimed") : warnings.front()));

  md::ModuleEditor editor(m);
  uint32_t methods = m.tables().rows(md::TableId::MethodDef);
  std::vector<il::Instr> prologue(nops);
  for (auto& in : prologue) in.op = il::Op::Nop;
  for (uint32_t rid = 1; rid <= methods; ++rid) {
    if (!il::has_il_body(m, md::MethodDefId(rid))) continue;
    auto body = il::read_body(m, md::MethodDefId(rid));
    if (!body) return fail(body.error().to_string());
    auto code = il::decode_code(body->code, body->code_file_offset);
    if (!code) return fail(code.error().to_string());
    il::BodyEdit edit;
    edit.entry_code = prologue;
    auto rewritten = il::rewrite_body(*body, *code, edit);
    if (!rewritten) return fail(rewritten.error().to_string());
    const std::vector<uint8_t>& bytes = rewritten->bytes;
    if (Status s = editor.set_method_body(md::MethodDefId(rid), bytes); !s) return fail(s.error().to_string());
    std::vector<il::OffsetMap::Entry> entries;
    for (const auto& in : code->instructions) entries.push_back({in.offset, in.offset + told});
    entries.push_back({body->code_size, body->code_size + told});
    il::OffsetMap map(std::move(entries), body->code_size + nops);
    job.method_rewritten(md::MethodDefId(rid), map, rewritten->local_sig_token);
  }
  instrument::PdbOutcome outcome = job.finish(editor, warnings);
  for (const auto& w : warnings) fmt::print(stderr, "cil_pdb_shift: warning: {}\n", w);
  if (outcome.output == instrument::PdbOutcome::Output::None) return fail("no PDB written: " + outcome.reason);
  auto image = editor.write();
  if (!image) return fail(image.error().to_string());
  if (outcome.output == instrument::PdbOutcome::Output::Standalone)
    if (Status s = write_file_atomic(output_pdb, outcome.standalone.flatten()); !s) return fail(s.error().to_string());
  if (Status s = write_file_atomic(output, image->flatten()); !s) return fail(s.error().to_string());
  fmt::print("{}: {} bodies shifted by {} (the PDB told {}), PDB {}\n", output, methods, nops, told,
             outcome.output == instrument::PdbOutcome::Output::Embedded ? "embedded" : output_pdb);
  return 0;
}
