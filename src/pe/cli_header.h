// The CLI header (ECMA-335 II.25.3.3) and the ReadyToRun header that its ManagedNativeHeader names.
#pragma once

#include <cstdint>
#include <optional>

#include "support/error.h"
#include "pe/pe_image.h"

namespace cil::pe {

struct CliHeader {
  uint32_t file_offset = 0;  ///< where the header starts, for the writer
  uint32_t size = 0;         ///< cb
  uint16_t major_runtime_version = 0;
  uint16_t minor_runtime_version = 0;
  DataDirectory metadata;
  uint32_t flags = 0;
  uint32_t entry_point = 0;  ///< a MethodDef/File token, or an RVA with NATIVE_ENTRYPOINT
  DataDirectory resources;
  DataDirectory strong_name_signature;
  DataDirectory code_manager_table;
  DataDirectory vtable_fixups;
  DataDirectory export_address_table_jumps;
  DataDirectory managed_native_header;

  bool il_only() const { return flags & kComImageIlOnly; }
  bool ready_to_run() const { return flags & kComImageIlLibrary; }
  bool native_entry_point() const { return flags & kComImageNativeEntryPoint; }
};

/// Field offsets inside the CLI header (II.25.3.3), for the writer.
namespace cli_field {
inline constexpr uint32_t kMetadata = 8;
inline constexpr uint32_t kFlags = 16;
inline constexpr uint32_t kManagedNativeHeader = 64;
}  // namespace cli_field

/// Reads the CLI header that data directory 14 points to. A PE without one is not managed.
Expected<CliHeader> read_cli_header(const PeImage& image);

/// The READYTORUN_HEADER (dotnet/runtime docs/design/coreclr/botr/readytorun-format.md).
struct ReadyToRunHeader {
  uint32_t file_offset = 0;
  uint16_t major_version = 0;
  uint16_t minor_version = 0;
  uint32_t flags = 0;
  uint32_t section_count = 0;
  bool composite() const { return flags & 0x4; }  // READYTORUN_FLAG_COMPONENT
};

/// Reads the ReadyToRun header when the image has one; nullopt when there is none.
Expected<std::optional<ReadyToRunHeader>> read_ready_to_run_header(const PeImage& image, const CliHeader& cli);

/// The OS that a ReadyToRun Machine value was XORed with, and the plain machine value.
struct MachineDecoding {
  uint16_t machine = 0;
  const char* os = nullptr;  ///< nullptr when the value is a plain machine
};
MachineDecoding decode_machine(uint16_t stored);
const char* machine_name(uint16_t machine);

}  // namespace cil::pe
