// `cil-instrument info IN [--json]`: headers, flags, streams, table row counts, entry point.
#include <fmt/format.h>

#include <cxxopts.hpp>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/json_writer.h"
#include "cli/method_selection.h"
#include "il/body_reader.h"
#include "metadata/module.h"
#include "metadata/printer.h"
#include "metadata/text_encoding.h"
#include "pe/debug_directory.h"

namespace cil::cli {

namespace {

using md::TableId;

struct FlagName {
  uint32_t bit;
  const char* name;
};

constexpr FlagName kCliFlags[] = {
    {pe::kComImageIlOnly, "ILONLY"},
    {pe::kComImage32BitRequired, "32BITREQUIRED"},
    {pe::kComImageIlLibrary, "IL_LIBRARY"},
    {pe::kComImageStrongNameSigned, "STRONGNAMESIGNED"},
    {pe::kComImageNativeEntryPoint, "NATIVE_ENTRYPOINT"},
    {pe::kComImageTrackDebugData, "TRACKDEBUGDATA"},
    {pe::kComImage32BitPreferred, "32BITPREFERRED"},
};

constexpr FlagName kFileFlags[] = {
    {0x0001, "relocs-stripped"}, {0x0002, "executable"}, {0x0020, "large-address-aware"},
    {0x0100, "32bit-machine"},   {0x0200, "debug-stripped"}, {0x2000, "dll"},
};

constexpr const char* kDirectoryNames[] = {"export", "import", "resource", "exception", "security", "basereloc",
                                           "debug", "architecture", "globalptr", "tls", "loadconfig", "boundimport",
                                           "iat", "delayimport", "clr", "reserved"};

std::vector<std::string> flag_names(uint32_t value, std::span<const FlagName> names) {
  std::vector<std::string> out;
  uint32_t known = 0;
  for (const auto& f : names) {
    known |= f.bit;
    if (value & f.bit) out.push_back(f.name);
  }
  if (value & ~known) out.push_back(fmt::format("0x{:x}", value & ~known));
  return out;
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) out += sep;
    out += parts[i];
  }
  return out;
}

std::string hex_bytes(std::span<const uint8_t> bytes) {
  std::string out;
  for (uint8_t b : bytes) out += fmt::format("{:02x}", b);
  return out;
}

std::string entry_point_text(const md::Module& m, md::Printer& p) {
  const auto& cli = m.cli();
  if (cli.native_entry_point()) return fmt::format("native RVA 0x{:x}", cli.entry_point);
  if (cli.entry_point == 0) return "none";
  md::Token t = cli.entry_point;
  if (md::token_table(t) == TableId::MethodDef && m.tables().valid_rid(TableId::MethodDef, md::token_rid(t)))
    return fmt::format("0x{:08X} {}", t, p.method_name(md::token_rid(t)));
  if (md::token_table(t) == TableId::File) return fmt::format("0x{:08X} (File)", t);
  return fmt::format("0x{:08X} (invalid)", t);
}

uint32_t count_bodies(const md::Module& m) {
  uint32_t n = 0;
  for (uint32_t rid = 1; rid <= m.tables().rows(TableId::MethodDef); ++rid) n += il::has_il_body(m, rid);
  return n;
}

std::string debug_type_text(uint32_t type) {
  const char* name = pe::debug_type_name(type);
  return name ? std::string(name) : fmt::format("type {}", type);
}

struct DebugInfo {
  std::vector<pe::DebugEntry> entries;
  std::string error;
};

DebugInfo read_debug(const md::Module& m) {
  DebugInfo info;
  auto entries = pe::read_debug_directory(m.image());
  if (entries) info.entries = std::move(*entries);
  else info.error = entries.error().to_string();
  return info;
}

