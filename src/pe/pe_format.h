// PE/COFF and CLI format constants (PE/COFF specification; ECMA-335 II.25).
#pragma once

#include <cstdint>

namespace cil::pe {

inline constexpr uint16_t kDosMagic = 0x5A4D;        // "MZ"
inline constexpr uint32_t kPeSignature = 0x00004550; // "PE\0\0"
inline constexpr uint16_t kPe32Magic = 0x10B;
inline constexpr uint16_t kPe32PlusMagic = 0x20B;

inline constexpr uint32_t kDosHeaderSize = 64;
inline constexpr uint32_t kCoffHeaderSize = 20;
inline constexpr uint32_t kSectionHeaderSize = 40;
inline constexpr uint32_t kDataDirectoryCount = 16;
inline constexpr uint32_t kDataDirectoryEntrySize = 8;
// Offsets of fields inside the optional header (identical for PE32 and PE32+ up to CheckSum).
inline constexpr uint32_t kOptSizeOfCode = 4;
inline constexpr uint32_t kOptSizeOfInitializedData = 8;
inline constexpr uint32_t kOptSizeOfImage = 56;
inline constexpr uint32_t kOptSizeOfHeaders = 60;
inline constexpr uint32_t kOptCheckSum = 64;

/// Caps that keep hostile files from exhausting memory (see man/cil-instrument.1, LIMITS).
inline constexpr uint32_t kMaxSections = 96;     // the PE loader's own limit is 96
inline constexpr uint32_t kMaxDebugEntries = 64;

enum DataDirectoryIndex : uint32_t {
  kExportDirectory = 0,
  kImportDirectory = 1,
  kResourceDirectory = 2,
  kExceptionDirectory = 3,
  kSecurityDirectory = 4,  // a file offset, not an RVA
  kBaseRelocDirectory = 5,
  kDebugDirectory = 6,
  kArchitectureDirectory = 7,
  kGlobalPtrDirectory = 8,
  kTlsDirectory = 9,
  kLoadConfigDirectory = 10,
  kBoundImportDirectory = 11,
  kIatDirectory = 12,
  kDelayImportDirectory = 13,
  kClrDirectory = 14,
  kReservedDirectory = 15,
};

enum Machine : uint16_t {
  kMachineUnknown = 0,
  kMachineI386 = 0x14C,
  kMachineIa64 = 0x200,
  kMachineArm = 0x1C4,
  kMachineArmNt = 0x1C4,
  kMachineAmd64 = 0x8664,
  kMachineArm64 = 0xAA64,
  kMachineLoongArch64 = 0x6264,
  kMachineRiscV64 = 0x5064,
};

/// ReadyToRun images XOR the Machine field with an OS-specific value (dotnet/runtime,
/// "pedecoder.h" IMAGE_FILE_MACHINE_NATIVE_OS_OVERRIDE).
enum ReadyToRunOsMachine : uint16_t {
  kOsApple = 0x4644,
  kOsFreeBsd = 0xADC4,
  kOsLinux = 0x7B79,
  kOsNetBsd = 0x1993,
  kOsSun = 0x1992,
};

// COFF characteristics
inline constexpr uint16_t kFileExecutableImage = 0x0002;
inline constexpr uint16_t kFileLargeAddressAware = 0x0020;
inline constexpr uint16_t kFile32BitMachine = 0x0100;
inline constexpr uint16_t kFileDll = 0x2000;

// Section characteristics
inline constexpr uint32_t kSectionCode = 0x00000020;
inline constexpr uint32_t kSectionInitializedData = 0x00000040;
inline constexpr uint32_t kSectionMemExecute = 0x20000000;
inline constexpr uint32_t kSectionMemRead = 0x40000000;
inline constexpr uint32_t kSectionMemWrite = 0x80000000;

// CLI header flags (II.25.3.3.1)
inline constexpr uint32_t kComImageIlOnly = 0x00000001;
inline constexpr uint32_t kComImage32BitRequired = 0x00000002;
inline constexpr uint32_t kComImageIlLibrary = 0x00000004;
inline constexpr uint32_t kComImageStrongNameSigned = 0x00000008;
inline constexpr uint32_t kComImageNativeEntryPoint = 0x00000010;
inline constexpr uint32_t kComImageTrackDebugData = 0x00010000;
inline constexpr uint32_t kComImage32BitPreferred = 0x00020000;

inline constexpr uint32_t kCliHeaderSize = 72;
inline constexpr uint32_t kReadyToRunSignature = 0x00525452;  // "RTR"

// Debug directory entry types (PE/COFF "Debug Type")
inline constexpr uint32_t kDebugTypeCodeView = 2;
inline constexpr uint32_t kDebugTypeReproducible = 16;
inline constexpr uint32_t kDebugTypeEmbeddedPortablePdb = 17;
inline constexpr uint32_t kDebugTypePdbChecksum = 19;
inline constexpr uint32_t kCodeViewRsdsSignature = 0x53445352;      // "RSDS"
inline constexpr uint32_t kEmbeddedPdbSignature = 0x4244504D;       // "MPDB"
// Versions of a CodeView entry that names a portable PDB (Portable PDB v1.0, "PE/COFF debug
// directory entries"): major = the PDB format version, minor = 'PM'.
inline constexpr uint16_t kPortableCodeViewMinor = 0x504D;
inline constexpr uint16_t kPortablePdbVersion = 0x0100;

}  // namespace cil::pe
