// Finding and parsing the IL body of a MethodDef row.
#pragma once

#include "il/method_body.h"
#include "metadata/module.h"

namespace cil::il {

/// True when MethodDef `rid` has an IL body: a non-zero RVA and code type IL (II.23.1.11).
bool has_il_body(const md::Module& module, uint32_t rid);

/// Parses the body of MethodDef `rid`; errors are named "MethodDef 0x06xxxxxx body".
Expected<MethodBody> read_body(const md::Module& module, uint32_t rid);
/// The same, into `body` (parse_method_body_into: its vectors' storage is reused).
Status read_body_into(const md::Module& module, uint32_t rid, MethodBody& body);

}  // namespace cil::il
