// Minimal COM ABI for the CoreCLR profiler on Linux x64: base types, HRESULTs, GUIDs, IUnknown, IClassFactory.
//
// Written from the documented ABI (not copied from any SDK header). On Linux the
// runtime's PAL uses the System V calling convention for COM methods, so
// STDMETHODCALLTYPE is empty, and the Windows "long" types are 32-bit.
// Everything lives in namespace cilprof; names follow the Windows/CoreCLR spelling.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace cilprof {

// ---------------------------------------------------------------------------
// Scalar types (LP64 mapping used by the CoreCLR PAL)
// ---------------------------------------------------------------------------
using BYTE = std::uint8_t;
using UINT8 = std::uint8_t;
using USHORT = std::uint16_t;
using WORD = std::uint16_t;
using INT32 = std::int32_t;
using UINT32 = std::uint32_t;
using UINT = std::uint32_t;
using LONG = std::int32_t;
using ULONG = std::uint32_t;
using LONG32 = std::int32_t;
using ULONG32 = std::uint32_t;
using DWORD = std::uint32_t;
using INT64 = std::int64_t;
using UINT64 = std::uint64_t;
using ULONG64 = std::uint64_t;
using BOOL = std::int32_t;
using HRESULT = std::int32_t;
using UINT_PTR = std::uintptr_t;
using ULONG_PTR = std::uintptr_t;
using INT_PTR = std::intptr_t;
using SIZE_T = std::size_t;
using WCHAR = char16_t;
using LPWSTR = WCHAR*;
using LPCWSTR = const WCHAR*;
using PVOID = void*;
using LPVOID = void*;
using LPCVOID = const void*;
using HANDLE = void*;
using LPBYTE = BYTE*;
using LPCBYTE = const BYTE*;

inline constexpr BOOL FALSE = 0;
inline constexpr BOOL TRUE = 1;

static_assert(sizeof(WCHAR) == 2);
static_assert(sizeof(ULONG) == 4 && sizeof(DWORD) == 4 && sizeof(HRESULT) == 4 && sizeof(BOOL) == 4);
static_assert(sizeof(UINT_PTR) == sizeof(void*));

// ---------------------------------------------------------------------------
// HRESULT values
// ---------------------------------------------------------------------------
/// Builds an HRESULT from its unsigned 32-bit bit pattern (e.g. 0x80004005).
constexpr HRESULT hresult_from_bits(std::uint32_t bits) noexcept {
  return static_cast<HRESULT>(bits);
}
constexpr bool SUCCEEDED(HRESULT hr) noexcept { return hr >= 0; }
constexpr bool FAILED(HRESULT hr) noexcept { return hr < 0; }

inline constexpr HRESULT S_OK = 0;
inline constexpr HRESULT S_FALSE = 1;
inline constexpr HRESULT E_NOTIMPL = hresult_from_bits(0x80004001u);
inline constexpr HRESULT E_NOINTERFACE = hresult_from_bits(0x80004002u);
inline constexpr HRESULT E_POINTER = hresult_from_bits(0x80004003u);
inline constexpr HRESULT E_ABORT = hresult_from_bits(0x80004004u);
inline constexpr HRESULT E_FAIL = hresult_from_bits(0x80004005u);
inline constexpr HRESULT E_UNEXPECTED = hresult_from_bits(0x8000FFFFu);
inline constexpr HRESULT E_ACCESSDENIED = hresult_from_bits(0x80070005u);
inline constexpr HRESULT E_OUTOFMEMORY = hresult_from_bits(0x8007000Eu);
inline constexpr HRESULT E_INVALIDARG = hresult_from_bits(0x80070057u);
inline constexpr HRESULT CLASS_E_NOAGGREGATION = hresult_from_bits(0x80040110u);
inline constexpr HRESULT CLASS_E_CLASSNOTAVAILABLE = hresult_from_bits(0x80040111u);

