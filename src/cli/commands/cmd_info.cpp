// `cil-instrument info IN [--json]`: headers, flags, streams, table row counts, entry point.
#include <fmt/format.h>

#include <cxxopts.hpp>

#include "cli/commands/commands.h"
#include "cli/common.h"
#include "cli/commands/method_selection.h"
#include "cli/output/scoped_printer.h"
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
  md::Token t(cli.entry_point);
  if (auto method = t.as<TableId::MethodDef>(); method && m.valid(*method))
    return fmt::format("0x{:08X} {}", t, p.method_name(*method));
  if (md::token_table(t) == TableId::File) return fmt::format("0x{:08X} (File)", t);
  return fmt::format("0x{:08X} (invalid)", t);
}

uint32_t count_bodies(const md::Module& m) {
  uint32_t n = 0;
  for (md::MethodDefId method : m.ids<TableId::MethodDef>()) n += il::has_il_body(m, method);
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

/// "pe": the PE headers, and the sections (a table of their own in the text form).
void print_pe_headers(ScopedPrinter& p, const md::Module& m) {
  const auto& h = m.image().headers();
  using md::printable;
  {
    ObjectScope pe(p, "pe", Layout::aligned("  ", 21).with_heading("PE headers"));
    auto machine = pe::decode_machine(h.machine);
    const char* machine_name = pe::machine_name(machine.machine);
    std::string machine_hex = fmt::format("0x{:04x}", h.machine);
    p.field("format", h.pe32_plus ? "PE32+" : "PE32");
    p.field("machine", Value(machine_hex).text(fmt::format("{} ({}{}{})", machine_hex, machine_name ? machine_name : "unknown",
                                                           machine.os ? ", ReadyToRun for " : "", machine.os ? machine.os : "")));
    p.field(Key::json_only("machineName"), machine_name ? machine_name : "unknown");
    if (machine.os) p.field(Key::json_only("readyToRunOs"), machine.os);
    std::string characteristics = fmt::format("0x{:04x}", h.characteristics);
    p.field("characteristics",
            Value(characteristics).text(fmt::format("{} ({})", characteristics, join(flag_names(h.characteristics, kFileFlags), ", "))));
    p.field("timestamp", fmt::format("0x{:08x}", h.timestamp));
    p.field(Key::text_only("linker"), fmt::format("{}.{}", h.linker_major, h.linker_minor));
    p.field("subsystem", unsigned{h.subsystem});
    p.field(Key::text_only("dll characteristics"), fmt::format("0x{:04x}", h.dll_characteristics));
    p.field(Key("imageBase", "image base"), fmt::format("0x{:x}", h.image_base));
    p.field(Key("sectionAlignment", "section alignment"), Value(uint64_t{h.section_alignment}).text(fmt::format("0x{:x}", h.section_alignment)));
    p.field(Key("fileAlignment", "file alignment"), Value(uint64_t{h.file_alignment}).text(fmt::format("0x{:x}", h.file_alignment)));
    p.field(Key("sizeOfImage", "size of image"), Value(uint64_t{h.size_of_image}).text(fmt::format("0x{:x}", h.size_of_image)));
    p.field(Key::text_only("size of headers"), fmt::format("0x{:x}", h.size_of_headers));
    p.field("checksum", fmt::format("0x{:08x}", h.checksum));
    p.field(Key::text_only("entry point RVA"), fmt::format("0x{:x}", h.entry_point_rva));

    // JSON keeps the sections in "pe"; the text form gives them a table of their own.
    ListScope sections(p, "sections", Layout::lines().with_heading("Sections"));
    p.line("  name      virtual address  virtual size  raw offset  raw size  characteristics");
    for (const auto& s : m.image().sections()) {
      ObjectScope section(p, {}, Layout::one_row("  {:<8}  {}       {}    {}  {}  {}"));
      p.field("name", Value(s.name).text(printable(s.name)));
      p.field("virtualAddress", Value(uint64_t{s.virtual_address}).text(fmt::format("0x{:08x}", s.virtual_address)));
      p.field("virtualSize", Value(uint64_t{s.virtual_size}).text(fmt::format("0x{:08x}", s.virtual_size)));
      p.field("rawOffset", Value(uint64_t{s.raw_offset}).text(fmt::format("0x{:08x}", s.raw_offset)));
      p.field("rawSize", Value(uint64_t{s.raw_size}).text(fmt::format("0x{:08x}", s.raw_size)));
      p.field("characteristics", fmt::format("0x{:08x}", s.characteristics));
    }
  }
}

/// The data directories that are set (text only).
void print_data_directories(ScopedPrinter& p, const md::Module& m) {
  const auto& h = m.image().headers();
  {
    ListScope directories(p, Key::text_only(), Layout::lines().with_heading("Data directories"));
    for (uint32_t i = 0; i < pe::kDataDirectoryCount; ++i) {
      auto d = h.directories[i];
      if (!d.rva && !d.size) continue;
      ObjectScope directory(p, {}, Layout::one_row("  {:<13} {} size {}"));
      p.field("name", kDirectoryNames[i]);
      p.field("rva", fmt::format("0x{:08x}", d.rva));
      p.field("size", fmt::format("0x{:x}", d.size));
    }
  }
}

/// "cli": the CLI header, its flags, the entry point, the strong name and the ReadyToRun header.
void print_cli_header(ScopedPrinter& p, const md::Module& m, md::Printer& printer) {
  const auto& cli = m.cli();
  using md::printable;
  {
    ObjectScope header(p, "cli", Layout::aligned("  ", 21).with_heading("CLI header"));
    p.field(Key("runtimeVersion", "runtime version"), fmt::format("{}.{}", cli.major_runtime_version, cli.minor_runtime_version));
    std::vector<std::string> flags = flag_names(cli.flags, kCliFlags);
    std::string flags_hex = fmt::format("0x{:08x}", cli.flags);
    p.field("flags", Value(flags_hex).text(fmt::format("{} ({})", flags_hex, join(flags, ", "))));
    {
      ListScope names(p, Key::json_only("flagNames"), Layout().inline_json());
      for (const auto& f : flags) p.field({}, f);
    }
    std::string entry_point = entry_point_text(m, printer);
    p.field(Key("entryPoint", "entry point"), Value(entry_point).text(printable(entry_point)));
    p.field(Key::text_only("metadata"), fmt::format("0x{:08x} size 0x{:x}", cli.metadata.rva, cli.metadata.size));
    p.field(Key::text_only("resources"), fmt::format("0x{:08x} size 0x{:x}", cli.resources.rva, cli.resources.size));
    const auto& sn = cli.strong_name_signature;
    p.field(Key("strongNameSignature", "strong name"),
            Value(sn.present())
                .text(sn.present() ? fmt::format("signature 0x{:08x} size 0x{:x}{}", sn.rva, sn.size,
                                                 (cli.flags & pe::kComImageStrongNameSigned) ? ", signed" : ", not signed (delay-signed)")
                                   : std::string("none")));
    p.field(Key::text_only("vtable fixups"), fmt::format("0x{:08x} size 0x{:x}", cli.vtable_fixups.rva, cli.vtable_fixups.size));
    auto r2r = pe::read_ready_to_run_header(m.image(), cli);
    Key ready_to_run("readyToRun", "ReadyToRun");
    if (!r2r) {
      p.field(ready_to_run, Value::null("error: " + printable(r2r.error().to_string())));
    } else if (!*r2r) {
      p.field(ready_to_run, Value::null("no"));
    } else {
      // One line of the header's column in text, an object in JSON.
      ObjectScope header(p, ready_to_run, Layout::one_row("  ReadyToRun:          yes, version {}, flags {}, {} sections{}"));
      p.field("version", fmt::format("{}.{}", (*r2r)->major_version, (*r2r)->minor_version));
      p.field("flags", fmt::format("0x{:x}", (*r2r)->flags));
      p.field("sections", uint64_t{(*r2r)->section_count});
      p.field(Key::text_only(), (*r2r)->composite() ? ", component of a composite image" : "");
    }
  }
}

/// "debug": the debug directory's entries, or why it cannot be read.
void print_debug_directory(ScopedPrinter& p, const md::Module& m) {
  using md::printable;
  DebugInfo debug = read_debug(m);
  {
    ListScope entries(p, "debug", Layout::lines("  ").with_heading("Debug directory"));
    // Either the directory reads or it does not: the text form says why here, JSON after the list.
    if (!debug.error.empty()) p.field(Key::text_only("error"), printable(debug.error));
    if (debug.entries.empty() && debug.error.empty()) p.field(Key::text_only(), "none");
    for (const auto& e : debug.entries) {
      ObjectScope entry(p, {}, Layout::one_row("  {:<20} version {}, {} bytes{}{}{}{}"));
      p.field("type", debug_type_text(e.type));
      p.field(Key::text_only(), fmt::format("{}.{}", e.major_version, e.minor_version));
      p.field("size", uint64_t{e.data_size});
      p.field(Key::text_only(), e.codeview ? fmt::format(", PDB {} guid {} age {}", printable(e.codeview->path), md::format_guid(e.codeview->guid),
                                                         e.codeview->age)
                                           : std::string());
      if (e.codeview) {
        p.field(Key::json_only("pdbPath"), e.codeview->path);
        p.field(Key::json_only("pdbGuid"), md::format_guid(e.codeview->guid));
        p.field(Key::json_only("pdbAge"), uint64_t{e.codeview->age});
      }
      p.field(Key::text_only(), e.type == pe::kDebugTypeReproducible ? ", deterministic build" : "");
      uint64_t embedded = e.embedded_pdb ? e.embedded_pdb->uncompressed_size : 0;
      p.field(Key("uncompressedSize").json_if(e.embedded_pdb.has_value()),
              Value(embedded).text(e.embedded_pdb ? fmt::format(", embedded portable PDB of {} bytes", embedded) : std::string()));
      if (e.pdb_checksum) p.field(Key::json_only("algorithm"), e.pdb_checksum->algorithm);
      std::string checksum = e.pdb_checksum ? hex_bytes(e.pdb_checksum->checksum) : std::string();
      p.field(Key("checksum").json_if(e.pdb_checksum.has_value()),
              Value(checksum).text(e.pdb_checksum ? fmt::format(", {} {}", printable(e.pdb_checksum->algorithm), checksum) : std::string()));
    }
  }
  if (!debug.error.empty()) p.field(Key::json_only("debugError"), debug.error);
}

/// "metadata" (version, kind, heap sizes, streams) and "tables" (rows per table).
void print_metadata(ScopedPrinter& p, const md::Module& m) {
  using md::printable;
  const auto& md = m.metadata();
  const auto& t = m.tables();
  {
    ObjectScope metadata(p, "metadata", Layout::aligned("  ", 21).with_heading("Metadata"));
    p.field("version", Value(md.version()).text(printable(md.version())));
    p.field(Key("uncompressed", "kind"), Value(md.uncompressed()).text(md.uncompressed() ? "uncompressed (#-)" : "compressed (#~)"));
    std::string heap_sizes = fmt::format("0x{:02x}", t.heap_sizes());
    p.field(Key("heapSizes", "tables stream"),
            Value(heap_sizes).text(fmt::format("version {}.{}, heap sizes {}", t.major_version(), t.minor_version(), heap_sizes)));
    ListScope streams(p, "streams", Layout::lines().with_heading("  streams:", false));
    for (const auto& s : md.streams()) {
      ObjectScope stream(p, {}, Layout::one_row("    {:<10} offset {} size {}{}"));
      p.field("name", Value(s.name).text(printable(s.name)));
      p.field("offset", Value(uint64_t{s.offset}).text(fmt::format("0x{:08x}", s.offset)));
      p.field("size", Value(uint64_t{s.size}).text(fmt::format("0x{:08x}", s.size)));
      p.field("used", Value(s.used).text(s.used ? "" : " (ignored)"));
    }
  }
  {
    ObjectScope tables(p, "tables", Layout::table("  ", 24).with_heading("Tables"));
    for (unsigned id = 0; id < md::kTableSlots; ++id) {
      if (!t.present(static_cast<TableId>(id))) continue;
      std::string_view name = md::table_schema(static_cast<uint8_t>(id)).name;
      p.field(Key(name, name), uint64_t{t.rows(static_cast<TableId>(id))});
    }
  }
}

/// The whole report, for both forms. The text form groups some facts on one line (machine and
/// its name, the ReadyToRun header) and shows some that JSON leaves out (linker version, data
/// directories...); JSON has some as separate members. Keys say which form shows what.
void print_info(ScopedPrinter& p, const std::string& file, const md::Module& m) {
  md::Printer printer(m);
  ObjectScope report(p, {}, Layout::lines());
  // Text from the file (and its name) goes through md::printable in the text form: no control
  // character reaches the terminal. JSON escapes it in its own way.
  using md::printable;
  p.field(Key("file", "File"), Value(file).text(printable(file)));
  std::string assembly = assembly_name(m);
  p.field(Key("assembly", "Assembly"), Value(assembly).text(printable(assembly)));
  p.field(Key("mvid", "MVID"), module_mvid(m));

  print_pe_headers(p, m);
  print_data_directories(p, m);
  print_cli_header(p, m, printer);
  print_debug_directory(p, m);
  print_metadata(p, m);
  p.line("");
  p.field(Key("methodsWithBodies", "Methods with bodies"), uint64_t{count_bodies(m)});
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
  auto printer = make_printer(args.count("json") != 0);
  print_info(*printer, file, **module);
  return write_stdout(printer->output()) ? kExitOk : kExitOutput;
}

}  // namespace cil::cli
