// Shared by dump, diff and instrument: the assembly's identity and its methods with IL bodies,
// filtered by name patterns.
#pragma once

#include <string>
#include <vector>

#include "metadata/module.h"
#include "metadata/name_pattern.h"
#include "metadata/printer.h"

namespace cil::cli {

std::string assembly_name(const md::Module& m);
std::string module_mvid(const md::Module& m);

/// The methods with an IL body whose full name the filter selects, in token order.
std::vector<md::MethodDefId> select_methods(const md::Module& m, md::Printer& printer, const md::MethodFilter& filter);

}  // namespace cil::cli
