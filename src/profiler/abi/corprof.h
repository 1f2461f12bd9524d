// CoreCLR Profiling API ABI for Linux x64: ICorProfilerCallback..11, ICorProfilerInfo..15, their types and IIDs.
//
// Declared from the documented ABI; vtable order, parameter lists and IIDs
// follow dotnet/runtime src/coreclr/inc/corprof.idl (each interface derives from
// the previous version, so slots accumulate). Linux mapping: WCHAR = char16_t,
// ULONG/DWORD/HRESULT/BOOL = 32-bit, *ID = uintptr_t, empty STDMETHODCALLTYPE.
// Namespace cilprof. Slot numbers in the comments count IUnknown's 3 slots.
#pragma once

#include "profiler/abi/com.h"
#include "profiler/abi/metadata.h"

namespace cilprof {

// ---------------------------------------------------------------------------
// Runtime handles (all pointer-sized)
// ---------------------------------------------------------------------------
using ProcessID = UINT_PTR;
using AssemblyID = UINT_PTR;
using AppDomainID = UINT_PTR;
using ModuleID = UINT_PTR;
using ClassID = UINT_PTR;
using ThreadID = UINT_PTR;
using ContextID = UINT_PTR;
using FunctionID = UINT_PTR;
using ObjectID = UINT_PTR;
using GCHandleID = UINT_PTR;
using COR_PRF_ELT_INFO = UINT_PTR;
using ReJITID = UINT_PTR;
/// Opaque per-frame handle; valid only during the callback that produced it.
using COR_PRF_FRAME_INFO = UINT_PTR;
using ObjectHandleID = void**;
using EVENTPIPE_PROVIDER = UINT_PTR;
using EVENTPIPE_EVENT = UINT_PTR;
using EVENTPIPE_SESSION = UINT64;

/// What the ELT hooks receive: the FunctionID, or the value a FunctionIDMapper returned.
union FunctionIDOrClientID {
  FunctionID functionID;
  UINT_PTR clientID;
};
static_assert(sizeof(FunctionIDOrClientID) == 8);

// ---------------------------------------------------------------------------
// Structures (LP64 sizes asserted)
// ---------------------------------------------------------------------------
struct COR_IL_MAP {
  ULONG32 oldOffset;
  ULONG32 newOffset;
  BOOL fAccurate;
};
static_assert(sizeof(COR_IL_MAP) == 12);

/// Special ilOffset values in COR_DEBUG_IL_TO_NATIVE_MAP (CorDebugIlToNativeMappingTypes).
inline constexpr ULONG32 NO_MAPPING = static_cast<ULONG32>(-1);
inline constexpr ULONG32 PROLOG = static_cast<ULONG32>(-2);
inline constexpr ULONG32 EPILOG = static_cast<ULONG32>(-3);

struct COR_DEBUG_IL_TO_NATIVE_MAP {
  ULONG32 ilOffset;
  ULONG32 nativeStartOffset;
  ULONG32 nativeEndOffset;
};
static_assert(sizeof(COR_DEBUG_IL_TO_NATIVE_MAP) == 12);

/// A contiguous run of argument bytes (arguments in registers are spilled first).
struct COR_PRF_FUNCTION_ARGUMENT_RANGE {
  UINT_PTR startAddress;
  ULONG length;
};
static_assert(sizeof(COR_PRF_FUNCTION_ARGUMENT_RANGE) == 16);

/// Variable-length: `numRanges` entries follow the header. The declared array
/// has one element, as in the IDL; size a buffer as
/// offsetof(COR_PRF_FUNCTION_ARGUMENT_INFO, ranges) + n * sizeof(COR_PRF_FUNCTION_ARGUMENT_RANGE).
struct COR_PRF_FUNCTION_ARGUMENT_INFO {
  ULONG numRanges;
  ULONG totalArgumentSize;
  COR_PRF_FUNCTION_ARGUMENT_RANGE ranges[1];
};
static_assert(offsetof(COR_PRF_FUNCTION_ARGUMENT_INFO, ranges) == 8);
static_assert(sizeof(COR_PRF_FUNCTION_ARGUMENT_INFO) == 24);

/// Bytes needed for a COR_PRF_FUNCTION_ARGUMENT_INFO holding `ranges` entries.
constexpr std::size_t argument_info_size(std::size_t ranges) noexcept {
  return offsetof(COR_PRF_FUNCTION_ARGUMENT_INFO, ranges) +
         ranges * sizeof(COR_PRF_FUNCTION_ARGUMENT_RANGE);
}

struct COR_PRF_CODE_INFO {
  UINT_PTR startAddress;
  SIZE_T size;
};
static_assert(sizeof(COR_PRF_CODE_INFO) == 16);

struct COR_PRF_FUNCTION {
  FunctionID functionId;
  ReJITID reJitId;
};
static_assert(sizeof(COR_PRF_FUNCTION) == 16);

struct COR_PRF_METHOD {
  ModuleID moduleId;
  mdMethodDef methodId;
};
static_assert(sizeof(COR_PRF_METHOD) == 16);

struct COR_PRF_ASSEMBLY_REFERENCE_INFO {
  void* pbPublicKeyOrToken;
  ULONG cbPublicKeyOrToken;
  LPCWSTR szName;
  ASSEMBLYMETADATA* pMetaData;
  void* pbHashValue;
  ULONG cbHashValue;
  DWORD dwAssemblyRefFlags;
};
static_assert(sizeof(COR_PRF_ASSEMBLY_REFERENCE_INFO) == 48);

// ---------------------------------------------------------------------------
// Enumerations. All are 4 bytes wide, as in the runtime's C headers. The flag
// enums are unscoped with a DWORD base so that `A | B` yields a DWORD.
// ---------------------------------------------------------------------------
enum COR_PRF_SNAPSHOT_INFO : ULONG32 {
  COR_PRF_SNAPSHOT_DEFAULT = 0x0,
  COR_PRF_SNAPSHOT_REGISTER_CONTEXT = 0x1,
  COR_PRF_SNAPSHOT_X86_OPTIMIZED = 0x2,
};

enum COR_PRF_STATIC_TYPE : ULONG32 {
  COR_PRF_FIELD_NOT_A_STATIC = 0x0,
  COR_PRF_FIELD_APP_DOMAIN_STATIC = 0x1,
  COR_PRF_FIELD_THREAD_STATIC = 0x2,
  COR_PRF_FIELD_CONTEXT_STATIC = 0x4,
  COR_PRF_FIELD_RVA_STATIC = 0x8,
};

/// Event mask, low word (SetEventMask / SetEventMask2 dwEventsLow).
enum COR_PRF_MONITOR : DWORD {
  COR_PRF_MONITOR_NONE = 0x00000000,
  COR_PRF_MONITOR_FUNCTION_UNLOADS = 0x00000001,
  COR_PRF_MONITOR_CLASS_LOADS = 0x00000002,
  COR_PRF_MONITOR_MODULE_LOADS = 0x00000004,
  COR_PRF_MONITOR_ASSEMBLY_LOADS = 0x00000008,
  COR_PRF_MONITOR_APPDOMAIN_LOADS = 0x00000010,
  COR_PRF_MONITOR_JIT_COMPILATION = 0x00000020,
  COR_PRF_MONITOR_EXCEPTIONS = 0x00000040,
  COR_PRF_MONITOR_GC = 0x00000080,
  COR_PRF_MONITOR_OBJECT_ALLOCATED = 0x00000100,
  COR_PRF_MONITOR_THREADS = 0x00000200,
  COR_PRF_MONITOR_REMOTING = 0x00000400,
  COR_PRF_MONITOR_CODE_TRANSITIONS = 0x00000800,
  COR_PRF_MONITOR_ENTERLEAVE = 0x00001000,
  COR_PRF_MONITOR_CCW = 0x00002000,
  COR_PRF_MONITOR_REMOTING_COOKIE = 0x00004000 | COR_PRF_MONITOR_REMOTING,
  COR_PRF_MONITOR_REMOTING_ASYNC = 0x00008000 | COR_PRF_MONITOR_REMOTING,
  COR_PRF_MONITOR_SUSPENDS = 0x00010000,
  COR_PRF_MONITOR_CACHE_SEARCHES = 0x00020000,
  COR_PRF_ENABLE_REJIT = 0x00040000,
  COR_PRF_ENABLE_INPROC_DEBUGGING = 0x00080000,
  COR_PRF_ENABLE_JIT_MAPS = 0x00100000,
  COR_PRF_DISABLE_INLINING = 0x00200000,
  COR_PRF_DISABLE_OPTIMIZATIONS = 0x00400000,
  COR_PRF_ENABLE_OBJECT_ALLOCATED = 0x00800000,
  COR_PRF_MONITOR_CLR_EXCEPTIONS = 0x01000000,
  COR_PRF_MONITOR_ALL = 0x0107FFFF,
  COR_PRF_ENABLE_FUNCTION_ARGS = 0x02000000,
  COR_PRF_ENABLE_FUNCTION_RETVAL = 0x04000000,
  COR_PRF_ENABLE_FRAME_INFO = 0x08000000,
  COR_PRF_ENABLE_STACK_SNAPSHOT = 0x10000000,
  COR_PRF_USE_PROFILE_IMAGES = 0x20000000,
  COR_PRF_DISABLE_TRANSPARENCY_CHECKS_UNDER_FULL_TRUST = 0x40000000,
  COR_PRF_DISABLE_ALL_NGEN_IMAGES = 0x80000000,
  COR_PRF_ALL = 0x8FFFFFFF,
  COR_PRF_REQUIRE_PROFILE_IMAGE =
      COR_PRF_USE_PROFILE_IMAGES | COR_PRF_MONITOR_CODE_TRANSITIONS | COR_PRF_MONITOR_ENTERLEAVE,
  COR_PRF_ALLOWABLE_AFTER_ATTACH =
      COR_PRF_MONITOR_THREADS | COR_PRF_MONITOR_MODULE_LOADS | COR_PRF_MONITOR_ASSEMBLY_LOADS |
      COR_PRF_MONITOR_APPDOMAIN_LOADS | COR_PRF_ENABLE_STACK_SNAPSHOT | COR_PRF_MONITOR_GC |
      COR_PRF_MONITOR_SUSPENDS | COR_PRF_MONITOR_CLASS_LOADS | COR_PRF_MONITOR_EXCEPTIONS |
      COR_PRF_MONITOR_JIT_COMPILATION | COR_PRF_DISABLE_INLINING | COR_PRF_DISABLE_OPTIMIZATIONS |
      COR_PRF_ENABLE_REJIT,
  COR_PRF_ALLOWABLE_NOTIFICATION_PROFILER =
      COR_PRF_MONITOR_FUNCTION_UNLOADS | COR_PRF_MONITOR_CLASS_LOADS |
      COR_PRF_MONITOR_MODULE_LOADS | COR_PRF_MONITOR_ASSEMBLY_LOADS |
      COR_PRF_MONITOR_APPDOMAIN_LOADS | COR_PRF_MONITOR_JIT_COMPILATION |
      COR_PRF_MONITOR_EXCEPTIONS | COR_PRF_MONITOR_OBJECT_ALLOCATED | COR_PRF_MONITOR_THREADS |
      COR_PRF_MONITOR_CODE_TRANSITIONS | COR_PRF_MONITOR_CCW | COR_PRF_MONITOR_SUSPENDS |
      COR_PRF_MONITOR_CACHE_SEARCHES | COR_PRF_DISABLE_INLINING | COR_PRF_DISABLE_OPTIMIZATIONS |
      COR_PRF_ENABLE_OBJECT_ALLOCATED | COR_PRF_MONITOR_CLR_EXCEPTIONS |
      COR_PRF_ENABLE_STACK_SNAPSHOT | COR_PRF_USE_PROFILE_IMAGES | COR_PRF_DISABLE_ALL_NGEN_IMAGES,
  /// Flags that can only be set from Initialize.
  COR_PRF_MONITOR_IMMUTABLE =
      COR_PRF_MONITOR_CODE_TRANSITIONS | COR_PRF_MONITOR_REMOTING |
      COR_PRF_MONITOR_REMOTING_COOKIE | COR_PRF_MONITOR_REMOTING_ASYNC |
      COR_PRF_ENABLE_INPROC_DEBUGGING | COR_PRF_ENABLE_JIT_MAPS | COR_PRF_ENABLE_OBJECT_ALLOCATED |
      COR_PRF_ENABLE_FUNCTION_ARGS | COR_PRF_ENABLE_FUNCTION_RETVAL | COR_PRF_ENABLE_FRAME_INFO |
      COR_PRF_USE_PROFILE_IMAGES | COR_PRF_DISABLE_TRANSPARENCY_CHECKS_UNDER_FULL_TRUST |
      COR_PRF_DISABLE_ALL_NGEN_IMAGES,
};

/// Event mask, high word (SetEventMask2 dwEventsHigh).
enum COR_PRF_HIGH_MONITOR : DWORD {
  COR_PRF_HIGH_MONITOR_NONE = 0x00000000,
  COR_PRF_HIGH_ADD_ASSEMBLY_REFERENCES = 0x00000001,
  COR_PRF_HIGH_IN_MEMORY_SYMBOLS_UPDATED = 0x00000002,
  COR_PRF_HIGH_MONITOR_DYNAMIC_FUNCTION_UNLOADS = 0x00000004,
  COR_PRF_HIGH_DISABLE_TIERED_COMPILATION = 0x00000008,
  COR_PRF_HIGH_BASIC_GC = 0x00000010,
  COR_PRF_HIGH_MONITOR_GC_MOVED_OBJECTS = 0x00000020,
  COR_PRF_HIGH_REQUIRE_PROFILE_IMAGE = 0,
  COR_PRF_HIGH_MONITOR_LARGEOBJECT_ALLOCATED = 0x00000040,
  COR_PRF_HIGH_MONITOR_EVENT_PIPE = 0x00000080,
  COR_PRF_HIGH_MONITOR_PINNEDOBJECT_ALLOCATED = 0x00000100,
  COR_PRF_HIGH_ALLOWABLE_AFTER_ATTACH =
      COR_PRF_HIGH_IN_MEMORY_SYMBOLS_UPDATED | COR_PRF_HIGH_MONITOR_DYNAMIC_FUNCTION_UNLOADS |
      COR_PRF_HIGH_BASIC_GC | COR_PRF_HIGH_MONITOR_GC_MOVED_OBJECTS |
      COR_PRF_HIGH_MONITOR_LARGEOBJECT_ALLOCATED | COR_PRF_HIGH_MONITOR_EVENT_PIPE,
  COR_PRF_HIGH_ALLOWABLE_NOTIFICATION_PROFILER =
      COR_PRF_HIGH_IN_MEMORY_SYMBOLS_UPDATED | COR_PRF_HIGH_MONITOR_DYNAMIC_FUNCTION_UNLOADS |
      COR_PRF_HIGH_DISABLE_TIERED_COMPILATION | COR_PRF_HIGH_BASIC_GC |
      COR_PRF_HIGH_MONITOR_GC_MOVED_OBJECTS | COR_PRF_HIGH_MONITOR_LARGEOBJECT_ALLOCATED |
      COR_PRF_HIGH_MONITOR_EVENT_PIPE,
  COR_PRF_HIGH_MONITOR_IMMUTABLE = COR_PRF_HIGH_DISABLE_TIERED_COMPILATION,
};

enum COR_PRF_MISC : ULONG32 {
  PROFILER_PARENT_UNKNOWN = 0xFFFFFFFD,
  PROFILER_GLOBAL_CLASS = 0xFFFFFFFE,
  PROFILER_GLOBAL_MODULE = 0xFFFFFFFF,
};

enum COR_PRF_JIT_CACHE : ULONG32 {
  COR_PRF_CACHED_FUNCTION_FOUND = 0,
  COR_PRF_CACHED_FUNCTION_NOT_FOUND = 1,
};

enum COR_PRF_TRANSITION_REASON : ULONG32 {
  COR_PRF_TRANSITION_CALL = 0,
  COR_PRF_TRANSITION_RETURN = 1,
};

enum COR_PRF_SUSPEND_REASON : ULONG32 {
  COR_PRF_SUSPEND_OTHER = 0,
  COR_PRF_SUSPEND_FOR_GC = 1,
  COR_PRF_SUSPEND_FOR_APPDOMAIN_SHUTDOWN = 2,
  COR_PRF_SUSPEND_FOR_CODE_PITCHING = 3,
  COR_PRF_SUSPEND_FOR_SHUTDOWN = 4,
  COR_PRF_SUSPEND_FOR_INPROC_DEBUGGER = 6,
  COR_PRF_SUSPEND_FOR_GC_PREP = 7,
  COR_PRF_SUSPEND_FOR_REJIT = 8,
  COR_PRF_SUSPEND_FOR_PROFILER = 9,
};

enum COR_PRF_RUNTIME_TYPE : ULONG32 {
  COR_PRF_DESKTOP_CLR = 0x1,
  COR_PRF_CORE_CLR = 0x2,
};

enum COR_PRF_REJIT_FLAGS : DWORD {
  COR_PRF_REJIT_BLOCK_INLINING = 0x1,
  COR_PRF_REJIT_INLINING_CALLBACKS = 0x2,
};

enum COR_PRF_EVENTPIPE_PARAM_TYPE : UINT32 {
  COR_PRF_EVENTPIPE_OBJECT = 1,
  COR_PRF_EVENTPIPE_BOOLEAN = 3,
  COR_PRF_EVENTPIPE_CHAR = 4,
  COR_PRF_EVENTPIPE_SBYTE = 5,
  COR_PRF_EVENTPIPE_BYTE = 6,
  COR_PRF_EVENTPIPE_INT16 = 7,
  COR_PRF_EVENTPIPE_UINT16 = 8,
  COR_PRF_EVENTPIPE_INT32 = 9,
  COR_PRF_EVENTPIPE_UINT32 = 10,
  COR_PRF_EVENTPIPE_INT64 = 11,
  COR_PRF_EVENTPIPE_UINT64 = 12,
  COR_PRF_EVENTPIPE_SINGLE = 13,
  COR_PRF_EVENTPIPE_DOUBLE = 14,
  COR_PRF_EVENTPIPE_DECIMAL = 15,
  COR_PRF_EVENTPIPE_DATETIME = 16,
  COR_PRF_EVENTPIPE_GUID = 17,
  COR_PRF_EVENTPIPE_STRING = 18,
  COR_PRF_EVENTPIPE_ARRAY = 19,
};

enum COR_PRF_EVENTPIPE_LEVEL : UINT32 {
  COR_PRF_EVENTPIPE_LOGALWAYS = 0,
  COR_PRF_EVENTPIPE_CRITICAL = 1,
  COR_PRF_EVENTPIPE_ERROR = 2,
  COR_PRF_EVENTPIPE_WARNING = 3,
  COR_PRF_EVENTPIPE_INFORMATIONAL = 4,
  COR_PRF_EVENTPIPE_VERBOSE = 5,
};

/// Passed by value to EventPipeAddProviderToSession, so its exact layout matters.
struct COR_PRF_EVENTPIPE_PROVIDER_CONFIG {
  const WCHAR* providerName;
  UINT64 keywords;
  UINT32 loggingLevel;
  const WCHAR* filterData;  // "key1=value1;key2=value2;"
};
static_assert(sizeof(COR_PRF_EVENTPIPE_PROVIDER_CONFIG) == 32);

struct COR_PRF_EVENTPIPE_PARAM_DESC {
  UINT32 type;
  UINT32 elementType;  // when type == COR_PRF_EVENTPIPE_ARRAY
  const WCHAR* name;
};
static_assert(sizeof(COR_PRF_EVENTPIPE_PARAM_DESC) == 16);

struct COR_PRF_EVENT_DATA {
  UINT64 ptr;
  UINT32 size;
  UINT32 reserved;
};
static_assert(sizeof(COR_PRF_EVENT_DATA) == 16);

struct COR_PRF_FILTER_DATA {
  UINT64 Ptr;
  UINT32 Size;
  UINT32 Type;
};
static_assert(sizeof(COR_PRF_FILTER_DATA) == 16);

enum COR_PRF_HANDLE_TYPE : ULONG32 {
  COR_PRF_HANDLE_TYPE_WEAK = 0x1,
  COR_PRF_HANDLE_TYPE_STRONG = 0x2,
  COR_PRF_HANDLE_TYPE_PINNED = 0x3,
};

enum COR_PRF_GC_ROOT_KIND : ULONG32 {
  COR_PRF_GC_ROOT_STACK = 1,
  COR_PRF_GC_ROOT_FINALIZER = 2,
  COR_PRF_GC_ROOT_HANDLE = 3,
  COR_PRF_GC_ROOT_OTHER = 0,
};

enum COR_PRF_GC_ROOT_FLAGS : ULONG32 {
  COR_PRF_GC_ROOT_PINNING = 0x1,
  COR_PRF_GC_ROOT_WEAKREF = 0x2,
  COR_PRF_GC_ROOT_INTERIOR = 0x4,
  COR_PRF_GC_ROOT_REFCOUNTED = 0x8,
};

enum COR_PRF_FINALIZER_FLAGS : ULONG32 {
  COR_PRF_FINALIZER_CRITICAL = 0x1,
};

enum COR_PRF_GC_GENERATION : ULONG32 {
  COR_PRF_GC_GEN_0 = 0,
  COR_PRF_GC_GEN_1 = 1,
  COR_PRF_GC_GEN_2 = 2,
  COR_PRF_GC_LARGE_OBJECT_HEAP = 3,
  COR_PRF_GC_PINNED_OBJECT_HEAP = 4,
};

struct COR_PRF_GC_GENERATION_RANGE {
  COR_PRF_GC_GENERATION generation;
  ObjectID rangeStart;
  UINT_PTR rangeLength;
  UINT_PTR rangeLengthReserved;
};
static_assert(sizeof(COR_PRF_GC_GENERATION_RANGE) == 32);
static_assert(offsetof(COR_PRF_GC_GENERATION_RANGE, rangeStart) == 8);

struct COR_PRF_NONGC_HEAP_RANGE {
  ObjectID rangeStart;
  UINT_PTR rangeLength;
  UINT_PTR rangeLengthReserved;
};
static_assert(sizeof(COR_PRF_NONGC_HEAP_RANGE) == 24);

enum COR_PRF_CLAUSE_TYPE : ULONG32 {
  COR_PRF_CLAUSE_NONE = 0,
  COR_PRF_CLAUSE_FILTER = 1,
  COR_PRF_CLAUSE_CATCH = 2,
  COR_PRF_CLAUSE_FINALLY = 3,
};

struct COR_PRF_EX_CLAUSE_INFO {
  COR_PRF_CLAUSE_TYPE clauseType;
  UINT_PTR programCounter;
  UINT_PTR framePointer;
  UINT_PTR shadowStackPointer;
};
static_assert(sizeof(COR_PRF_EX_CLAUSE_INFO) == 32);

enum COR_PRF_GC_REASON : ULONG32 {
  COR_PRF_GC_INDUCED = 1,
  COR_PRF_GC_OTHER = 0,
};

enum COR_PRF_MODULE_FLAGS : DWORD {
  COR_PRF_MODULE_DISK = 0x00000001,
  COR_PRF_MODULE_NGEN = 0x00000002,
  COR_PRF_MODULE_DYNAMIC = 0x00000004,
  COR_PRF_MODULE_COLLECTIBLE = 0x00000008,
  COR_PRF_MODULE_RESOURCE = 0x00000010,
  COR_PRF_MODULE_FLAT_LAYOUT = 0x00000020,
  COR_PRF_MODULE_WINDOWS_RUNTIME = 0x00000040,
};

enum COR_PRF_CODEGEN_FLAGS : DWORD {
  COR_PRF_CODEGEN_DISABLE_INLINING = 0x0001,
  COR_PRF_CODEGEN_DISABLE_ALL_OPTIMIZATIONS = 0x0002,
  COR_PRF_CODEGEN_DEBUG_INFO = 0x0003,
};

// ---------------------------------------------------------------------------
// Callback function types. As in the IDL these are *function* types; the
// Set*Hooks / SetFunctionIDMapper methods take pointers to them
// (e.g. FunctionEnter3WithInfo*). ELT hooks are called without saving
// registers on some platforms; see the runtime's documentation.
// ---------------------------------------------------------------------------
using FunctionIDMapper = UINT_PTR(FunctionID funcId, BOOL* pbHookFunction);
using FunctionIDMapper2 = UINT_PTR(FunctionID funcId, void* clientData, BOOL* pbHookFunction);

using FunctionEnter = void(FunctionID funcID);
using FunctionLeave = void(FunctionID funcID);
using FunctionTailcall = void(FunctionID funcID);

using FunctionEnter2 = void(FunctionID funcId, UINT_PTR clientData, COR_PRF_FRAME_INFO func,
                            COR_PRF_FUNCTION_ARGUMENT_INFO* argumentInfo);
using FunctionLeave2 = void(FunctionID funcId, UINT_PTR clientData, COR_PRF_FRAME_INFO func,
                            COR_PRF_FUNCTION_ARGUMENT_RANGE* retvalRange);
using FunctionTailcall2 = void(FunctionID funcId, UINT_PTR clientData, COR_PRF_FRAME_INFO func);

using FunctionEnter3 = void(FunctionIDOrClientID functionIDOrClientID);
using FunctionLeave3 = void(FunctionIDOrClientID functionIDOrClientID);
using FunctionTailcall3 = void(FunctionIDOrClientID functionIDOrClientID);

using FunctionEnter3WithInfo = void(FunctionIDOrClientID functionIDOrClientID,
                                    COR_PRF_ELT_INFO eltInfo);
using FunctionLeave3WithInfo = void(FunctionIDOrClientID functionIDOrClientID,
                                    COR_PRF_ELT_INFO eltInfo);
using FunctionTailcall3WithInfo = void(FunctionIDOrClientID functionIDOrClientID,
                                       COR_PRF_ELT_INFO eltInfo);

using StackSnapshotCallback = HRESULT(FunctionID funcId, UINT_PTR ip, COR_PRF_FRAME_INFO frameInfo,
                                      ULONG32 contextSize, BYTE context[], void* clientData);

using ObjectReferenceCallback = BOOL(ObjectID root, ObjectID* reference, void* clientData);

/// Unlike the others, the IDL declares this one as a pointer type.
using ObjectCallback = BOOL (*)(ObjectID object, void* callbackState);

using EventPipeProviderCallback = void(const UINT8* source_id, UINT32 is_enabled, UINT8 level,
                                       UINT64 match_any_keywords, UINT64 match_all_keywords,
                                       COR_PRF_FILTER_DATA* filter_data, void* callback_data);

// ---------------------------------------------------------------------------
// IIDs (corprof.idl uuid attributes)
// ---------------------------------------------------------------------------
// {176FBED1-A55C-4796-98CA-A9DA0EF883E7}
inline constexpr IID IID_ICorProfilerCallback{0x176fbed1, 0xa55c, 0x4796, 0x98, 0xca, 0xa9, 0xda, 0x0e, 0xf8, 0x83, 0xe7};
// {8A8CC829-CCF2-49FE-BBAE-0F022228071A}
inline constexpr IID IID_ICorProfilerCallback2{0x8a8cc829, 0xccf2, 0x49fe, 0xbb, 0xae, 0x0f, 0x02, 0x22, 0x28, 0x07, 0x1a};
// {4FD2ED52-7731-4B8D-9469-03D2CC3086C5}
inline constexpr IID IID_ICorProfilerCallback3{0x4fd2ed52, 0x7731, 0x4b8d, 0x94, 0x69, 0x03, 0xd2, 0xcc, 0x30, 0x86, 0xc5};
// {7B63B2E3-107D-4D48-B2F6-F61E229470D2}
inline constexpr IID IID_ICorProfilerCallback4{0x7b63b2e3, 0x107d, 0x4d48, 0xb2, 0xf6, 0xf6, 0x1e, 0x22, 0x94, 0x70, 0xd2};
// {8DFBA405-8C9F-45F8-BFFA-83B14CEF78B5}
inline constexpr IID IID_ICorProfilerCallback5{0x8dfba405, 0x8c9f, 0x45f8, 0xbf, 0xfa, 0x83, 0xb1, 0x4c, 0xef, 0x78, 0xb5};
// {FC13DF4B-4448-4F4F-950C-BA8D19D00C36}
inline constexpr IID IID_ICorProfilerCallback6{0xfc13df4b, 0x4448, 0x4f4f, 0x95, 0x0c, 0xba, 0x8d, 0x19, 0xd0, 0x0c, 0x36};
// {F76A2DBA-1D52-4539-866C-2AA518F9EFC3}
inline constexpr IID IID_ICorProfilerCallback7{0xf76a2dba, 0x1d52, 0x4539, 0x86, 0x6c, 0x2a, 0xa5, 0x18, 0xf9, 0xef, 0xc3};
// {5BED9B15-C079-4D47-BFE2-215A140C07E0}
inline constexpr IID IID_ICorProfilerCallback8{0x5bed9b15, 0xc079, 0x4d47, 0xbf, 0xe2, 0x21, 0x5a, 0x14, 0x0c, 0x07, 0xe0};
// {27583EC3-C8F5-482F-8052-194B8CE4705A}
inline constexpr IID IID_ICorProfilerCallback9{0x27583ec3, 0xc8f5, 0x482f, 0x80, 0x52, 0x19, 0x4b, 0x8c, 0xe4, 0x70, 0x5a};
// {CEC5B60E-C69C-495F-87F6-84D28EE16FFB}
inline constexpr IID IID_ICorProfilerCallback10{0xcec5b60e, 0xc69c, 0x495f, 0x87, 0xf6, 0x84, 0xd2, 0x8e, 0xe1, 0x6f, 0xfb};
// {42350846-AAED-47F7-B128-FD0C98881CDE}
inline constexpr IID IID_ICorProfilerCallback11{0x42350846, 0xaaed, 0x47f7, 0xb1, 0x28, 0xfd, 0x0c, 0x98, 0x88, 0x1c, 0xde};
// {28B5557D-3F3F-48B4-90B2-5F9EEA2F6C48}
inline constexpr IID IID_ICorProfilerInfo{0x28b5557d, 0x3f3f, 0x48b4, 0x90, 0xb2, 0x5f, 0x9e, 0xea, 0x2f, 0x6c, 0x48};
// {CC0935CD-A518-487D-B0BB-A93214E65478}
inline constexpr IID IID_ICorProfilerInfo2{0xcc0935cd, 0xa518, 0x487d, 0xb0, 0xbb, 0xa9, 0x32, 0x14, 0xe6, 0x54, 0x78};
// {B555ED4F-452A-4E54-8B39-B5360BAD32A0}
inline constexpr IID IID_ICorProfilerInfo3{0xb555ed4f, 0x452a, 0x4e54, 0x8b, 0x39, 0xb5, 0x36, 0x0b, 0xad, 0x32, 0xa0};
// {0D8FDCAA-6257-47BF-B1BF-94DAC88466EE}
inline constexpr IID IID_ICorProfilerInfo4{0x0d8fdcaa, 0x6257, 0x47bf, 0xb1, 0xbf, 0x94, 0xda, 0xc8, 0x84, 0x66, 0xee};
// {07602928-CE38-4B83-81E7-74ADAF781214}
inline constexpr IID IID_ICorProfilerInfo5{0x07602928, 0xce38, 0x4b83, 0x81, 0xe7, 0x74, 0xad, 0xaf, 0x78, 0x12, 0x14};
// {F30A070D-BFFB-46A7-B1D8-8781EF7B698A}
inline constexpr IID IID_ICorProfilerInfo6{0xf30a070d, 0xbffb, 0x46a7, 0xb1, 0xd8, 0x87, 0x81, 0xef, 0x7b, 0x69, 0x8a};
// {9AEECC0D-63E0-4187-8C00-E312F503F663}
inline constexpr IID IID_ICorProfilerInfo7{0x9aeecc0d, 0x63e0, 0x4187, 0x8c, 0x00, 0xe3, 0x12, 0xf5, 0x03, 0xf6, 0x63};
// {C5AC80A6-782E-4716-8044-39598C60CFBF}
inline constexpr IID IID_ICorProfilerInfo8{0xc5ac80a6, 0x782e, 0x4716, 0x80, 0x44, 0x39, 0x59, 0x8c, 0x60, 0xcf, 0xbf};
// {008170DB-F8CC-4796-9A51-DC8AA0B47012}
inline constexpr IID IID_ICorProfilerInfo9{0x008170db, 0xf8cc, 0x4796, 0x9a, 0x51, 0xdc, 0x8a, 0xa0, 0xb4, 0x70, 0x12};
// {2F1B5152-C869-40C9-AA5F-3ABE026BD720}
inline constexpr IID IID_ICorProfilerInfo10{0x2f1b5152, 0xc869, 0x40c9, 0xaa, 0x5f, 0x3a, 0xbe, 0x02, 0x6b, 0xd7, 0x20};
// {06398876-8987-4154-B621-40A00D6E4D04}
inline constexpr IID IID_ICorProfilerInfo11{0x06398876, 0x8987, 0x4154, 0xb6, 0x21, 0x40, 0xa0, 0x0d, 0x6e, 0x4d, 0x04};
// {27B24CCD-1CB1-47C5-96EE-98190DC30959}
inline constexpr IID IID_ICorProfilerInfo12{0x27b24ccd, 0x1cb1, 0x47c5, 0x96, 0xee, 0x98, 0x19, 0x0d, 0xc3, 0x09, 0x59};
// {6E6C7EE2-0701-4EC2-9D29-2E8733B66934}
inline constexpr IID IID_ICorProfilerInfo13{0x6e6c7ee2, 0x0701, 0x4ec2, 0x9d, 0x29, 0x2e, 0x87, 0x33, 0xb6, 0x69, 0x34};
// {F460E352-D76D-4FE9-835F-F6AF9D6E862D}
inline constexpr IID IID_ICorProfilerInfo14{0xf460e352, 0xd76d, 0x4fe9, 0x83, 0x5f, 0xf6, 0xaf, 0x9d, 0x6e, 0x86, 0x2d};
// {B446462D-BD22-41DD-872D-DC714C49EB56}
inline constexpr IID IID_ICorProfilerInfo15{0xb446462d, 0xbd22, 0x41dd, 0x87, 0x2d, 0xdc, 0x71, 0x4c, 0x49, 0xeb, 0x56};
// {2C6269BD-2D13-4321-AE12-6686365FD6AF}
inline constexpr IID IID_ICorProfilerObjectEnum{0x2c6269bd, 0x2d13, 0x4321, 0xae, 0x12, 0x66, 0x86, 0x36, 0x5f, 0xd6, 0xaf};
// {FF71301A-B994-429D-A10B-B345A65280EF}
inline constexpr IID IID_ICorProfilerFunctionEnum{0xff71301a, 0xb994, 0x429d, 0xa1, 0x0b, 0xb3, 0x45, 0xa6, 0x52, 0x80, 0xef};
// {B0266D75-2081-4493-AF7F-028BA34DB891}
inline constexpr IID IID_ICorProfilerModuleEnum{0xb0266d75, 0x2081, 0x4493, 0xaf, 0x7f, 0x02, 0x8b, 0xa3, 0x4d, 0xb8, 0x91};
// {FCCEE788-0088-454B-A811-C99F298D1942}
inline constexpr IID IID_ICorProfilerMethodEnum{0xfccee788, 0x0088, 0x454b, 0xa8, 0x11, 0xc9, 0x9f, 0x29, 0x8d, 0x19, 0x42};
// {571194F7-25ED-419F-AA8B-7016B3159701}
inline constexpr IID IID_ICorProfilerThreadEnum{0x571194f7, 0x25ed, 0x419f, 0xaa, 0x8b, 0x70, 0x16, 0xb3, 0x15, 0x97, 0x01};
// {F0963021-E1EA-4732-8581-E01B0BD3C0C6}
inline constexpr IID IID_ICorProfilerFunctionControl{0xf0963021, 0xe1ea, 0x4732, 0x85, 0x81, 0xe0, 0x1b, 0x0b, 0xd3, 0xc0, 0xc6};
// {66A78C24-2EEF-4F65-B45F-DD1D8038BF3C}
inline constexpr IID IID_ICorProfilerAssemblyReferenceProvider{0x66a78c24, 0x2eef, 0x4f65, 0xb4, 0x5f, 0xdd, 0x1d, 0x80, 0x38, 0xbf, 0x3c};

// ---------------------------------------------------------------------------
// Helper interfaces (corprof.idl)
// ---------------------------------------------------------------------------
class ICorProfilerObjectEnum : public IUnknown {
 public:
  virtual HRESULT Skip(ULONG celt) = 0;                                           // 3
  virtual HRESULT Reset() = 0;                                                    // 4
  virtual HRESULT Clone(ICorProfilerObjectEnum** ppEnum) = 0;                     // 5
  virtual HRESULT GetCount(ULONG* pcelt) = 0;                                     // 6
  virtual HRESULT Next(ULONG celt, ObjectID objects[], ULONG* pceltFetched) = 0;  // 7
};

class ICorProfilerFunctionEnum : public IUnknown {
 public:
  virtual HRESULT Skip(ULONG celt) = 0;                                             // 3
  virtual HRESULT Reset() = 0;                                                      // 4
  virtual HRESULT Clone(ICorProfilerFunctionEnum** ppEnum) = 0;                     // 5
  virtual HRESULT GetCount(ULONG* pcelt) = 0;                                       // 6
  virtual HRESULT Next(ULONG celt, COR_PRF_FUNCTION ids[], ULONG* pceltFetched) = 0;  // 7
};

class ICorProfilerModuleEnum : public IUnknown {
 public:
  virtual HRESULT Skip(ULONG celt) = 0;                                       // 3
  virtual HRESULT Reset() = 0;                                                // 4
  virtual HRESULT Clone(ICorProfilerModuleEnum** ppEnum) = 0;                 // 5
  virtual HRESULT GetCount(ULONG* pcelt) = 0;                                 // 6
  virtual HRESULT Next(ULONG celt, ModuleID ids[], ULONG* pceltFetched) = 0;  // 7
};

class ICorProfilerMethodEnum : public IUnknown {
 public:
  virtual HRESULT Skip(ULONG celt) = 0;                                                // 3
  virtual HRESULT Reset() = 0;                                                         // 4
  virtual HRESULT Clone(ICorProfilerMethodEnum** ppEnum) = 0;                          // 5
  virtual HRESULT GetCount(ULONG* pcelt) = 0;                                          // 6
  virtual HRESULT Next(ULONG celt, COR_PRF_METHOD elements[], ULONG* pceltFetched) = 0;  // 7
};

class ICorProfilerThreadEnum : public IUnknown {
 public:
  virtual HRESULT Skip(ULONG celt) = 0;                                       // 3
  virtual HRESULT Reset() = 0;                                                // 4
  virtual HRESULT Clone(ICorProfilerThreadEnum** ppEnum) = 0;                 // 5
  virtual HRESULT GetCount(ULONG* pcelt) = 0;                                 // 6
  virtual HRESULT Next(ULONG celt, ThreadID ids[], ULONG* pceltFetched) = 0;  // 7
};

/// Passed to ICorProfilerCallback4::GetReJITParameters.
class ICorProfilerFunctionControl : public IUnknown {
 public:
  virtual HRESULT SetCodegenFlags(DWORD flags) = 0;                                       // 3
  virtual HRESULT SetILFunctionBody(ULONG cbNewILMethodHeader,
                                    LPCBYTE pbNewILMethodHeader) = 0;                      // 4
  virtual HRESULT SetILInstrumentedCodeMap(ULONG cILMapEntries, COR_IL_MAP rgILMapEntries[]) = 0;  // 5
};

class ICorProfilerAssemblyReferenceProvider : public IUnknown {
 public:
  virtual HRESULT AddAssemblyReference(const COR_PRF_ASSEMBLY_REFERENCE_INFO* pAssemblyRefInfo) = 0;  // 3
};

// ---------------------------------------------------------------------------
// ICorProfilerCallback: 69 methods, slots 3..71.
// ---------------------------------------------------------------------------
class ICorProfilerCallback : public IUnknown {
 public:
  // Startup / shutdown
  virtual HRESULT Initialize(IUnknown* pICorProfilerInfoUnk) = 0;                  // 3
  virtual HRESULT Shutdown() = 0;                                                  // 4
  // Application domains
  virtual HRESULT AppDomainCreationStarted(AppDomainID appDomainId) = 0;           // 5
  virtual HRESULT AppDomainCreationFinished(AppDomainID appDomainId, HRESULT hrStatus) = 0;  // 6
  virtual HRESULT AppDomainShutdownStarted(AppDomainID appDomainId) = 0;           // 7
  virtual HRESULT AppDomainShutdownFinished(AppDomainID appDomainId, HRESULT hrStatus) = 0;  // 8
  // Assemblies
  virtual HRESULT AssemblyLoadStarted(AssemblyID assemblyId) = 0;                  // 9
  virtual HRESULT AssemblyLoadFinished(AssemblyID assemblyId, HRESULT hrStatus) = 0;  // 10
  virtual HRESULT AssemblyUnloadStarted(AssemblyID assemblyId) = 0;                // 11
  virtual HRESULT AssemblyUnloadFinished(AssemblyID assemblyId, HRESULT hrStatus) = 0;  // 12
  // Modules
  virtual HRESULT ModuleLoadStarted(ModuleID moduleId) = 0;                        // 13
  virtual HRESULT ModuleLoadFinished(ModuleID moduleId, HRESULT hrStatus) = 0;     // 14
  virtual HRESULT ModuleUnloadStarted(ModuleID moduleId) = 0;                      // 15
  virtual HRESULT ModuleUnloadFinished(ModuleID moduleId, HRESULT hrStatus) = 0;   // 16
  virtual HRESULT ModuleAttachedToAssembly(ModuleID moduleId, AssemblyID AssemblyId) = 0;  // 17
  // Classes
  virtual HRESULT ClassLoadStarted(ClassID classId) = 0;                           // 18
  virtual HRESULT ClassLoadFinished(ClassID classId, HRESULT hrStatus) = 0;        // 19
  virtual HRESULT ClassUnloadStarted(ClassID classId) = 0;                         // 20
  virtual HRESULT ClassUnloadFinished(ClassID classId, HRESULT hrStatus) = 0;      // 21
  // JIT
  virtual HRESULT FunctionUnloadStarted(FunctionID functionId) = 0;                // 22
  virtual HRESULT JITCompilationStarted(FunctionID functionId, BOOL fIsSafeToBlock) = 0;  // 23
  virtual HRESULT JITCompilationFinished(FunctionID functionId, HRESULT hrStatus,
                                         BOOL fIsSafeToBlock) = 0;                 // 24
  virtual HRESULT JITCachedFunctionSearchStarted(FunctionID functionId,
                                                 BOOL* pbUseCachedFunction) = 0;   // 25
  virtual HRESULT JITCachedFunctionSearchFinished(FunctionID functionId,
                                                  COR_PRF_JIT_CACHE result) = 0;   // 26
  virtual HRESULT JITFunctionPitched(FunctionID functionId) = 0;                   // 27
  virtual HRESULT JITInlining(FunctionID callerId, FunctionID calleeId,
                              BOOL* pfShouldInline) = 0;                           // 28
  // Threads
  virtual HRESULT ThreadCreated(ThreadID threadId) = 0;                            // 29
  virtual HRESULT ThreadDestroyed(ThreadID threadId) = 0;                          // 30
  virtual HRESULT ThreadAssignedToOSThread(ThreadID managedThreadId, DWORD osThreadId) = 0;  // 31
  // Remoting (never raised by CoreCLR, but the slots exist)
  virtual HRESULT RemotingClientInvocationStarted() = 0;                           // 32
  virtual HRESULT RemotingClientSendingMessage(GUID* pCookie, BOOL fIsAsync) = 0;  // 33
  virtual HRESULT RemotingClientReceivingReply(GUID* pCookie, BOOL fIsAsync) = 0;  // 34
  virtual HRESULT RemotingClientInvocationFinished() = 0;                          // 35
  virtual HRESULT RemotingServerReceivingMessage(GUID* pCookie, BOOL fIsAsync) = 0;  // 36
  virtual HRESULT RemotingServerInvocationStarted() = 0;                           // 37
  virtual HRESULT RemotingServerInvocationReturned() = 0;                          // 38
  virtual HRESULT RemotingServerSendingReply(GUID* pCookie, BOOL fIsAsync) = 0;    // 39
  // Transitions
  virtual HRESULT UnmanagedToManagedTransition(FunctionID functionId,
                                               COR_PRF_TRANSITION_REASON reason) = 0;  // 40
  virtual HRESULT ManagedToUnmanagedTransition(FunctionID functionId,
                                               COR_PRF_TRANSITION_REASON reason) = 0;  // 41
  // Runtime suspension
  virtual HRESULT RuntimeSuspendStarted(COR_PRF_SUSPEND_REASON suspendReason) = 0;  // 42
  virtual HRESULT RuntimeSuspendFinished() = 0;                                    // 43
  virtual HRESULT RuntimeSuspendAborted() = 0;                                     // 44
  virtual HRESULT RuntimeResumeStarted() = 0;                                      // 45
  virtual HRESULT RuntimeResumeFinished() = 0;                                     // 46
  virtual HRESULT RuntimeThreadSuspended(ThreadID threadId) = 0;                   // 47
  virtual HRESULT RuntimeThreadResumed(ThreadID threadId) = 0;                     // 48
  // GC
  virtual HRESULT MovedReferences(ULONG cMovedObjectIDRanges, ObjectID oldObjectIDRangeStart[],
                                  ObjectID newObjectIDRangeStart[],
                                  ULONG cObjectIDRangeLength[]) = 0;               // 49
  virtual HRESULT ObjectAllocated(ObjectID objectId, ClassID classId) = 0;         // 50
  virtual HRESULT ObjectsAllocatedByClass(ULONG cClassCount, ClassID classIds[],
                                          ULONG cObjects[]) = 0;                   // 51
  virtual HRESULT ObjectReferences(ObjectID objectId, ClassID classId, ULONG cObjectRefs,
                                   ObjectID objectRefIds[]) = 0;                   // 52
  virtual HRESULT RootReferences(ULONG cRootRefs, ObjectID rootRefIds[]) = 0;      // 53
  // Exceptions
  virtual HRESULT ExceptionThrown(ObjectID thrownObjectId) = 0;                    // 54
  virtual HRESULT ExceptionSearchFunctionEnter(FunctionID functionId) = 0;         // 55
  virtual HRESULT ExceptionSearchFunctionLeave() = 0;                              // 56
  virtual HRESULT ExceptionSearchFilterEnter(FunctionID functionId) = 0;           // 57
  virtual HRESULT ExceptionSearchFilterLeave() = 0;                                // 58
  virtual HRESULT ExceptionSearchCatcherFound(FunctionID functionId) = 0;          // 59
  virtual HRESULT ExceptionOSHandlerEnter(UINT_PTR unused) = 0;                    // 60
  virtual HRESULT ExceptionOSHandlerLeave(UINT_PTR unused) = 0;                    // 61
  virtual HRESULT ExceptionUnwindFunctionEnter(FunctionID functionId) = 0;         // 62
  virtual HRESULT ExceptionUnwindFunctionLeave() = 0;                              // 63
  virtual HRESULT ExceptionUnwindFinallyEnter(FunctionID functionId) = 0;          // 64
  virtual HRESULT ExceptionUnwindFinallyLeave() = 0;                               // 65
  virtual HRESULT ExceptionCatcherEnter(FunctionID functionId, ObjectID objectId) = 0;  // 66
  virtual HRESULT ExceptionCatcherLeave() = 0;                                     // 67
  // COM interop vtables
  virtual HRESULT COMClassicVTableCreated(ClassID wrappedClassId, REFGUID implementedIID,
                                          void* pVTable, ULONG cSlots) = 0;        // 68
  virtual HRESULT COMClassicVTableDestroyed(ClassID wrappedClassId, REFGUID implementedIID,
                                            void* pVTable) = 0;                    // 69
  // Deprecated, never delivered
  virtual HRESULT ExceptionCLRCatcherFound() = 0;                                  // 70
  virtual HRESULT ExceptionCLRCatcherExecute() = 0;                                // 71
};

// ICorProfilerCallback2: 8 methods, slots 72..79.
class ICorProfilerCallback2 : public ICorProfilerCallback {
 public:
  virtual HRESULT ThreadNameChanged(ThreadID threadId, ULONG cchName, WCHAR name[]) = 0;  // 72
  virtual HRESULT GarbageCollectionStarted(int cGenerations, BOOL generationCollected[],
                                           COR_PRF_GC_REASON reason) = 0;          // 73
  virtual HRESULT SurvivingReferences(ULONG cSurvivingObjectIDRanges,
                                      ObjectID objectIDRangeStart[],
                                      ULONG cObjectIDRangeLength[]) = 0;           // 74
  virtual HRESULT GarbageCollectionFinished() = 0;                                 // 75
  virtual HRESULT FinalizeableObjectQueued(DWORD finalizerFlags, ObjectID objectID) = 0;  // 76
  virtual HRESULT RootReferences2(ULONG cRootRefs, ObjectID rootRefIds[],
                                  COR_PRF_GC_ROOT_KIND rootKinds[],
                                  COR_PRF_GC_ROOT_FLAGS rootFlags[], UINT_PTR rootIds[]) = 0;  // 77
  virtual HRESULT HandleCreated(GCHandleID handleId, ObjectID initialObjectId) = 0;  // 78
  virtual HRESULT HandleDestroyed(GCHandleID handleId) = 0;                        // 79
};

// ICorProfilerCallback3: 3 methods, slots 80..82.
class ICorProfilerCallback3 : public ICorProfilerCallback2 {
 public:
  virtual HRESULT InitializeForAttach(IUnknown* pCorProfilerInfoUnk, void* pvClientData,
                                      UINT cbClientData) = 0;                      // 80
  virtual HRESULT ProfilerAttachComplete() = 0;                                    // 81
  virtual HRESULT ProfilerDetachSucceeded() = 0;                                   // 82
};

// ICorProfilerCallback4: 6 methods, slots 83..88.
class ICorProfilerCallback4 : public ICorProfilerCallback3 {
 public:
  virtual HRESULT ReJITCompilationStarted(FunctionID functionId, ReJITID rejitId,
                                          BOOL fIsSafeToBlock) = 0;                // 83
  virtual HRESULT GetReJITParameters(ModuleID moduleId, mdMethodDef methodId,
                                     ICorProfilerFunctionControl* pFunctionControl) = 0;  // 84
  virtual HRESULT ReJITCompilationFinished(FunctionID functionId, ReJITID rejitId,
                                           HRESULT hrStatus, BOOL fIsSafeToBlock) = 0;  // 85
  virtual HRESULT ReJITError(ModuleID moduleId, mdMethodDef methodId, FunctionID functionId,
                             HRESULT hrStatus) = 0;                                // 86
  virtual HRESULT MovedReferences2(ULONG cMovedObjectIDRanges, ObjectID oldObjectIDRangeStart[],
                                   ObjectID newObjectIDRangeStart[],
                                   SIZE_T cObjectIDRangeLength[]) = 0;             // 87
  virtual HRESULT SurvivingReferences2(ULONG cSurvivingObjectIDRanges,
                                       ObjectID objectIDRangeStart[],
                                       SIZE_T cObjectIDRangeLength[]) = 0;         // 88
};

// ICorProfilerCallback5: 1 method, slot 89.
class ICorProfilerCallback5 : public ICorProfilerCallback4 {
 public:
  virtual HRESULT ConditionalWeakTableElementReferences(ULONG cRootRefs, ObjectID keyRefIds[],
                                                        ObjectID valueRefIds[],
                                                        GCHandleID rootIds[]) = 0;  // 89
};

// ICorProfilerCallback6: 1 method, slot 90.
class ICorProfilerCallback6 : public ICorProfilerCallback5 {
 public:
  virtual HRESULT GetAssemblyReferences(const WCHAR* wszAssemblyPath,
                                        ICorProfilerAssemblyReferenceProvider* pAsmRefProvider) = 0;  // 90
};

// ICorProfilerCallback7: 1 method, slot 91.
class ICorProfilerCallback7 : public ICorProfilerCallback6 {
 public:
  virtual HRESULT ModuleInMemorySymbolsUpdated(ModuleID moduleId) = 0;             // 91
};

// ICorProfilerCallback8: 2 methods, slots 92..93.
class ICorProfilerCallback8 : public ICorProfilerCallback7 {
 public:
  virtual HRESULT DynamicMethodJITCompilationStarted(FunctionID functionId, BOOL fIsSafeToBlock,
                                                     LPCBYTE pILHeader, ULONG cbILHeader) = 0;  // 92
  virtual HRESULT DynamicMethodJITCompilationFinished(FunctionID functionId, HRESULT hrStatus,
                                                      BOOL fIsSafeToBlock) = 0;    // 93
};

// ICorProfilerCallback9: 1 method, slot 94.
class ICorProfilerCallback9 : public ICorProfilerCallback8 {
 public:
  virtual HRESULT DynamicMethodUnloaded(FunctionID functionId) = 0;                // 94
};

// ICorProfilerCallback10: 2 methods, slots 95..96.
class ICorProfilerCallback10 : public ICorProfilerCallback9 {
 public:
  virtual HRESULT EventPipeEventDelivered(EVENTPIPE_PROVIDER provider, DWORD eventId,
                                          DWORD eventVersion, ULONG cbMetadataBlob,
                                          LPCBYTE metadataBlob, ULONG cbEventData,
                                          LPCBYTE eventData, LPCGUID pActivityId,
                                          LPCGUID pRelatedActivityId, ThreadID eventThread,
                                          ULONG numStackFrames, UINT_PTR stackFrames[]) = 0;  // 95
  virtual HRESULT EventPipeProviderCreated(EVENTPIPE_PROVIDER provider) = 0;       // 96
};

// ICorProfilerCallback11: 1 method, slot 97.
class ICorProfilerCallback11 : public ICorProfilerCallback10 {
 public:
  virtual HRESULT LoadAsNotificationOnly(BOOL* pbNotificationOnly) = 0;            // 97
};

// ---------------------------------------------------------------------------
// ICorProfilerInfo: 33 methods, slots 3..35.
// ---------------------------------------------------------------------------
class ICorProfilerInfo : public IUnknown {
 public:
  virtual HRESULT GetClassFromObject(ObjectID objectId, ClassID* pClassId) = 0;    // 3
  virtual HRESULT GetClassFromToken(ModuleID moduleId, mdTypeDef typeDef, ClassID* pClassId) = 0;  // 4
  virtual HRESULT GetCodeInfo(FunctionID functionId, LPCBYTE* pStart, ULONG* pcSize) = 0;  // 5
  virtual HRESULT GetEventMask(DWORD* pdwEvents) = 0;                              // 6
  virtual HRESULT GetFunctionFromIP(LPCBYTE ip, FunctionID* pFunctionId) = 0;      // 7
  virtual HRESULT GetFunctionFromToken(ModuleID moduleId, mdToken token,
                                       FunctionID* pFunctionId) = 0;               // 8
  virtual HRESULT GetHandleFromThread(ThreadID threadId, HANDLE* phThread) = 0;    // 9
  virtual HRESULT GetObjectSize(ObjectID objectId, ULONG* pcSize) = 0;             // 10
  virtual HRESULT IsArrayClass(ClassID classId, CorElementType* pBaseElemType,
                               ClassID* pBaseClassId, ULONG* pcRank) = 0;          // 11
  virtual HRESULT GetThreadInfo(ThreadID threadId, DWORD* pdwWin32ThreadId) = 0;   // 12
  virtual HRESULT GetCurrentThreadID(ThreadID* pThreadId) = 0;                     // 13
  virtual HRESULT GetClassIDInfo(ClassID classId, ModuleID* pModuleId,
                                 mdTypeDef* pTypeDefToken) = 0;                    // 14
  virtual HRESULT GetFunctionInfo(FunctionID functionId, ClassID* pClassId, ModuleID* pModuleId,
                                  mdToken* pToken) = 0;                            // 15
  virtual HRESULT SetEventMask(DWORD dwEvents) = 0;                                // 16
  virtual HRESULT SetEnterLeaveFunctionHooks(FunctionEnter* pFuncEnter, FunctionLeave* pFuncLeave,
                                             FunctionTailcall* pFuncTailcall) = 0;  // 17
  virtual HRESULT SetFunctionIDMapper(FunctionIDMapper* pFunc) = 0;                // 18
  virtual HRESULT GetTokenAndMetaDataFromFunction(FunctionID functionId, REFIID riid,
                                                  IUnknown** ppImport, mdToken* pToken) = 0;  // 19
  virtual HRESULT GetModuleInfo(ModuleID moduleId, LPCBYTE* ppBaseLoadAddress, ULONG cchName,
                                ULONG* pcchName, WCHAR szName[], AssemblyID* pAssemblyId) = 0;  // 20
  virtual HRESULT GetModuleMetaData(ModuleID moduleId, DWORD dwOpenFlags, REFIID riid,
                                    IUnknown** ppOut) = 0;                         // 21
  virtual HRESULT GetILFunctionBody(ModuleID moduleId, mdMethodDef methodId,
                                    LPCBYTE* ppMethodHeader, ULONG* pcbMethodSize) = 0;  // 22
  virtual HRESULT GetILFunctionBodyAllocator(ModuleID moduleId, IMethodMalloc** ppMalloc) = 0;  // 23
  virtual HRESULT SetILFunctionBody(ModuleID moduleId, mdMethodDef methodid,
                                    LPCBYTE pbNewILMethodHeader) = 0;              // 24
  virtual HRESULT GetAppDomainInfo(AppDomainID appDomainId, ULONG cchName, ULONG* pcchName,
                                   WCHAR szName[], ProcessID* pProcessId) = 0;     // 25
  virtual HRESULT GetAssemblyInfo(AssemblyID assemblyId, ULONG cchName, ULONG* pcchName,
                                  WCHAR szName[], AppDomainID* pAppDomainId,
                                  ModuleID* pModuleId) = 0;                        // 26
  virtual HRESULT SetFunctionReJIT(FunctionID functionId) = 0;                     // 27
  virtual HRESULT ForceGC() = 0;                                                   // 28
  virtual HRESULT SetILInstrumentedCodeMap(FunctionID functionId, BOOL fStartJit,
                                           ULONG cILMapEntries, COR_IL_MAP rgILMapEntries[]) = 0;  // 29
  virtual HRESULT GetInprocInspectionInterface(IUnknown** ppicd) = 0;              // 30
  virtual HRESULT GetInprocInspectionIThisThread(IUnknown** ppicd) = 0;            // 31
  virtual HRESULT GetThreadContext(ThreadID threadId, ContextID* pContextId) = 0;  // 32
  virtual HRESULT BeginInprocDebugging(BOOL fThisThreadOnly, DWORD* pdwProfilerContext) = 0;  // 33
  virtual HRESULT EndInprocDebugging(DWORD dwProfilerContext) = 0;                 // 34
  virtual HRESULT GetILToNativeMapping(FunctionID functionId, ULONG32 cMap, ULONG32* pcMap,
                                       COR_DEBUG_IL_TO_NATIVE_MAP map[]) = 0;      // 35
};

// ICorProfilerInfo2: 21 methods, slots 36..56.
class ICorProfilerInfo2 : public ICorProfilerInfo {
 public:
  virtual HRESULT DoStackSnapshot(ThreadID thread, StackSnapshotCallback* callback,
                                  ULONG32 infoFlags, void* clientData, BYTE context[],
                                  ULONG32 contextSize) = 0;                        // 36
  virtual HRESULT SetEnterLeaveFunctionHooks2(FunctionEnter2* pFuncEnter,
                                              FunctionLeave2* pFuncLeave,
                                              FunctionTailcall2* pFuncTailcall) = 0;  // 37
  virtual HRESULT GetFunctionInfo2(FunctionID funcId, COR_PRF_FRAME_INFO frameInfo,
                                   ClassID* pClassId, ModuleID* pModuleId, mdToken* pToken,
                                   ULONG32 cTypeArgs, ULONG32* pcTypeArgs,
                                   ClassID typeArgs[]) = 0;                        // 38
  virtual HRESULT GetStringLayout(ULONG* pBufferLengthOffset, ULONG* pStringLengthOffset,
                                  ULONG* pBufferOffset) = 0;                       // 39
  virtual HRESULT GetClassLayout(ClassID classID, COR_FIELD_OFFSET rFieldOffset[],
                                 ULONG cFieldOffset, ULONG* pcFieldOffset,
                                 ULONG* pulClassSize) = 0;                         // 40
  virtual HRESULT GetClassIDInfo2(ClassID classId, ModuleID* pModuleId, mdTypeDef* pTypeDefToken,
                                  ClassID* pParentClassId, ULONG32 cNumTypeArgs,
                                  ULONG32* pcNumTypeArgs, ClassID typeArgs[]) = 0;  // 41
  virtual HRESULT GetCodeInfo2(FunctionID functionID, ULONG32 cCodeInfos, ULONG32* pcCodeInfos,
                               COR_PRF_CODE_INFO codeInfos[]) = 0;                 // 42
  virtual HRESULT GetClassFromTokenAndTypeArgs(ModuleID moduleID, mdTypeDef typeDef,
                                               ULONG32 cTypeArgs, ClassID typeArgs[],
                                               ClassID* pClassID) = 0;             // 43
  virtual HRESULT GetFunctionFromTokenAndTypeArgs(ModuleID moduleID, mdMethodDef funcDef,
                                                  ClassID classId, ULONG32 cTypeArgs,
                                                  ClassID typeArgs[],
                                                  FunctionID* pFunctionID) = 0;    // 44
  virtual HRESULT EnumModuleFrozenObjects(ModuleID moduleID, ICorProfilerObjectEnum** ppEnum) = 0;  // 45
  virtual HRESULT GetArrayObjectInfo(ObjectID objectId, ULONG32 cDimensions,
                                     ULONG32 pDimensionSizes[], int pDimensionLowerBounds[],
                                     BYTE** ppData) = 0;                           // 46
  virtual HRESULT GetBoxClassLayout(ClassID classId, ULONG32* pBufferOffset) = 0;  // 47
  virtual HRESULT GetThreadAppDomain(ThreadID threadId, AppDomainID* pAppDomainId) = 0;  // 48
  virtual HRESULT GetRVAStaticAddress(ClassID classId, mdFieldDef fieldToken, void** ppAddress) = 0;  // 49
  virtual HRESULT GetAppDomainStaticAddress(ClassID classId, mdFieldDef fieldToken,
                                            AppDomainID appDomainId, void** ppAddress) = 0;  // 50
  virtual HRESULT GetThreadStaticAddress(ClassID classId, mdFieldDef fieldToken, ThreadID threadId,
                                         void** ppAddress) = 0;                    // 51
  virtual HRESULT GetContextStaticAddress(ClassID classId, mdFieldDef fieldToken,
                                          ContextID contextId, void** ppAddress) = 0;  // 52
  virtual HRESULT GetStaticFieldInfo(ClassID classId, mdFieldDef fieldToken,
                                     COR_PRF_STATIC_TYPE* pFieldInfo) = 0;         // 53
  virtual HRESULT GetGenerationBounds(ULONG cObjectRanges, ULONG* pcObjectRanges,
                                      COR_PRF_GC_GENERATION_RANGE ranges[]) = 0;   // 54
  virtual HRESULT GetObjectGeneration(ObjectID objectId, COR_PRF_GC_GENERATION_RANGE* range) = 0;  // 55
  virtual HRESULT GetNotifiedExceptionClauseInfo(COR_PRF_EX_CLAUSE_INFO* pinfo) = 0;  // 56
};

// ICorProfilerInfo3: 14 methods, slots 57..70.
class ICorProfilerInfo3 : public ICorProfilerInfo2 {
 public:
  virtual HRESULT EnumJITedFunctions(ICorProfilerFunctionEnum** ppEnum) = 0;       // 57
  virtual HRESULT RequestProfilerDetach(DWORD dwExpectedCompletionMilliseconds) = 0;  // 58
  virtual HRESULT SetFunctionIDMapper2(FunctionIDMapper2* pFunc, void* clientData) = 0;  // 59
  virtual HRESULT GetStringLayout2(ULONG* pStringLengthOffset, ULONG* pBufferOffset) = 0;  // 60
  virtual HRESULT SetEnterLeaveFunctionHooks3(FunctionEnter3* pFuncEnter3,
                                              FunctionLeave3* pFuncLeave3,
                                              FunctionTailcall3* pFuncTailcall3) = 0;  // 61
  virtual HRESULT SetEnterLeaveFunctionHooks3WithInfo(
      FunctionEnter3WithInfo* pFuncEnter3WithInfo, FunctionLeave3WithInfo* pFuncLeave3WithInfo,
      FunctionTailcall3WithInfo* pFuncTailcall3WithInfo) = 0;                      // 62
  virtual HRESULT GetFunctionEnter3Info(FunctionID functionId, COR_PRF_ELT_INFO eltInfo,
                                        COR_PRF_FRAME_INFO* pFrameInfo, ULONG* pcbArgumentInfo,
                                        COR_PRF_FUNCTION_ARGUMENT_INFO* pArgumentInfo) = 0;  // 63
  virtual HRESULT GetFunctionLeave3Info(FunctionID functionId, COR_PRF_ELT_INFO eltInfo,
                                        COR_PRF_FRAME_INFO* pFrameInfo,
                                        COR_PRF_FUNCTION_ARGUMENT_RANGE* pRetvalRange) = 0;  // 64
  virtual HRESULT GetFunctionTailcall3Info(FunctionID functionId, COR_PRF_ELT_INFO eltInfo,
                                           COR_PRF_FRAME_INFO* pFrameInfo) = 0;    // 65
  virtual HRESULT EnumModules(ICorProfilerModuleEnum** ppEnum) = 0;                // 66
  virtual HRESULT GetRuntimeInformation(USHORT* pClrInstanceId, COR_PRF_RUNTIME_TYPE* pRuntimeType,
                                        USHORT* pMajorVersion, USHORT* pMinorVersion,
                                        USHORT* pBuildNumber, USHORT* pQFEVersion,
                                        ULONG cchVersionString, ULONG* pcchVersionString,
                                        WCHAR szVersionString[]) = 0;              // 67
  virtual HRESULT GetThreadStaticAddress2(ClassID classId, mdFieldDef fieldToken,
                                          AppDomainID appDomainId, ThreadID threadId,
                                          void** ppAddress) = 0;                   // 68
  virtual HRESULT GetAppDomainsContainingModule(ModuleID moduleId, ULONG32 cAppDomainIds,
                                                ULONG32* pcAppDomainIds,
                                                AppDomainID appDomainIds[]) = 0;   // 69
  virtual HRESULT GetModuleInfo2(ModuleID moduleId, LPCBYTE* ppBaseLoadAddress, ULONG cchName,
                                 ULONG* pcchName, WCHAR szName[], AssemblyID* pAssemblyId,
                                 DWORD* pdwModuleFlags) = 0;                       // 70
};

// ICorProfilerInfo4: 10 methods, slots 71..80.
class ICorProfilerInfo4 : public ICorProfilerInfo3 {
 public:
  virtual HRESULT EnumThreads(ICorProfilerThreadEnum** ppEnum) = 0;                // 71
  virtual HRESULT InitializeCurrentThread() = 0;                                   // 72
  virtual HRESULT RequestReJIT(ULONG cFunctions, ModuleID moduleIds[],
                               mdMethodDef methodIds[]) = 0;                       // 73
  virtual HRESULT RequestRevert(ULONG cFunctions, ModuleID moduleIds[], mdMethodDef methodIds[],
                                HRESULT status[]) = 0;                             // 74
  virtual HRESULT GetCodeInfo3(FunctionID functionID, ReJITID reJitId, ULONG32 cCodeInfos,
                               ULONG32* pcCodeInfos, COR_PRF_CODE_INFO codeInfos[]) = 0;  // 75
  virtual HRESULT GetFunctionFromIP2(LPCBYTE ip, FunctionID* pFunctionId, ReJITID* pReJitId) = 0;  // 76
  virtual HRESULT GetReJITIDs(FunctionID functionId, ULONG cReJitIds, ULONG* pcReJitIds,
                              ReJITID reJitIds[]) = 0;                             // 77
  virtual HRESULT GetILToNativeMapping2(FunctionID functionId, ReJITID reJitId, ULONG32 cMap,
                                        ULONG32* pcMap, COR_DEBUG_IL_TO_NATIVE_MAP map[]) = 0;  // 78
  virtual HRESULT EnumJITedFunctions2(ICorProfilerFunctionEnum** ppEnum) = 0;      // 79
  virtual HRESULT GetObjectSize2(ObjectID objectId, SIZE_T* pcSize) = 0;           // 80
};

// ICorProfilerInfo5: 2 methods, slots 81..82.
class ICorProfilerInfo5 : public ICorProfilerInfo4 {
 public:
  virtual HRESULT GetEventMask2(DWORD* pdwEventsLow, DWORD* pdwEventsHigh) = 0;    // 81
  virtual HRESULT SetEventMask2(DWORD dwEventsLow, DWORD dwEventsHigh) = 0;        // 82
};

// ICorProfilerInfo6: 1 method, slot 83.
class ICorProfilerInfo6 : public ICorProfilerInfo5 {
 public:
  virtual HRESULT EnumNgenModuleMethodsInliningThisMethod(ModuleID inlinersModuleId,
                                                          ModuleID inlineeModuleId,
                                                          mdMethodDef inlineeMethodId,
                                                          BOOL* incompleteData,
                                                          ICorProfilerMethodEnum** ppEnum) = 0;  // 83
};

// ICorProfilerInfo7: 3 methods, slots 84..86.
class ICorProfilerInfo7 : public ICorProfilerInfo6 {
 public:
  virtual HRESULT ApplyMetaData(ModuleID moduleId) = 0;                            // 84
  virtual HRESULT GetInMemorySymbolsLength(ModuleID moduleId, DWORD* pCountSymbolBytes) = 0;  // 85
  virtual HRESULT ReadInMemorySymbols(ModuleID moduleId, DWORD symbolsReadOffset,
                                      BYTE* pSymbolBytes, DWORD countSymbolBytes,
                                      DWORD* pCountSymbolBytesRead) = 0;           // 86
};

// ICorProfilerInfo8: 3 methods, slots 87..89.
class ICorProfilerInfo8 : public ICorProfilerInfo7 {
 public:
  virtual HRESULT IsFunctionDynamic(FunctionID functionId, BOOL* isDynamic) = 0;   // 87
  virtual HRESULT GetFunctionFromIP3(LPCBYTE ip, FunctionID* functionId, ReJITID* pReJitId) = 0;  // 88
  virtual HRESULT GetDynamicFunctionInfo(FunctionID functionId, ModuleID* moduleId,
                                         PCCOR_SIGNATURE* ppvSig, ULONG* pbSig, ULONG cchName,
                                         ULONG* pcchName, WCHAR wszName[]) = 0;    // 89
};

// ICorProfilerInfo9: 3 methods, slots 90..92.
class ICorProfilerInfo9 : public ICorProfilerInfo8 {
 public:
  virtual HRESULT GetNativeCodeStartAddresses(FunctionID functionID, ReJITID reJitId,
                                              ULONG32 cCodeStartAddresses,
                                              ULONG32* pcCodeStartAddresses,
                                              UINT_PTR codeStartAddresses[]) = 0;  // 90
  virtual HRESULT GetILToNativeMapping3(UINT_PTR pNativeCodeStartAddress, ULONG32 cMap,
                                        ULONG32* pcMap, COR_DEBUG_IL_TO_NATIVE_MAP map[]) = 0;  // 91
  virtual HRESULT GetCodeInfo4(UINT_PTR pNativeCodeStartAddress, ULONG32 cCodeInfos,
                               ULONG32* pcCodeInfos, COR_PRF_CODE_INFO codeInfos[]) = 0;  // 92
};

// ICorProfilerInfo10: 6 methods, slots 93..98.
class ICorProfilerInfo10 : public ICorProfilerInfo9 {
 public:
  virtual HRESULT EnumerateObjectReferences(ObjectID objectId, ObjectReferenceCallback* callback,
                                            void* clientData) = 0;                 // 93
  virtual HRESULT IsFrozenObject(ObjectID objectId, BOOL* pbFrozen) = 0;           // 94
  virtual HRESULT GetLOHObjectSizeThreshold(DWORD* pThreshold) = 0;                // 95
  virtual HRESULT RequestReJITWithInliners(DWORD dwRejitFlags, ULONG cFunctions,
                                           ModuleID moduleIds[], mdMethodDef methodIds[]) = 0;  // 96
  virtual HRESULT SuspendRuntime() = 0;                                            // 97
  virtual HRESULT ResumeRuntime() = 0;                                             // 98
};

// ICorProfilerInfo11: 2 methods, slots 99..100.
class ICorProfilerInfo11 : public ICorProfilerInfo10 {
 public:
  virtual HRESULT GetEnvironmentVariable(const WCHAR* szName, ULONG cchValue, ULONG* pcchValue,
                                         WCHAR szValue[]) = 0;                     // 99
  virtual HRESULT SetEnvironmentVariable(const WCHAR* szName, const WCHAR* szValue) = 0;  // 100
};

// ICorProfilerInfo12: 7 methods, slots 101..107.
class ICorProfilerInfo12 : public ICorProfilerInfo11 {
 public:
  virtual HRESULT EventPipeStartSession(UINT32 cProviderConfigs,
                                        COR_PRF_EVENTPIPE_PROVIDER_CONFIG pProviderConfigs[],
                                        BOOL requestRundown, EVENTPIPE_SESSION* pSession) = 0;  // 101
  virtual HRESULT EventPipeAddProviderToSession(EVENTPIPE_SESSION session,
                                                COR_PRF_EVENTPIPE_PROVIDER_CONFIG providerConfig) = 0;  // 102
  virtual HRESULT EventPipeStopSession(EVENTPIPE_SESSION session) = 0;             // 103
  virtual HRESULT EventPipeCreateProvider(const WCHAR* providerName,
                                          EVENTPIPE_PROVIDER* pProvider) = 0;      // 104
  virtual HRESULT EventPipeGetProviderInfo(EVENTPIPE_PROVIDER provider, ULONG cchName,
                                           ULONG* pcchName, WCHAR providerName[]) = 0;  // 105
  virtual HRESULT EventPipeDefineEvent(EVENTPIPE_PROVIDER provider, const WCHAR* eventName,
                                       UINT32 eventID, UINT64 keywords, UINT32 eventVersion,
                                       UINT32 level, UINT8 opcode, BOOL needStack,
                                       UINT32 cParamDescs,
                                       COR_PRF_EVENTPIPE_PARAM_DESC pParamDescs[],
                                       EVENTPIPE_EVENT* pEvent) = 0;               // 106
  virtual HRESULT EventPipeWriteEvent(EVENTPIPE_EVENT event, UINT32 cData, COR_PRF_EVENT_DATA data[],
                                      LPCGUID pActivityId, LPCGUID pRelatedActivityId) = 0;  // 107
};

// ICorProfilerInfo13: 3 methods, slots 108..110.
class ICorProfilerInfo13 : public ICorProfilerInfo12 {
 public:
  virtual HRESULT CreateHandle(ObjectID object, COR_PRF_HANDLE_TYPE type,
                               ObjectHandleID* pHandle) = 0;                       // 108
  virtual HRESULT DestroyHandle(ObjectHandleID handle) = 0;                        // 109
  virtual HRESULT GetObjectIDFromHandle(ObjectHandleID handle, ObjectID* pObject) = 0;  // 110
};

// ICorProfilerInfo14: 3 methods, slots 111..113.
class ICorProfilerInfo14 : public ICorProfilerInfo13 {
 public:
  virtual HRESULT EnumerateNonGCObjects(ICorProfilerObjectEnum** ppEnum) = 0;      // 111
  virtual HRESULT GetNonGCHeapBounds(ULONG cObjectRanges, ULONG* pcObjectRanges,
                                     COR_PRF_NONGC_HEAP_RANGE ranges[]) = 0;       // 112
  virtual HRESULT EventPipeCreateProvider2(const WCHAR* providerName,
                                           EventPipeProviderCallback* pCallback,
                                           EVENTPIPE_PROVIDER* pProvider) = 0;     // 113
};

// ICorProfilerInfo15: 1 method, slot 114.
class ICorProfilerInfo15 : public ICorProfilerInfo14 {
 public:
  virtual HRESULT EnumerateGCHeapObjects(ObjectCallback callback, void* callbackState) = 0;  // 114
};

}  // namespace cilprof
