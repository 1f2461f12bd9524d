// Which PDB goes with an assembly, the PDB beside an output, and a PDB id's text.
#include "instrument/pdb_files.h"

#include <algorithm>

#include <sys/stat.h>

#include <fmt/format.h>

#include "metadata/heaps.h"
#include "metadata/portable_pdb.h"
#include "support/byte_reader.h"
#include "support/file_io.h"

namespace cil::instrument {

std::string without_extension(const std::string& path) {
  size_t slash = path.find_last_of('/');
  size_t dot = path.find_last_of('.');
  size_t name_start = slash == std::string::npos ? 0 : slash + 1;
  if (dot == std::string::npos || dot < name_start || dot == name_start) return path;
  return path.substr(0, dot);
}

std::string file_name(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string pdb_beside(const std::string& assembly) { return without_extension(assembly) + ".pdb"; }

std::string input_pdb_path(const std::string& named, const std::string& assembly) {
  if (named == "none") return "";
  return named.empty() ? pdb_beside(assembly) : named;
}

PdbOptions pdb_options(const std::string& named, const std::string& input, const std::string& output_pdb) {
  PdbOptions pdb;
  if (!output_pdb.empty()) pdb.output_file_name = file_name(output_pdb);
  if (named == "none") {
    pdb.mode = PdbOptions::Mode::None;
    return pdb;
  }
  pdb.mode = named.empty() ? PdbOptions::Mode::Auto : PdbOptions::Mode::File;
  pdb.path = input_pdb_path(named, input);
  // Only a regular file: a directory or a device of that name is not the assembly's PDB.
  struct stat st {};
  bool is_file = ::stat(pdb.path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
  if (pdb.mode == PdbOptions::Mode::Auto && !is_file) return pdb;
  auto bytes = read_file(pdb.path, md::kMaxPdbSize);
  if (bytes) pdb.bytes = std::make_shared<const std::vector<uint8_t>>(std::move(*bytes));
  else pdb.read_error = bytes.error();
  return pdb;
}

std::string pdb_id_text(std::span<const uint8_t, 16> guid, uint32_t stamp, PdbIdStyle style) {
  md::Guid g{};
  std::copy(guid.begin(), guid.end(), g.begin());
  if (style == PdbIdStyle::Summary) return fmt::format("{}-{:08x}", md::format_guid(g), stamp);
  return fmt::format("{} stamp {:08x}", md::format_guid(g), stamp);
}

std::string pdb_id_text(const md::PdbId& id, PdbIdStyle style) {
  return pdb_id_text(std::span<const uint8_t, 16>(id.data(), 16), load_le<uint32_t>(id.data() + 16), style);
}

}  // namespace cil::instrument
