// Reading the CLI header and the ReadyToRun header; decoding OS-specific Machine values.
#include "pe/cli_header.h"

#include <fmt/format.h>

namespace cil::pe {

namespace {

Expected<DataDirectory> read_directory(ByteReader& r) {
  DataDirectory d;
  d.rva = CIL_TRY(r.u32());
  d.size = CIL_TRY(r.u32());
  return d;
}

}  // namespace

Expected<CliHeader> read_cli_header(const PeImage& image) {
  DataDirectory dir = image.directory(kClrDirectory);
  if (dir.rva == 0)
    return make_error(ErrorKind::Format, "CLI header",
                      "not a .NET assembly: the CLR runtime header directory is empty",
                      image.headers().directories_offset + kClrDirectory * 8);
  ByteReader r = CIL_TRY(image.reader_at(dir.rva, kCliHeaderSize, "CLI header"));
  CliHeader h;
  h.file_offset = static_cast<uint32_t>(r.base_offset());
  h.size = CIL_TRY(r.u32());
  if (h.size < kCliHeaderSize)
    return r.error_at(0, fmt::format("cb is {}, smaller than the {}-byte header", h.size, kCliHeaderSize));
  h.major_runtime_version = CIL_TRY(r.u16());
  h.minor_runtime_version = CIL_TRY(r.u16());
  h.metadata = CIL_TRY(read_directory(r));
  h.flags = CIL_TRY(r.u32());
  h.entry_point = CIL_TRY(r.u32());
  h.resources = CIL_TRY(read_directory(r));
  h.strong_name_signature = CIL_TRY(read_directory(r));
  h.code_manager_table = CIL_TRY(read_directory(r));
  h.vtable_fixups = CIL_TRY(read_directory(r));
  h.export_address_table_jumps = CIL_TRY(read_directory(r));
  h.managed_native_header = CIL_TRY(read_directory(r));
  if (h.metadata.rva == 0 || h.metadata.size == 0)
    return r.error_at(cli_field::kMetadata, "the metadata directory is empty");
  return h;
}

Expected<std::optional<ReadyToRunHeader>> read_ready_to_run_header(const PeImage& image, const CliHeader& cli) {
  if (!cli.managed_native_header.present()) return std::optional<ReadyToRunHeader>();
  ByteReader r = CIL_TRY(image.reader_at(cli.managed_native_header.rva, 16, "ReadyToRun header"));
  uint32_t signature = CIL_TRY(r.u32());
  if (signature != kReadyToRunSignature) {
    // Only ReadyToRun uses this directory today; anything else is reported, not parsed.
    return r.error_at(0, fmt::format("ManagedNativeHeader signature {:#x} is not 'RTR'", signature));
  }
  ReadyToRunHeader h;
  h.file_offset = static_cast<uint32_t>(r.base_offset());
  h.major_version = CIL_TRY(r.u16());
  h.minor_version = CIL_TRY(r.u16());
  h.flags = CIL_TRY(r.u32());
  h.section_count = CIL_TRY(r.u32());
  return std::optional<ReadyToRunHeader>(h);
}

const char* machine_name(uint16_t machine) {
  switch (machine) {
    case kMachineUnknown: return "unknown";
    case kMachineI386: return "i386";
    case kMachineIa64: return "ia64";
    case kMachineArm: return "arm";
    case kMachineAmd64: return "amd64";
    case kMachineArm64: return "arm64";
    case kMachineLoongArch64: return "loongarch64";
    case kMachineRiscV64: return "riscv64";
    default: return nullptr;
  }
}

MachineDecoding decode_machine(uint16_t stored) {
  if (machine_name(stored)) return {stored, nullptr};
  static constexpr std::pair<uint16_t, const char*> kOs[] = {
      {kOsApple, "apple"}, {kOsFreeBsd, "freebsd"}, {kOsLinux, "linux"}, {kOsNetBsd, "netbsd"}, {kOsSun, "sun"}};
  for (auto [value, name] : kOs) {
    uint16_t plain = stored ^ value;
    if (plain != kMachineUnknown && machine_name(plain)) return {plain, name};
  }
  return {stored, nullptr};
}

}  // namespace cil::pe
