// Walking the inputs of a run over many files, and choosing which assemblies to instrument.
#include "cli/jobs/input_tree.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <map>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "instrument/debug_info.h"
#include "instrument/pdb_files.h"
#include "instrument/runtime_contract.h"
#include "instrument/user_code.h"
#include "metadata/name_pattern.h"
#include "metadata/portable_pdb.h"
#include "metadata/sha1.h"
#include "pe/debug_directory.h"
#include "pe/embedded_pdb.h"
#include "pe/pe_image.h"
#include "support/byte_reader.h"
#include "support/file_io.h"

namespace cil::cli {

namespace {

namespace fs = std::filesystem;

Error usage(std::string message) { return make_error(ErrorKind::Usage, "", std::move(message)); }

bool assembly_extension(const fs::path& p) {
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext == ".dll" || ext == ".exe";
}

/// The tool's own files in a folder: output temporaries, exec's journal and originals.
bool tool_file(const std::string& name) { return name.rfind(".cil-instrument", 0) == 0; }

bool same_inode(const fs::path& a, const struct stat& b) {
  struct stat sa {};
  return ::stat(a.c_str(), &sa) == 0 && sa.st_dev == b.st_dev && sa.st_ino == b.st_ino;
}

/// Attaches each PDB that sits beside an assembly of the same stem to that assembly.
std::vector<PlannedFile> attach_pdbs(std::vector<PlannedFile> files) {
  std::map<std::string, size_t> assemblies;  // the relative path of the PDB beside it -> index
  for (size_t i = 0; i < files.size(); ++i)
    if (assembly_extension(files[i].relative)) assemblies.emplace(instrument::pdb_beside(files[i].relative), i);
  std::vector<bool> attached(files.size(), false);
  for (size_t i = 0; i < files.size(); ++i) {
    fs::path rel(files[i].relative);
    if (rel.extension() != ".pdb") continue;
    auto it = assemblies.find(files[i].relative);
    if (it == assemblies.end() || !files[it->second].pdb.empty()) continue;
    files[it->second].pdb = files[i].input;
    attached[i] = true;
  }
  std::vector<PlannedFile> kept;
  for (size_t i = 0; i < files.size(); ++i)
    if (!attached[i]) kept.push_back(std::move(files[i]));
  return kept;
}

bool matches(const std::vector<std::string>& globs, const PlannedFile& file) { return md::assembly_glob_match(globs, file.relative); }

/// Public key tokens of the keys the .NET runtime, its libraries and ASP.NET Core are signed with
/// (the ECMA key's token among them): such assemblies come from the shared framework or its
/// packages, not from the user.
constexpr std::array<std::array<uint8_t, 8>, 6> kFrameworkTokens = {{
    {0xb7, 0x7a, 0x5c, 0x56, 0x19, 0x34, 0xe0, 0x89},  // ECMA (mscorlib, System)
    {0xb0, 0x3f, 0x5f, 0x7f, 0x11, 0xd5, 0x0a, 0x3a},  // Microsoft
    {0xcc, 0x7b, 0x13, 0xff, 0xcd, 0x2d, 0xdd, 0x51},  // .NET (netstandard, System.*)
    {0x7c, 0xec, 0x85, 0xd7, 0xbe, 0xa7, 0x79, 0x8e},  // System.Private.CoreLib
    {0x31, 0xbf, 0x38, 0x56, 0xad, 0x36, 0x4e, 0x35},  // Microsoft shared
    {0xad, 0xb9, 0x79, 0x38, 0x29, 0xdd, 0xae, 0x60},  // ASP.NET Core, Microsoft.Extensions
}};

bool framework_assembly(const md::Module& m) {
  if (!m.tables().rows(md::TableId::Assembly)) return false;
  auto key = m.row<md::TableId::Assembly>(1).public_key();
  if (!key || key->empty()) return false;
  // The ECMA key is 16 bytes whose token is b77a5c561934e089 by definition (II.6.2.1.3).
  std::vector<uint8_t> token = md::public_key_token(*key);
  if (token.size() != 8) return false;
  for (const auto& known : kFrameworkTokens)
    if (std::equal(known.begin(), known.end(), token.begin())) return true;
  return false;
}

/// The assembly carries System.Runtime.CompilerServices.ReferenceAssemblyAttribute: metadata
/// only, its bodies are `throw null`, and no program runs it.
bool reference_assembly(const md::Module& m) {
  using md::TableId;
  md::Token assembly = md::make_token(TableId::Assembly, 1);
  for (uint32_t rid = 1; rid <= m.tables().rows(TableId::CustomAttribute); ++rid) {
    if (m.row<TableId::CustomAttribute>(rid).parent() != assembly) continue;
    // The attribute's type may be defined in the assembly itself (System.Runtime's reference assembly).
    auto [ns, name] = m.attribute_type(md::CustomAttributeId(rid));
    if (name == "ReferenceAssemblyAttribute" && ns == "System.Runtime.CompilerServices") return true;
  }
  return false;
}

/// The portable PDB in the file `path`, or null when it cannot be read.
std::unique_ptr<md::PortablePdb> file_pdb(const std::string& path) {
  auto bytes = read_file(path);
  if (!bytes) return nullptr;
  auto pdb = md::PortablePdb::parse(std::move(*bytes));
  return pdb ? std::move(*pdb) : nullptr;
}

/// The portable PDB embedded in the assembly `path` (its debug directory's EmbeddedPortablePdb
/// entry), or null when it is not a PE image, has none, or it cannot be read. Builds with
/// DebugType embedded have no PDB beside the assembly, and are the user's all the same.
std::unique_ptr<md::PortablePdb> embedded_pdb(const std::string& path) {
  if (!path.ends_with(".dll") && !path.ends_with(".exe")) return nullptr;
  auto bytes = read_file(path);
  if (!bytes) return nullptr;
  auto image = pe::PeImage::parse(*bytes);
  if (!image) return nullptr;
  auto entries = pe::read_debug_directory(*image);
  if (!entries) return nullptr;
  for (const pe::DebugEntry& entry : *entries) {
    if (!entry.embedded_pdb) continue;
    auto inflated = pe::read_embedded_pdb(*image, entry);
    if (!inflated) return nullptr;
    auto pdb = md::PortablePdb::parse(std::move(*inflated));
    return pdb ? std::move(*pdb) : nullptr;
  }
  return nullptr;
}

/// Why a file found in a directory is not the user's own code under `root`, or "" when it is.
std::string not_user_code(const md::Module& m, const PlannedFile& file, const std::string& root) {
  std::string outside = fmt::format("no portable PDB of sources under {} (choose it with --assemblies)", root);
  auto entries = pe::read_debug_directory(m.image());
  if (!entries) return outside;
  instrument::PdbSource source = instrument::find_pdb(m, *entries, instrument::pdb_options("", file.input));
  if (!source.pdb || !instrument::documents_under(*source.pdb, root)) return outside;
  if (instrument::is_test_assembly(m)) return "test assembly (choose it with --assemblies)";
  return "";
}

}  // namespace

Expected<std::string> default_source_root() {
  std::string root;
  if (const char* value = std::getenv(contract::kEnvSourceRoot); value && *value) {
    root = value;
    if (root.front() != '/') return usage(fmt::format("{}: '{}' is not an absolute path", contract::kEnvSourceRoot, root));
  } else {
    std::error_code ec;
    root = fs::current_path(ec).string();
    if (ec) return make_error(ErrorKind::Io, "", fmt::format("cannot read the current directory: {}", ec.message()));
  }
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  return root;
}

std::string user_build_root(const std::vector<PlannedFile>& files, const std::string& root) {
  for (const PlannedFile& file : files) {
    if (file.named) continue;
    std::unique_ptr<md::PortablePdb> pdb = file.pdb.empty() ? embedded_pdb(file.input) : file_pdb(file.pdb);
    if (pdb && instrument::documents_under(*pdb, root)) return root;
  }
  return "";
}

Expected<std::vector<PlannedFile>> plan_inputs(const std::vector<std::string>& inputs, const std::string& skip_dir) {
  struct stat skip {};
  bool have_skip = !skip_dir.empty() && ::stat(skip_dir.c_str(), &skip) == 0;
  std::vector<PlannedFile> files;
  for (const auto& input : inputs) {
    std::error_code ec;
    auto status = fs::status(input, ec);
    if (ec || !fs::exists(status)) return usage(fmt::format("{}: no such file or directory", input));
    if (!fs::is_directory(status)) {
      files.push_back({input, fs::path(input).filename().string(), {}, true});
      continue;
    }
    fs::recursive_directory_iterator it(input, fs::directory_options::none, ec), end;
    if (ec) return make_error(ErrorKind::Io, "", fmt::format("{}: cannot read the directory: {}", input, ec.message()));
    for (; it != end; it.increment(ec)) {
      if (ec) return make_error(ErrorKind::Io, "", fmt::format("{}: cannot read the directory: {}", input, ec.message()));
      const fs::directory_entry& entry = *it;
      std::string name = entry.path().filename().string();
      std::error_code type_ec;
      if (entry.is_directory(type_ec)) {
        // Links to directories are not followed (none is walked twice, none loops) and not
        // copied: what they name is outside the tree or walked at its own place.
        if (tool_file(name) || (have_skip && same_inode(entry.path(), skip)) || entry.is_symlink(type_ec)) it.disable_recursion_pending();
        continue;
      }
      // A link to a file is read as the file it names, wherever that is, and its output goes
      // at the link's own place in the tree: the relative path is the walk's, never the
      // target's (fs::relative would resolve the link and could climb out of the tree).
      if (tool_file(name) || !entry.is_regular_file(type_ec)) continue;
      files.push_back({entry.path().string(), entry.path().lexically_relative(input).string(), {}});
      if (files.size() > kMaxPlannedFiles) return usage(fmt::format("more than {} input files", kMaxPlannedFiles));
    }
  }
  std::stable_sort(files.begin(), files.end(), [](const PlannedFile& a, const PlannedFile& b) { return a.relative < b.relative; });
  for (size_t i = 1; i < files.size(); ++i)
    if (files[i].relative == files[i - 1].relative)
      return usage(fmt::format("{} and {} would both be written as {}", files[i - 1].input, files[i].input, files[i].relative));
  return attach_pdbs(std::move(files));
}

bool looks_managed(const std::string& path) {
  // II.25.2: the MS-DOS header's e_lfanew, the PE signature, the COFF header, then the optional
  // header whose data directory 14 is the CLI header (II.25.2.3.3).
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return true;  // loading it says why
  std::array<uint8_t, 4096> head{};
  ssize_t got = ::pread(fd, head.data(), head.size(), 0);
  ::close(fd);
  if (got < 0) return true;
  ByteReader r(std::span<const uint8_t>(head.data(), static_cast<size_t>(got)), 0, "PE headers");
  auto mz = r.peek_at<uint16_t>(0);
  if (!mz || *mz != 0x5A4D) return false;  // no "MZ": not a PE image at all
  auto lfanew = r.peek_at<uint32_t>(0x3C);
  if (!lfanew) return false;
  auto signature = r.peek_at<uint32_t>(*lfanew);
  if (!signature) return true;  // headers beyond the first page: let the loader decide
  if (*signature != 0x00004550) return false;
  size_t optional = *lfanew + 24;
  auto magic = r.peek_at<uint16_t>(optional);
  if (!magic) return true;
  size_t count_at = optional + (*magic == 0x20b ? 108 : 92);
  size_t dirs_at = count_at + 4;
  auto count = r.peek_at<uint32_t>(count_at);
  if (!count) return true;
  if (*count <= 14) return false;
  auto cli_rva = r.peek_at<uint32_t>(dirs_at + 14 * 8);
  if (!cli_rva) return true;
  return *cli_rva != 0;
}

Choice choose_file(const PlannedFile& file, const AssemblyFilter& filter) {
  Choice choice;
  if (!assembly_extension(file.relative)) {
    choice.reason = "not an assembly";
    return choice;
  }
  if (!looks_managed(file.input)) {
    choice.reason = "not a managed assembly";
    return choice;
  }
  if (!filter.assemblies.empty() && !matches(filter.assemblies, file)) {
    choice.reason = "not chosen by --assemblies";
    return choice;
  }
  if (matches(filter.skip_assemblies, file)) {
    choice.reason = "skipped by --skip-assemblies";
    return choice;
  }
  auto module = md::Module::load(file.input);
  if (!module) {
    choice.error = in_file(std::move(module).error(), file.input);
    return choice;
  }
  if (reference_assembly(**module)) {
    choice.reason = "reference assembly";
    return choice;
  }
  if (filter.assemblies.empty() && !filter.user_root.empty() && !file.named) {
    choice.reason = not_user_code(**module, file, filter.user_root);
    if (!choice.reason.empty()) return choice;
  } else if (filter.assemblies.empty() && framework_assembly(**module)) {
    choice.reason = "framework assembly (choose it with --assemblies)";
    return choice;
  }
  choice.instrument = true;
  choice.module = std::move(*module);
  return choice;
}

}  // namespace cil::cli