// CLR facility (0x13) errors used by the profiling API: EMAKEHR(x) == 0x80130000 | x.
inline constexpr HRESULT CORPROF_E_FUNCTION_NOT_COMPILED = hresult_from_bits(0x80131350u);
inline constexpr HRESULT CORPROF_E_DATAINCOMPLETE = hresult_from_bits(0x80131351u);
inline constexpr HRESULT CORPROF_E_FUNCTION_NOT_IL = hresult_from_bits(0x80131354u);
inline constexpr HRESULT CORPROF_E_NOT_MANAGED_THREAD = hresult_from_bits(0x80131355u);
inline constexpr HRESULT CORPROF_E_CALL_ONLY_FROM_INIT = hresult_from_bits(0x80131356u);
inline constexpr HRESULT CORPROF_E_NOT_YET_AVAILABLE = hresult_from_bits(0x8013135Bu);
inline constexpr HRESULT CORPROF_E_UNSUPPORTED_CALL_SEQUENCE = hresult_from_bits(0x80131363u);
inline constexpr HRESULT CORPROF_E_IMMUTABLE_FLAGS_SET = hresult_from_bits(0x80131372u);
inline constexpr HRESULT CORPROF_E_INCONSISTENT_WITH_FLAGS = hresult_from_bits(0x80131374u);
inline constexpr HRESULT CORPROF_E_PROFILER_CANCEL_ACTIVATION = hresult_from_bits(0x80131375u);
inline constexpr HRESULT CORPROF_E_MODULE_IS_DYNAMIC = hresult_from_bits(0x8013137Au);
inline constexpr HRESULT CORPROF_E_REJIT_NOT_ENABLED = hresult_from_bits(0x8013137Cu);

// ---------------------------------------------------------------------------
// GUID
// ---------------------------------------------------------------------------
/// 16-byte COM GUID; Data1..Data3 are stored in native (little-endian) order.
struct GUID {
  std::uint32_t Data1;
  std::uint16_t Data2;
  std::uint16_t Data3;
  std::uint8_t Data4[8];

  constexpr GUID() noexcept : Data1(0), Data2(0), Data3(0), Data4{} {}
  /// Mirrors the textual form {d1-d2-d3-b0b1-b2b3b4b5b6b7}.
  constexpr GUID(std::uint32_t d1, std::uint16_t d2, std::uint16_t d3, std::uint8_t b0,
                 std::uint8_t b1, std::uint8_t b2, std::uint8_t b3, std::uint8_t b4,
                 std::uint8_t b5, std::uint8_t b6, std::uint8_t b7) noexcept
      : Data1(d1), Data2(d2), Data3(d3), Data4{b0, b1, b2, b3, b4, b5, b6, b7} {}

  friend constexpr bool operator==(const GUID& a, const GUID& b) noexcept {
    if (a.Data1 != b.Data1 || a.Data2 != b.Data2 || a.Data3 != b.Data3) return false;
    for (int i = 0; i < 8; ++i)
      if (a.Data4[i] != b.Data4[i]) return false;
    return true;
  }
  friend constexpr bool operator!=(const GUID& a, const GUID& b) noexcept { return !(a == b); }
};
static_assert(sizeof(GUID) == 16);
static_assert(std::is_trivially_copyable_v<GUID> && std::is_standard_layout_v<GUID>);

using IID = GUID;
using CLSID = GUID;
using REFGUID = const GUID&;
using REFIID = const IID&;
using REFCLSID = const CLSID&;
using LPCGUID = const GUID*;

inline constexpr IID IID_IUnknown{0x00000000, 0x0000, 0x0000, 0xC0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x46};
inline constexpr IID IID_IClassFactory{0x00000001, 0x0000, 0x0000, 0xC0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x46};

// ---------------------------------------------------------------------------
// Interfaces. Pure virtual methods in exact vtable order; no virtual destructor
// (it would add vtable slots). STDMETHODCALLTYPE is empty on Linux x64.
// ---------------------------------------------------------------------------

/// IUnknown: slots 0..2.
class IUnknown {
 public:
  virtual HRESULT QueryInterface(REFIID riid, void** ppvObject) = 0;  // slot 0
  virtual ULONG AddRef() = 0;                                          // slot 1
  virtual ULONG Release() = 0;                                         // slot 2
};

/// IClassFactory: slots 3..4 after IUnknown.
class IClassFactory : public IUnknown {
 public:
  virtual HRESULT CreateInstance(IUnknown* pUnkOuter, REFIID riid, void** ppvObject) = 0;  // slot 3
  virtual HRESULT LockServer(BOOL fLock) = 0;                                               // slot 4
};

}  // namespace cilprof
