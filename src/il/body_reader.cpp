// Locating a method body by RVA and parsing it, with the method named in any error.
#include "il/body_reader.h"

#include <fmt/format.h>

namespace cil::il {

bool has_il_body(const md::Module& module, md::MethodDefId method) {
  if (!module.valid(method)) return false;
  auto row = module.row(method);
  using md::MethodImplAttributes;
  return row.rva() != 0 && (row.impl_flags() & MethodImplAttributes::CodeTypeMask) == MethodImplAttributes::IL;
}

Status read_body_into(const md::Module& module, md::MethodDefId method, MethodBody& body) {
  auto named = [method](Error e) {
    e.structure = fmt::format("MethodDef 0x{:08X} body", method.token());
    return e;
  };
  uint32_t rva = module.row(method).rva();
  auto reader = module.image().reader_from(rva, "method body");
  if (!reader) return named(std::move(reader).error());
  if (Status parsed = parse_method_body_into(*reader, body); !parsed) return named(std::move(parsed).error());
  return ok();
}

Expected<MethodBody> read_body(const md::Module& module, md::MethodDefId method) {
  MethodBody body;
  CIL_TRY(read_body_into(module, method, body));
  return body;
}

}  // namespace cil::il
