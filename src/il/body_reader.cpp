// Locating a method body by RVA and parsing it, with the method named in any error.
#include "il/body_reader.h"

#include <fmt/format.h>

namespace cil::il {

bool has_il_body(const md::Module& module, uint32_t rid) {
  if (!module.tables().valid_rid(md::TableId::MethodDef, rid)) return false;
  auto method = module.row<md::TableId::MethodDef>(rid);
  using md::MethodImplAttributes;
  return method.rva() != 0 && (method.impl_flags() & MethodImplAttributes::CodeTypeMask) == MethodImplAttributes::IL;
}

Status read_body_into(const md::Module& module, uint32_t rid, MethodBody& body) {
  auto named = [rid](Error e) {
    e.structure = fmt::format("MethodDef 0x{:08X} body", md::make_token(md::TableId::MethodDef, rid));
    return e;
  };
  uint32_t rva = module.row<md::TableId::MethodDef>(rid).rva();
  auto reader = module.image().reader_from(rva, "method body");
  if (!reader) return named(std::move(reader).error());
  if (Status parsed = parse_method_body_into(*reader, body); !parsed) return named(std::move(parsed).error());
  return ok();
}

Expected<MethodBody> read_body(const md::Module& module, uint32_t rid) {
  MethodBody body;
  CIL_TRY(read_body_into(module, rid, body));
  return body;
}

}  // namespace cil::il
