// The COM class factory the runtime asks for our CLSID; it reads the configuration and makes
// the profiler of the chosen mode (or one that declines to load, saying why).
#pragma once

#include "profiler/abi/com.h"

namespace cil::profiler {

/// {BBADE716-B1FC-41BB-ADF4-126D6D6D6410}: must equal instrument/runtime_contract.h's kClsidText.
inline constexpr cilprof::CLSID kClsid{0xbbade716, 0xb1fc, 0x41bb, 0xad, 0xf4, 0x12, 0x6d, 0x6d, 0x6d, 0x64, 0x10};

/// The class ids of `cil-instrument attach`, one per mode (instrument/runtime_contract.h's kAttachClsid*).
inline constexpr cilprof::CLSID kAttachClsidCount{0xbbade716, 0xb1fc, 0x41bb, 0xad, 0xf4, 0x12, 0x6d, 0x6d, 0x6d, 0x64, 0x11};
inline constexpr cilprof::CLSID kAttachClsidEvents{0xbbade716, 0xb1fc, 0x41bb, 0xad, 0xf4, 0x12, 0x6d, 0x6d, 0x6d, 0x64, 0x12};
inline constexpr cilprof::CLSID kAttachClsidCoverage{0xbbade716, 0xb1fc, 0x41bb, 0xad, 0xf4, 0x12, 0x6d, 0x6d, 0x6d, 0x64, 0x13};
inline constexpr cilprof::CLSID kAttachClsidTrace{0xbbade716, 0xb1fc, 0x41bb, 0xad, 0xf4, 0x12, 0x6d, 0x6d, 0x6d, 0x64, 0x14};

/// Creates the profiler object for the current environment (a new reference).
cilprof::IUnknown* create_profiler();
/// Creates the profiler of `clsid`: create_profiler() for kClsid, an attach profiler of the
/// class id's mode for the others (its settings come with InitializeForAttach); null for an
/// unknown class id.
cilprof::IUnknown* create_profiler(const cilprof::CLSID& clsid);

}  // namespace cil::profiler