void text_report(const std::string& file, const md::Module& m, std::string& out) {
  const auto& h = m.image().headers();
  const auto& cli = m.cli();
  md::Printer printer(m);
  auto machine = pe::decode_machine(h.machine);
  const char* machine_name = pe::machine_name(machine.machine);
  // Text from the file (and its name) goes through md::printable: no control character reaches
  // the terminal.
  using md::printable;
  out += fmt::format("File: {}\n", printable(file));
  out += fmt::format("Assembly: {}\n", printable(assembly_name(m)));
  out += fmt::format("MVID: {}\n\n", module_mvid(m));

  out += "PE headers\n";
  out += fmt::format("  format:              {}\n", h.pe32_plus ? "PE32+" : "PE32");
  out += fmt::format("  machine:             0x{:04x} ({}{}{})\n", h.machine, machine_name ? machine_name : "unknown",
                     machine.os ? ", ReadyToRun for " : "", machine.os ? machine.os : "");
  out += fmt::format("  characteristics:     0x{:04x} ({})\n", h.characteristics, join(flag_names(h.characteristics, kFileFlags), ", "));
  out += fmt::format("  timestamp:           0x{:08x}\n", h.timestamp);
  out += fmt::format("  linker:              {}.{}\n", h.linker_major, h.linker_minor);
  out += fmt::format("  subsystem:           {}\n", h.subsystem);
  out += fmt::format("  dll characteristics: 0x{:04x}\n", h.dll_characteristics);
  out += fmt::format("  image base:          0x{:x}\n", h.image_base);
  out += fmt::format("  section alignment:   0x{:x}\n", h.section_alignment);
  out += fmt::format("  file alignment:      0x{:x}\n", h.file_alignment);
  out += fmt::format("  size of image:       0x{:x}\n", h.size_of_image);
  out += fmt::format("  size of headers:     0x{:x}\n", h.size_of_headers);
  out += fmt::format("  checksum:            0x{:08x}\n", h.checksum);
  out += fmt::format("  entry point RVA:     0x{:x}\n\n", h.entry_point_rva);

  out += "Sections\n";
  out += "  name      virtual address  virtual size  raw offset  raw size  characteristics\n";
  for (const auto& s : m.image().sections())
    out += fmt::format("  {:<8}  0x{:08x}       0x{:08x}    0x{:08x}  0x{:08x}  0x{:08x}\n", printable(s.name), s.virtual_address,
                       s.virtual_size, s.raw_offset, s.raw_size, s.characteristics);
  out += "\nData directories\n";
  for (uint32_t i = 0; i < pe::kDataDirectoryCount; ++i) {
    auto d = h.directories[i];
    if (d.rva || d.size) out += fmt::format("  {:<13} 0x{:08x} size 0x{:x}\n", kDirectoryNames[i], d.rva, d.size);
  }

  out += "\nCLI header\n";
  out += fmt::format("  runtime version:     {}.{}\n", cli.major_runtime_version, cli.minor_runtime_version);
  out += fmt::format("  flags:               0x{:08x} ({})\n", cli.flags, join(flag_names(cli.flags, kCliFlags), ", "));
  out += fmt::format("  entry point:         {}\n", printable(entry_point_text(m, printer)));
  out += fmt::format("  metadata:            0x{:08x} size 0x{:x}\n", cli.metadata.rva, cli.metadata.size);
  out += fmt::format("  resources:           0x{:08x} size 0x{:x}\n", cli.resources.rva, cli.resources.size);
  out += fmt::format("  strong name:         {}\n",
                     cli.strong_name_signature.present()
                         ? fmt::format("signature 0x{:08x} size 0x{:x}{}", cli.strong_name_signature.rva, cli.strong_name_signature.size,
                                       (cli.flags & pe::kComImageStrongNameSigned) ? ", signed" : ", not signed (delay-signed)")
                         : std::string("none"));
  out += fmt::format("  vtable fixups:       0x{:08x} size 0x{:x}\n", cli.vtable_fixups.rva, cli.vtable_fixups.size);
  auto r2r = pe::read_ready_to_run_header(m.image(), cli);
  if (!r2r) out += fmt::format("  ReadyToRun:          error: {}\n", printable(r2r.error().to_string()));
  else if (!*r2r) out += "  ReadyToRun:          no\n";
  else
    out += fmt::format("  ReadyToRun:          yes, version {}.{}, flags 0x{:x}, {} sections{}\n", (*r2r)->major_version,
                       (*r2r)->minor_version, (*r2r)->flags, (*r2r)->section_count, (*r2r)->composite() ? ", component of a composite image" : "");

  DebugInfo debug = read_debug(m);
  out += "\nDebug directory\n";
  if (!debug.error.empty()) out += fmt::format("  error: {}\n", printable(debug.error));
  if (debug.entries.empty() && debug.error.empty()) out += "  none\n";
  for (const auto& e : debug.entries) {
    out += fmt::format("  {:<20} version {}.{}, {} bytes", debug_type_text(e.type), e.major_version, e.minor_version, e.data_size);
    if (e.codeview)
      out += fmt::format(", PDB {} guid {} age {}", printable(e.codeview->path), md::format_guid(e.codeview->guid), e.codeview->age);
    if (e.type == pe::kDebugTypeReproducible) out += ", deterministic build";
    if (e.embedded_pdb) out += fmt::format(", embedded portable PDB of {} bytes", e.embedded_pdb->uncompressed_size);
    if (e.pdb_checksum) out += fmt::format(", {} {}", printable(e.pdb_checksum->algorithm), hex_bytes(e.pdb_checksum->checksum));
    out += '\n';
  }

  const auto& md = m.metadata();
  const auto& t = m.tables();
  out += "\nMetadata\n";
  out += fmt::format("  version:             {}\n", printable(md.version()));
  out += fmt::format("  kind:                {}\n", md.uncompressed() ? "uncompressed (#-)" : "compressed (#~)");
  out += fmt::format("  tables stream:       version {}.{}, heap sizes 0x{:02x}\n", t.major_version(), t.minor_version(), t.heap_sizes());
  out += "  streams:\n";
  for (const auto& s : md.streams())
    out += fmt::format("    {:<10} offset 0x{:08x} size 0x{:08x}{}\n", printable(s.name), s.offset, s.size, s.used ? "" : " (ignored)");
  out += "\nTables\n";
  for (unsigned id = 0; id < md::kTableSlots; ++id) {
    if (!t.present(static_cast<TableId>(id))) continue;
    out += fmt::format("  {:<24} {}\n", md::table_schema(static_cast<uint8_t>(id)).name, t.rows(static_cast<TableId>(id)));
  }
  out += fmt::format("\nMethods with bodies: {}\n", count_bodies(m));
}

