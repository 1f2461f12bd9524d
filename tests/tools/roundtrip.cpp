// Decode/encode identity over real assemblies: every IL body, decoded into the engine's model and
// encoded again without edits, must give back its exact bytes and an identity offset map; the
// entry fast path of il::rewrite_body must give the bytes and the map of the model path for the
// same probe; and the simulated max stack of every body must not exceed the one its compiler
// declared.
//   cil_roundtrip FILE...
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

#include "il/body_model.h"
#include "il/body_reader.h"
#include "il/max_stack.h"
#include "il/rewrite.h"
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
      if (!il::has_il_body(m, md::MethodDefId(rid))) continue;
      auto body = il::read_body(m, md::MethodDefId(rid));
      if (!body) {
        ++unreadable;
        continue;
      }
      ++methods;
      auto code = il::decode_code(body->code, body->code_file_offset);
      il::BodyEdit noop;
      auto encoded = code ? il::rewrite_body(*body, *code, noop) : Expected<il::EncodedBody>(code.error());
      std::span<const uint8_t> original = m.bytes().subspan(body->file_offset, body->total_size);
      if (!encoded || encoded->bytes.size() != original.size() ||
          std::memcmp(encoded->bytes.data(), original.data(), original.size()) != 0 || !encoded->map.is_identity() ||
          encoded->map.entries().size() != code->instructions.size() + 1) {
        if (file_failures++ < 5)
          fmt::print(stderr, "{}: MethodDef 0x{:08X}: re-encoding differs{}\n", argv[i],
                     md::make_token(md::TableId::MethodDef, rid), encoded ? "" : ": " + encoded.error().to_string());
        continue;
      }
      ++identical;
      // The entry fast path must give what the model gives for the same prologue (count mode's
      // probe, with a slot that takes every ldc.i4 form).
      {
        il::BodyModel scratch;
        std::vector<il::Instr> probe = {scratch.make(il::Op::Ldsfld, 0x04000001), scratch.ldc_i4(static_cast<int32_t>(rid)),
                                        scratch.make(il::Op::Ldelema, 0x01000001), scratch.make(il::Op::Call, 0x0A000001),
                                        scratch.make(il::Op::Pop)};
        il::BodyEdit edit;
        edit.entry_code = probe;
        edit.entry_max_stack = 2;
        auto via_splice = il::rewrite_body(*body, *code, edit, il::RewritePath::Fastest);
        auto via_model = il::rewrite_body(*body, *code, edit, il::RewritePath::Model);
        if (!via_model || !via_splice || via_model->bytes != via_splice->bytes || via_model->map != via_splice->map) {
          if (file_failures++ < 5)
            fmt::print(stderr, "{}: MethodDef 0x{:08X}: the entry fast path differs from the model{}\n", argv[i],
                       md::make_token(md::TableId::MethodDef, rid),
                       !via_model ? ": " + via_model.error().to_string() : !via_splice ? ": " + via_splice.error().to_string() : "");
          continue;
        }
        // Both name the local signature their header names (what the PDB's rewrite is given).
        ByteReader header_reader(via_splice->bytes, 0, "method body");
        il::MethodBody header;
        if (!il::parse_method_header(header_reader, header) || header.local_sig_token != via_splice->local_sig_token ||
            header.local_sig_token != via_model->local_sig_token || header.local_sig_token != body->local_sig_token) {
          if (file_failures++ < 5)
            fmt::print(stderr, "{}: MethodDef 0x{:08X}: the rewrite names local signature 0x{:08X}, its header 0x{:08X}\n", argv[i],
                       md::make_token(md::TableId::MethodDef, rid), via_splice->local_sig_token, header.local_sig_token);
          continue;
        }
        // And that map is the plain shift of every original boundary by the probe's size, which
        // is the one inserted range.
        uint32_t shift = via_model->map.new_code_size() - body->code_size;
        const auto entries = via_model->map.entries();
        const auto inserted = via_model->map.inserted();
        bool shifted = entries.size() == code->instructions.size() + 1 && entries.back().old_offset == body->code_size &&
                       entries.back().new_offset == body->code_size + shift && inserted.size() == 1 &&
                       inserted[0] == il::OffsetMap::Range{0, shift};
        for (size_t k = 0; shifted && k < code->instructions.size(); ++k)
          shifted = entries[k].old_offset == code->instructions[k].offset && entries[k].new_offset == entries[k].old_offset + shift;
        if (!shifted) {
          if (file_failures++ < 5)
            fmt::print(stderr, "{}: MethodDef 0x{:08X}: the probed body's map is not a shift by {}\n", argv[i],
                       md::make_token(md::TableId::MethodDef, rid), shift);
          continue;
        }
        ++spliced;
      }
      auto model = il::BodyModel::from(*body, *code);
      if (!model) {
        if (file_failures++ < 5)
          fmt::print(stderr, "{}: MethodDef 0x{:08X}: {}\n", argv[i], md::make_token(md::TableId::MethodDef, rid),
                     model.error().to_string());
        continue;
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
  fmt::print("{} bodies: {} re-encoded identically (identity maps), {} spliced like the model (bytes and maps); fat headers: max stack equal to the declared one in {}, lower in {}; {} unreadable\n",
             methods, identical, spliced, stack_equal, stack_lower, unreadable);
  if (failures) fmt::print("{} failure(s)\n", failures);
  return failures ? 1 : 0;
}
