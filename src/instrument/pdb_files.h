// The one home of three facts about standalone PDBs: which PDB belongs to an assembly (NAME.pdb
// beside NAME.dll, or the one the user named), the PDB written beside an output, and how a PDB id
// is written in text.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "instrument/debug_info.h"
#include "metadata/pdb_stream.h"

namespace cil::instrument {

/// PATH without its extension (a '.' in a directory name, or a name's leading '.', is not one).
std::string without_extension(const std::string& path);
/// The last component of PATH.
std::string file_name(const std::string& path);

/// NAME.pdb beside NAME.dll (or NAME.exe, or NAME): where the runtime and the tool look for an
/// assembly's standalone PDB, and where the output's PDB is written (its CodeView entry names it).
std::string pdb_beside(const std::string& assembly);

/// The standalone PDB that goes with `assembly` when `named` is --pdb's value: the named file,
/// none ("" for "none"), or, when not given (empty), the one beside it (read only if it exists).
std::string input_pdb_path(const std::string& named, const std::string& assembly);

/// The PdbOptions for `input`: `named` is --pdb's value (empty when not given; "none": no debug
/// information), else the PDB beside the input, read when it exists. `output_pdb` is the path of
/// the PDB the command writes, if any.
PdbOptions pdb_options(const std::string& named, const std::string& input, const std::string& output_pdb = "");

/// How a PDB id (a GUID and a 4-byte stamp) is written.
enum class PdbIdStyle {
  Summary,  ///< "GUID-stamp": the instrument summary's "PDB:" line and its JSON "id"
  Message,  ///< "GUID stamp stamp": warnings that compare two ids
};
/// The id whose GUID is `guid`'s 16 bytes and whose stamp is `stamp`, as `style` writes it.
std::string pdb_id_text(std::span<const uint8_t, 16> guid, uint32_t stamp, PdbIdStyle style);
/// A 20-byte PDB id (its GUID, then its stamp little-endian), as `style` writes it.
std::string pdb_id_text(const md::PdbId& id, PdbIdStyle style);

}  // namespace cil::instrument
