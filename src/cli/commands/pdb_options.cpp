// Finding and reading the standalone PDB a command was given or finds beside its input.
#include "cli/commands/pdb_options.h"

#include <sys/stat.h>

#include "metadata/portable_pdb.h"
#include "support/file_io.h"

namespace cil::cli {

namespace {

bool is_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

}  // namespace

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

instrument::PdbOptions pdb_options(const std::string& named, const std::string& input, const std::string& output_pdb) {
  instrument::PdbOptions pdb;
  if (!output_pdb.empty()) pdb.output_file_name = file_name(output_pdb);
  if (named == "none") {
    pdb.mode = instrument::PdbOptions::Mode::None;
    return pdb;
  }
  pdb.mode = named.empty() ? instrument::PdbOptions::Mode::Auto : instrument::PdbOptions::Mode::File;
  pdb.path = named.empty() ? without_extension(input) + ".pdb" : named;
  if (pdb.mode == instrument::PdbOptions::Mode::Auto && !is_file(pdb.path)) return pdb;
  auto bytes = read_file(pdb.path, md::kMaxPdbSize);
  if (bytes) pdb.bytes = std::make_shared<const std::vector<uint8_t>>(std::move(*bytes));
  else pdb.read_error = bytes.error();
  return pdb;
}

}  // namespace cil::cli
