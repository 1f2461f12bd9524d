// Decode/encode identity over real assemblies: every IL body, decoded into the engine's model and
// encoded again without edits, must give back its exact bytes; and the simulated max stack of
// every body must not exceed the one its compiler declared.
//   cil_roundtrip FILE...
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

#include "il/body_encoder.h"
#include "il/body_model.h"
#include "il/body_reader.h"
#include "il/max_stack.h"
#include "il/prepend.h"
#include "il/rewriter.h"
#include "metadata/module.h"
#include "metadata/module_editor.h"
#include "metadata/signature.h"

using namespace cil;

int main(int argc, char** argv) {
  uint64_t methods = 0, identical = 0, spliced = 0, stack_equal = 0, stack_lower = 0, unreadable = 0;
  int failures = 0;
  for (int i = 1; i < argc; ++i) {
    auto loaded = md::Module::load(argv[i]);
    if (!loaded) {
      fmt::print(stderr, "{}: {}\n", argv[i], loaded.error().to_string());
      ++failures;
      continue;
    }
    const md::Module& m = **loaded;
    md::ModuleEditor sink(m);
    il::CallEffects effects(sink);
    int file_failures = 0;
    for (uint32_t rid = 1; rid <= m.tables().rows(md::TableId::MethodDef); ++rid) {
      if (!il::has_il_body(m, rid)) continue;
      auto body = il::read_body(m, rid);
      if (!body) {
        ++unreadable;
        continue;
      }
      ++methods;
      auto code = il::decode_code(body->code, body->code_file_offset);
      auto model = code ? il::BodyModel::from(*body, *code) : Expected<il::BodyModel>(code.error());
      auto bytes = model ? il::encode_body(*model) : Expected<std::vector<uint8_t>>(model.error());
      std::span<const uint8_t> original = m.bytes().subspan(body->file_offset, body->total_size);
      if (!bytes || bytes->size() != original.size() || std::memcmp(bytes->data(), original.data(), original.size()) != 0) {
        if (file_failures++ < 5)
          fmt::print(stderr, "{}: MethodDef 0x{:08X}: re-encoding differs{}\n", argv[i],
                     md::make_token(md::TableId::MethodDef, rid), bytes ? "" : ": " + bytes.error().to_string());
        continue;
      }
      ++identical;
      // The splice fast path must give what the model gives for the same prologue.
      {
        il::BodyModel edited = *model;
        std::vector<il::Instr> probe = {edited.make(il::Op::Ldsfld, 0x04000001), edited.ldc_i4(static_cast<int32_t>(rid)),
                                        edited.make(il::Op::Ldelema, 0x01000001), edited.make(il::Op::Call, 0x0A000001),
                                        edited.make(il::Op::Pop)};
        std::vector<il::Instr> copy = probe;
        il::insert_code(edited, 0, std::move(copy));
        edited.max_stack = std::max<uint16_t>(edited.max_stack, 2);
        auto via_model = il::encode_body(edited);
        auto via_splice = il::prepend_code(*body, probe, edited.max_stack);
        if (!via_model || !via_splice || *via_model != *via_splice) {
          if (file_failures++ < 5)
            fmt::print(stderr, "{}: MethodDef 0x{:08X}: prepend_code differs from the model\n", argv[i],
                       md::make_token(md::TableId::MethodDef, rid));
          continue;
        }
        ++spliced;
      }
      auto sig = m.row<md::TableId::MethodDef>(rid).signature_reader("sig");
      auto msig = sig ? md::decode_method_sig(*sig) : Expected<md::MethodSig>(sig.error());
      if (!msig) continue;
      auto stack = il::compute_max_stack(*model, msig->return_type.element != md::ElementType::Void, effects);
      if (!stack) {
        if (file_failures++ < 5)
          fmt::print(stderr, "{}: MethodDef 0x{:08X}: max stack: {}\n", argv[i], md::make_token(md::TableId::MethodDef, rid),
                     stack.error().to_string());
        continue;
      }
      if (*stack > body->max_stack) {
        if (file_failures++ < 5)
          fmt::print(stderr, "{}: MethodDef 0x{:08X}: simulated max stack {} exceeds the declared {}\n", argv[i],
                     md::make_token(md::TableId::MethodDef, rid), *stack, body->max_stack);
        continue;
      }
      if (!body->fat) continue;  // a tiny header always declares 8
      if (*stack == body->max_stack) ++stack_equal;
      else ++stack_lower;
    }
    failures += file_failures;
  }
  fmt::print("{} bodies: {} re-encoded identically, {} spliced like the model; fat headers: max stack equal to the declared one in {}, lower in {}; {} unreadable\n",
             methods, identical, spliced, stack_equal, stack_lower, unreadable);
  if (failures) fmt::print("{} failure(s)\n", failures);
  return failures ? 1 : 0;
}