void json_report(const std::string& file, const md::Module& m, JsonWriter& j) {
  const auto& h = m.image().headers();
  const auto& cli = m.cli();
  md::Printer printer(m);
  auto machine = pe::decode_machine(h.machine);
  j.begin_object();
  j.key("file").value(file);
  j.key("assembly").value(assembly_name(m));
  j.key("mvid").value(module_mvid(m));
  j.key("pe").begin_object();
  j.key("format").value(h.pe32_plus ? "PE32+" : "PE32");
  j.key("machine").value(fmt::format("0x{:04x}", h.machine));
  const char* name = pe::machine_name(machine.machine);
  j.key("machineName").value(name ? name : "unknown");
  if (machine.os) j.key("readyToRunOs").value(machine.os);
  j.key("characteristics").value(fmt::format("0x{:04x}", h.characteristics));
  j.key("timestamp").value(fmt::format("0x{:08x}", h.timestamp));
  j.key("subsystem").value(unsigned{h.subsystem});
  j.key("imageBase").value(fmt::format("0x{:x}", h.image_base));
  j.key("sectionAlignment").value(uint64_t{h.section_alignment});
  j.key("fileAlignment").value(uint64_t{h.file_alignment});
  j.key("sizeOfImage").value(uint64_t{h.size_of_image});
  j.key("checksum").value(fmt::format("0x{:08x}", h.checksum));
  j.key("sections").begin_array();
  for (const auto& s : m.image().sections()) {
    j.begin_object(true);
    j.key("name").value(s.name);
    j.key("virtualAddress").value(uint64_t{s.virtual_address});
    j.key("virtualSize").value(uint64_t{s.virtual_size});
    j.key("rawOffset").value(uint64_t{s.raw_offset});
    j.key("rawSize").value(uint64_t{s.raw_size});
    j.key("characteristics").value(fmt::format("0x{:08x}", s.characteristics));
    j.end_object();
  }
  j.end_array();
  j.end_object();

  j.key("cli").begin_object();
  j.key("runtimeVersion").value(fmt::format("{}.{}", cli.major_runtime_version, cli.minor_runtime_version));
  j.key("flags").value(fmt::format("0x{:08x}", cli.flags));
  j.key("flagNames").begin_array(true);
  for (const auto& f : flag_names(cli.flags, kCliFlags)) j.value(f);
  j.end_array();
  j.key("entryPoint").value(entry_point_text(m, printer));
  j.key("strongNameSignature").value(cli.strong_name_signature.present());
  auto r2r = pe::read_ready_to_run_header(m.image(), cli);
  if (r2r && *r2r) {
    j.key("readyToRun").begin_object(true);
    j.key("version").value(fmt::format("{}.{}", (*r2r)->major_version, (*r2r)->minor_version));
    j.key("flags").value(fmt::format("0x{:x}", (*r2r)->flags));
    j.key("sections").value(uint64_t{(*r2r)->section_count});
    j.end_object();
  } else {
    j.key("readyToRun").null();
  }
  j.end_object();

  DebugInfo debug = read_debug(m);
  j.key("debug").begin_array();
  for (const auto& e : debug.entries) {
    j.begin_object(true);
    j.key("type").value(debug_type_text(e.type));
    j.key("size").value(uint64_t{e.data_size});
    if (e.codeview) {
      j.key("pdbPath").value(e.codeview->path);
      j.key("pdbGuid").value(md::format_guid(e.codeview->guid));
      j.key("pdbAge").value(uint64_t{e.codeview->age});
    }
    if (e.embedded_pdb) j.key("uncompressedSize").value(uint64_t{e.embedded_pdb->uncompressed_size});
    if (e.pdb_checksum) {
      j.key("algorithm").value(e.pdb_checksum->algorithm);
      j.key("checksum").value(hex_bytes(e.pdb_checksum->checksum));
    }
    j.end_object();
  }
  j.end_array();
  if (!debug.error.empty()) j.key("debugError").value(debug.error);

  const auto& md = m.metadata();
  const auto& t = m.tables();
  j.key("metadata").begin_object();
  j.key("version").value(md.version());
  j.key("uncompressed").value(md.uncompressed());
  j.key("heapSizes").value(fmt::format("0x{:02x}", t.heap_sizes()));
  j.key("streams").begin_array();
  for (const auto& s : md.streams()) {
    j.begin_object(true);
    j.key("name").value(s.name);
    j.key("offset").value(uint64_t{s.offset});
    j.key("size").value(uint64_t{s.size});
    j.key("used").value(s.used);
    j.end_object();
  }
  j.end_array();
  j.end_object();
  j.key("tables").begin_object();
  for (unsigned id = 0; id < md::kTableSlots; ++id) {
    if (!t.present(static_cast<TableId>(id))) continue;
    j.key(md::table_schema(static_cast<uint8_t>(id)).name).value(uint64_t{t.rows(static_cast<TableId>(id))});
  }
  j.end_object();
  j.key("methodsWithBodies").value(uint64_t{count_bodies(m)});
  j.end_object();
}

}  // namespace

int run_info(int argc, char** argv) {
  cxxopts::Options options("cil-instrument info", "Show headers, flags, streams and table sizes of an assembly.");
  options.add_options()("json", "print JSON")("h,help", "show this help")("input", "assembly", cxxopts::value<std::string>());
  options.parse_positional({"input"});
  options.positional_help("IN");
  cxxopts::ParseResult args;
  if (auto done = parse_options(options, argc, argv, args)) return *done;
  if (!args.count("input")) {
    print_usage_error("info: missing input file");
    return kExitUsage;
  }
  std::string file = args["input"].as<std::string>();
  auto module = load_module(file);
  if (!module) return fail(module.error());
  std::string out;
  if (args.count("json")) {
    JsonWriter j;
    json_report(file, **module, j);
    out = j.text();
  } else {
    text_report(file, **module, out);
  }
  return write_stdout(out) ? kExitOk : kExitOutput;
}

}  // namespace cil::cli
