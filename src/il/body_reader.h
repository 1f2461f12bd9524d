// Finding and parsing the IL body of a MethodDef row.
#pragma once

#include "il/method_body.h"
#include "metadata/module.h"

namespace cil::il {

/// True when `method` has an IL body: a non-zero RVA and code type IL (II.23.1.11).
bool has_il_body(const md::Module& module, md::MethodDefId method);

/// Parses the body of `method`; errors are named "MethodDef 0x06xxxxxx body".
Expected<MethodBody> read_body(const md::Module& module, md::MethodDefId method);
/// The same, into `body` (parse_method_body_into: its vectors' storage is reused).
Status read_body_into(const md::Module& module, md::MethodDefId method, MethodBody& body);

}  // namespace cil::il
