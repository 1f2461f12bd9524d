// Where a command takes a PDB from: --pdb PATH|none, or IN.pdb beside the input.
#pragma once

#include <optional>
#include <string>

#include "instrument/debug_info.h"

namespace cil::cli {

/// PATH without its extension (a '.' in a directory name is not one).
std::string without_extension(const std::string& path);
/// The last component of PATH.
std::string file_name(const std::string& path);

/// The PdbOptions for `input`: `named` is --pdb's value (empty when not given; "none": no debug
/// information), else IN.pdb beside the input, read when it exists. `output_pdb` is the path of
/// the PDB the command writes, if any.
instrument::PdbOptions pdb_options(const std::string& named, const std::string& input, const std::string& output_pdb = "");

}  // namespace cil::cli
