// Pins the profiler ABI declarations: vtable slots, IIDs, struct layouts (GoogleTest).
//
// Slot numbers below were counted from dotnet/runtime src/coreclr/inc/corprof.idl
// and cor.h (IUnknown's QueryInterface/AddRef/Release are slots 0..2), and
// cross-checked against the MIDL-generated prebuilt corprof.h / corprof_i.cpp.
// A mismatch here means a declaration drifted and the runtime would call the
// wrong method.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>

#include "profiler/abi/com.h"
#include "profiler/abi/corprof.h"
#include "profiler/abi/metadata.h"

using namespace cilprof;

namespace {

// Decodes an Itanium C++ ABI pointer to a virtual member function. On x86-64
// the first word holds 1 + (byte offset of the slot in the vtable) and the
// second word holds the this-adjustment (0 for single inheritance). Returns
// -1 for a non-virtual function and -2 if an adjustment is present.
template <typename Pmf>
std::ptrdiff_t vtable_slot(Pmf pmf) {
  static_assert(std::is_member_function_pointer_v<Pmf>);
  static_assert(sizeof(Pmf) == 2 * sizeof(std::uintptr_t), "expected an Itanium ABI member pointer");
  std::uintptr_t words[2];
  std::memcpy(words, &pmf, sizeof words);
  if ((words[0] & 1u) == 0) return -1;
  if (words[1] != 0) return -2;
  return static_cast<std::ptrdiff_t>((words[0] - 1) / sizeof(void*));
}

#define EXPECT_SLOT(Iface, Method, N) \
  EXPECT_EQ(vtable_slot(&Iface::Method), N) << #Iface "::" #Method

std::string format_guid(const GUID& g) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%08X-%04X-%04X-%02X%02X-%02X%02X%02X%02X%02X%02X",
                static_cast<unsigned>(g.Data1), g.Data2, g.Data3, g.Data4[0], g.Data4[1],
                g.Data4[2], g.Data4[3], g.Data4[4], g.Data4[5], g.Data4[6], g.Data4[7]);
  return buf;
}

struct Probe {
  virtual void a() {}
  virtual void b() {}
  virtual void c() {}
  void plain() {}
  virtual ~Probe() = default;
};

}  // namespace

#if defined(__x86_64__)

TEST(ProfilerAbi, SlotDecoderSelfTest) {
  EXPECT_EQ(vtable_slot(&Probe::a), 0);
  EXPECT_EQ(vtable_slot(&Probe::b), 1);
  EXPECT_EQ(vtable_slot(&Probe::c), 2);
  EXPECT_EQ(vtable_slot(&Probe::plain), -1);
}

TEST(ProfilerAbi, IUnknownAndIClassFactorySlots) {
  EXPECT_SLOT(IUnknown, QueryInterface, 0);
  EXPECT_SLOT(IUnknown, AddRef, 1);
  EXPECT_SLOT(IUnknown, Release, 2);
  EXPECT_SLOT(IClassFactory, QueryInterface, 0);
  EXPECT_SLOT(IClassFactory, CreateInstance, 3);
  EXPECT_SLOT(IClassFactory, LockServer, 4);
}

// Every callback is implemented by the profiler and invoked by the runtime,
// so every slot is pinned.
TEST(ProfilerAbi, ICorProfilerCallbackSlots) {
  EXPECT_SLOT(ICorProfilerCallback, Initialize, 3);
  EXPECT_SLOT(ICorProfilerCallback, Shutdown, 4);
  EXPECT_SLOT(ICorProfilerCallback, AppDomainCreationStarted, 5);
  EXPECT_SLOT(ICorProfilerCallback, AppDomainCreationFinished, 6);
  EXPECT_SLOT(ICorProfilerCallback, AppDomainShutdownStarted, 7);
  EXPECT_SLOT(ICorProfilerCallback, AppDomainShutdownFinished, 8);
  EXPECT_SLOT(ICorProfilerCallback, AssemblyLoadStarted, 9);
  EXPECT_SLOT(ICorProfilerCallback, AssemblyLoadFinished, 10);
  EXPECT_SLOT(ICorProfilerCallback, AssemblyUnloadStarted, 11);
  EXPECT_SLOT(ICorProfilerCallback, AssemblyUnloadFinished, 12);
  EXPECT_SLOT(ICorProfilerCallback, ModuleLoadStarted, 13);
  EXPECT_SLOT(ICorProfilerCallback, ModuleLoadFinished, 14);
  EXPECT_SLOT(ICorProfilerCallback, ModuleUnloadStarted, 15);
  EXPECT_SLOT(ICorProfilerCallback, ModuleUnloadFinished, 16);
  EXPECT_SLOT(ICorProfilerCallback, ModuleAttachedToAssembly, 17);
  EXPECT_SLOT(ICorProfilerCallback, ClassLoadStarted, 18);
  EXPECT_SLOT(ICorProfilerCallback, ClassLoadFinished, 19);
  EXPECT_SLOT(ICorProfilerCallback, ClassUnloadStarted, 20);
  EXPECT_SLOT(ICorProfilerCallback, ClassUnloadFinished, 21);
  EXPECT_SLOT(ICorProfilerCallback, FunctionUnloadStarted, 22);
  EXPECT_SLOT(ICorProfilerCallback, JITCompilationStarted, 23);
  EXPECT_SLOT(ICorProfilerCallback, JITCompilationFinished, 24);
  EXPECT_SLOT(ICorProfilerCallback, JITCachedFunctionSearchStarted, 25);
  EXPECT_SLOT(ICorProfilerCallback, JITCachedFunctionSearchFinished, 26);
  EXPECT_SLOT(ICorProfilerCallback, JITFunctionPitched, 27);
  EXPECT_SLOT(ICorProfilerCallback, JITInlining, 28);
  EXPECT_SLOT(ICorProfilerCallback, ThreadCreated, 29);
  EXPECT_SLOT(ICorProfilerCallback, ThreadDestroyed, 30);
  EXPECT_SLOT(ICorProfilerCallback, ThreadAssignedToOSThread, 31);
  EXPECT_SLOT(ICorProfilerCallback, RemotingClientInvocationStarted, 32);
  EXPECT_SLOT(ICorProfilerCallback, RemotingClientSendingMessage, 33);
  EXPECT_SLOT(ICorProfilerCallback, RemotingClientReceivingReply, 34);
  EXPECT_SLOT(ICorProfilerCallback, RemotingClientInvocationFinished, 35);
  EXPECT_SLOT(ICorProfilerCallback, RemotingServerReceivingMessage, 36);
  EXPECT_SLOT(ICorProfilerCallback, RemotingServerInvocationStarted, 37);
  EXPECT_SLOT(ICorProfilerCallback, RemotingServerInvocationReturned, 38);
  EXPECT_SLOT(ICorProfilerCallback, RemotingServerSendingReply, 39);
  EXPECT_SLOT(ICorProfilerCallback, UnmanagedToManagedTransition, 40);
  EXPECT_SLOT(ICorProfilerCallback, ManagedToUnmanagedTransition, 41);
  EXPECT_SLOT(ICorProfilerCallback, RuntimeSuspendStarted, 42);
  EXPECT_SLOT(ICorProfilerCallback, RuntimeSuspendFinished, 43);
  EXPECT_SLOT(ICorProfilerCallback, RuntimeSuspendAborted, 44);
  EXPECT_SLOT(ICorProfilerCallback, RuntimeResumeStarted, 45);
  EXPECT_SLOT(ICorProfilerCallback, RuntimeResumeFinished, 46);
  EXPECT_SLOT(ICorProfilerCallback, RuntimeThreadSuspended, 47);
  EXPECT_SLOT(ICorProfilerCallback, RuntimeThreadResumed, 48);
  EXPECT_SLOT(ICorProfilerCallback, MovedReferences, 49);
  EXPECT_SLOT(ICorProfilerCallback, ObjectAllocated, 50);
  EXPECT_SLOT(ICorProfilerCallback, ObjectsAllocatedByClass, 51);
  EXPECT_SLOT(ICorProfilerCallback, ObjectReferences, 52);
  EXPECT_SLOT(ICorProfilerCallback, RootReferences, 53);
  EXPECT_SLOT(ICorProfilerCallback, ExceptionThrown, 54);
  EXPECT_SLOT(ICorProfilerCallback, ExceptionSearchFunctionEnter, 55);
  EXPECT_SLOT(ICorProfilerCallback, ExceptionSearchFunctionLeave, 56);
  EXPECT_SLOT(ICorProfilerCallback, ExceptionSearchFilterEnter, 57);
  EXPECT_SLOT(ICorProfilerCallback, ExceptionSearchFilterLeave, 58);
  EXPECT_SLOT(ICorProfilerCallback, ExceptionSearchCatcherFound, 59);
  EXPECT_SLOT(ICorProfilerCallback, ExceptionOSHandlerEnter, 60);
  EXPECT_SLOT(ICorProfilerCallback, ExceptionOSHandlerLeave, 61);
  EXPECT_SLOT(ICorProfilerCallback, ExceptionUnwindFunctionEnter, 62);
  EXPECT_SLOT(ICorProfilerCallback, ExceptionUnwindFunctionLeave, 63);
  EXPECT_SLOT(ICorProfilerCallback, ExceptionUnwindFinallyEnter, 64);
  EXPECT_SLOT(ICorProfilerCallback, ExceptionUnwindFinallyLeave, 65);
  EXPECT_SLOT(ICorProfilerCallback, ExceptionCatcherEnter, 66);
  EXPECT_SLOT(ICorProfilerCallback, ExceptionCatcherLeave, 67);
  EXPECT_SLOT(ICorProfilerCallback, COMClassicVTableCreated, 68);
  EXPECT_SLOT(ICorProfilerCallback, COMClassicVTableDestroyed, 69);
  EXPECT_SLOT(ICorProfilerCallback, ExceptionCLRCatcherFound, 70);
  EXPECT_SLOT(ICorProfilerCallback, ExceptionCLRCatcherExecute, 71);

  EXPECT_SLOT(ICorProfilerCallback2, ThreadNameChanged, 72);
  EXPECT_SLOT(ICorProfilerCallback2, GarbageCollectionStarted, 73);
  EXPECT_SLOT(ICorProfilerCallback2, SurvivingReferences, 74);
  EXPECT_SLOT(ICorProfilerCallback2, GarbageCollectionFinished, 75);
  EXPECT_SLOT(ICorProfilerCallback2, FinalizeableObjectQueued, 76);
  EXPECT_SLOT(ICorProfilerCallback2, RootReferences2, 77);
  EXPECT_SLOT(ICorProfilerCallback2, HandleCreated, 78);
  EXPECT_SLOT(ICorProfilerCallback2, HandleDestroyed, 79);

  EXPECT_SLOT(ICorProfilerCallback3, InitializeForAttach, 80);
  EXPECT_SLOT(ICorProfilerCallback3, ProfilerAttachComplete, 81);
  EXPECT_SLOT(ICorProfilerCallback3, ProfilerDetachSucceeded, 82);

  EXPECT_SLOT(ICorProfilerCallback4, ReJITCompilationStarted, 83);
  EXPECT_SLOT(ICorProfilerCallback4, GetReJITParameters, 84);
  EXPECT_SLOT(ICorProfilerCallback4, ReJITCompilationFinished, 85);
  EXPECT_SLOT(ICorProfilerCallback4, ReJITError, 86);
  EXPECT_SLOT(ICorProfilerCallback4, MovedReferences2, 87);
  EXPECT_SLOT(ICorProfilerCallback4, SurvivingReferences2, 88);

  EXPECT_SLOT(ICorProfilerCallback5, ConditionalWeakTableElementReferences, 89);
  EXPECT_SLOT(ICorProfilerCallback6, GetAssemblyReferences, 90);
  EXPECT_SLOT(ICorProfilerCallback7, ModuleInMemorySymbolsUpdated, 91);
  EXPECT_SLOT(ICorProfilerCallback8, DynamicMethodJITCompilationStarted, 92);
  EXPECT_SLOT(ICorProfilerCallback8, DynamicMethodJITCompilationFinished, 93);
  EXPECT_SLOT(ICorProfilerCallback9, DynamicMethodUnloaded, 94);
  EXPECT_SLOT(ICorProfilerCallback10, EventPipeEventDelivered, 95);
  EXPECT_SLOT(ICorProfilerCallback10, EventPipeProviderCreated, 96);
  EXPECT_SLOT(ICorProfilerCallback11, LoadAsNotificationOnly, 97);

  // Inherited members keep their slot in every later version.
  EXPECT_SLOT(ICorProfilerCallback11, Initialize, 3);
  EXPECT_SLOT(ICorProfilerCallback11, JITCompilationStarted, 23);
  EXPECT_SLOT(ICorProfilerCallback11, ExceptionCLRCatcherExecute, 71);
}

TEST(ProfilerAbi, ICorProfilerInfoSlots) {
  // ICorProfilerInfo (slots 3..35)
  EXPECT_SLOT(ICorProfilerInfo, GetClassFromObject, 3);
  EXPECT_SLOT(ICorProfilerInfo, GetEventMask, 6);
  EXPECT_SLOT(ICorProfilerInfo, GetThreadInfo, 12);
  EXPECT_SLOT(ICorProfilerInfo, GetCurrentThreadID, 13);
  EXPECT_SLOT(ICorProfilerInfo, GetClassIDInfo, 14);
  EXPECT_SLOT(ICorProfilerInfo, GetFunctionInfo, 15);
  EXPECT_SLOT(ICorProfilerInfo, SetEventMask, 16);
  EXPECT_SLOT(ICorProfilerInfo, SetFunctionIDMapper, 18);
  EXPECT_SLOT(ICorProfilerInfo, GetTokenAndMetaDataFromFunction, 19);
  EXPECT_SLOT(ICorProfilerInfo, GetModuleInfo, 20);
  EXPECT_SLOT(ICorProfilerInfo, GetModuleMetaData, 21);
  EXPECT_SLOT(ICorProfilerInfo, GetILFunctionBody, 22);
  EXPECT_SLOT(ICorProfilerInfo, GetILFunctionBodyAllocator, 23);
  EXPECT_SLOT(ICorProfilerInfo, SetILFunctionBody, 24);
  EXPECT_SLOT(ICorProfilerInfo, SetILInstrumentedCodeMap, 29);
  EXPECT_SLOT(ICorProfilerInfo, GetAppDomainInfo, 25);
  EXPECT_SLOT(ICorProfilerInfo, GetAssemblyInfo, 26);
  EXPECT_SLOT(ICorProfilerInfo, GetILToNativeMapping, 35);
  // ICorProfilerInfo2 (slots 36..56)
  EXPECT_SLOT(ICorProfilerInfo2, DoStackSnapshot, 36);
  EXPECT_SLOT(ICorProfilerInfo2, GetFunctionInfo2, 38);
  EXPECT_SLOT(ICorProfilerInfo2, GetStringLayout, 39);
  EXPECT_SLOT(ICorProfilerInfo2, GetClassIDInfo2, 41);
  EXPECT_SLOT(ICorProfilerInfo2, GetArrayObjectInfo, 46);
  EXPECT_SLOT(ICorProfilerInfo2, GetBoxClassLayout, 47);
  EXPECT_SLOT(ICorProfilerInfo2, GetNotifiedExceptionClauseInfo, 56);
  // ICorProfilerInfo3 (slots 57..70)
  EXPECT_SLOT(ICorProfilerInfo3, EnumJITedFunctions, 57);
  EXPECT_SLOT(ICorProfilerInfo3, SetFunctionIDMapper2, 59);
  EXPECT_SLOT(ICorProfilerInfo3, GetStringLayout2, 60);
  EXPECT_SLOT(ICorProfilerInfo3, SetEnterLeaveFunctionHooks3, 61);
  EXPECT_SLOT(ICorProfilerInfo3, SetEnterLeaveFunctionHooks3WithInfo, 62);
  EXPECT_SLOT(ICorProfilerInfo3, GetFunctionEnter3Info, 63);
  EXPECT_SLOT(ICorProfilerInfo3, GetFunctionLeave3Info, 64);
  EXPECT_SLOT(ICorProfilerInfo3, GetFunctionTailcall3Info, 65);
  EXPECT_SLOT(ICorProfilerInfo3, GetRuntimeInformation, 67);
  EXPECT_SLOT(ICorProfilerInfo3, GetModuleInfo2, 70);
  // ICorProfilerInfo4 (slots 71..80)
  EXPECT_SLOT(ICorProfilerInfo4, EnumThreads, 71);
  EXPECT_SLOT(ICorProfilerInfo4, RequestReJIT, 73);
  EXPECT_SLOT(ICorProfilerInfo4, GetObjectSize2, 80);
  // ICorProfilerInfo5 (slots 81..82)
  EXPECT_SLOT(ICorProfilerInfo5, GetEventMask2, 81);
  EXPECT_SLOT(ICorProfilerInfo5, SetEventMask2, 82);
  // Later versions: first and last slot of each.
  EXPECT_SLOT(ICorProfilerInfo6, EnumNgenModuleMethodsInliningThisMethod, 83);
  EXPECT_SLOT(ICorProfilerInfo7, ApplyMetaData, 84);
  EXPECT_SLOT(ICorProfilerInfo7, ReadInMemorySymbols, 86);
  EXPECT_SLOT(ICorProfilerInfo8, IsFunctionDynamic, 87);
  EXPECT_SLOT(ICorProfilerInfo8, GetDynamicFunctionInfo, 89);
  EXPECT_SLOT(ICorProfilerInfo9, GetNativeCodeStartAddresses, 90);
  EXPECT_SLOT(ICorProfilerInfo9, GetCodeInfo4, 92);
  EXPECT_SLOT(ICorProfilerInfo10, EnumerateObjectReferences, 93);
  EXPECT_SLOT(ICorProfilerInfo10, ResumeRuntime, 98);
  EXPECT_SLOT(ICorProfilerInfo11, GetEnvironmentVariable, 99);
  EXPECT_SLOT(ICorProfilerInfo11, SetEnvironmentVariable, 100);
  EXPECT_SLOT(ICorProfilerInfo12, EventPipeStartSession, 101);
  EXPECT_SLOT(ICorProfilerInfo12, EventPipeWriteEvent, 107);
  EXPECT_SLOT(ICorProfilerInfo13, CreateHandle, 108);
  EXPECT_SLOT(ICorProfilerInfo13, GetObjectIDFromHandle, 110);
  EXPECT_SLOT(ICorProfilerInfo14, EnumerateNonGCObjects, 111);
  EXPECT_SLOT(ICorProfilerInfo14, EventPipeCreateProvider2, 113);
  EXPECT_SLOT(ICorProfilerInfo15, EnumerateGCHeapObjects, 114);
  // Calling an inherited method through a later interface uses the same slot.
  EXPECT_SLOT(ICorProfilerInfo5, SetEnterLeaveFunctionHooks3WithInfo, 62);
  EXPECT_SLOT(ICorProfilerInfo15, GetClassFromObject, 3);
}

TEST(ProfilerAbi, HelperInterfaceSlots) {
  EXPECT_SLOT(IMethodMalloc, Alloc, 3);
  EXPECT_SLOT(ICorProfilerFunctionControl, SetCodegenFlags, 3);
  EXPECT_SLOT(ICorProfilerFunctionControl, SetILFunctionBody, 4);
  EXPECT_SLOT(ICorProfilerFunctionControl, SetILInstrumentedCodeMap, 5);
  EXPECT_SLOT(ICorProfilerModuleEnum, Next, 7);
  EXPECT_SLOT(ICorProfilerFunctionEnum, Next, 7);
  EXPECT_SLOT(ICorProfilerAssemblyReferenceProvider, AddAssemblyReference, 3);
}

TEST(ProfilerAbi, MetaDataImportSlots) {
  EXPECT_SLOT(IMetaDataImport, CloseEnum, 3);
  EXPECT_SLOT(IMetaDataImport, FindTypeDefByName, 9);
  EXPECT_SLOT(IMetaDataImport, GetScopeProps, 10);  // there is no "GetModuleProps"
  EXPECT_SLOT(IMetaDataImport, GetModuleFromScope, 11);
  EXPECT_SLOT(IMetaDataImport, GetTypeDefProps, 12);
  EXPECT_SLOT(IMetaDataImport, GetTypeRefProps, 14);
  EXPECT_SLOT(IMetaDataImport, EnumMethods, 18);
  EXPECT_SLOT(IMetaDataImport, FindMemberRef, 29);
  EXPECT_SLOT(IMetaDataImport, GetMethodProps, 30);
  EXPECT_SLOT(IMetaDataImport, GetMemberRefProps, 31);
  EXPECT_SLOT(IMetaDataImport, GetSigFromToken, 41);
  EXPECT_SLOT(IMetaDataImport, GetModuleRefProps, 42);
  EXPECT_SLOT(IMetaDataImport, GetUserString, 47);
  EXPECT_SLOT(IMetaDataImport, FindTypeRef, 55);
  EXPECT_SLOT(IMetaDataImport, IsValidToken, 61);
  EXPECT_SLOT(IMetaDataImport, IsGlobal, 64);
  EXPECT_SLOT(IMetaDataImport2, EnumGenericParams, 65);
  EXPECT_SLOT(IMetaDataImport2, GetMethodSpecProps, 67);
  EXPECT_SLOT(IMetaDataImport2, EnumMethodSpecs, 72);
}

TEST(ProfilerAbi, MetaDataEmitSlots) {
  EXPECT_SLOT(IMetaDataEmit, SetModuleProps, 3);
  EXPECT_SLOT(IMetaDataEmit, DefineTypeRefByName, 12);
  EXPECT_SLOT(IMetaDataEmit, DefineMemberRef, 14);
  EXPECT_SLOT(IMetaDataEmit, GetTokenFromSig, 23);
  EXPECT_SLOT(IMetaDataEmit, GetTokenFromTypeSpec, 26);
  EXPECT_SLOT(IMetaDataEmit, DefineUserString, 28);
  EXPECT_SLOT(IMetaDataEmit, DefineCustomAttribute, 37);
  EXPECT_SLOT(IMetaDataEmit, MergeEnd, 51);
  EXPECT_SLOT(IMetaDataEmit2, DefineMethodSpec, 52);
  EXPECT_SLOT(IMetaDataEmit2, ResetENCLog, 59);
}

TEST(ProfilerAbi, MetaDataAssemblySlots) {
  EXPECT_SLOT(IMetaDataAssemblyEmit, DefineAssembly, 3);
  EXPECT_SLOT(IMetaDataAssemblyEmit, DefineAssemblyRef, 4);
  EXPECT_SLOT(IMetaDataAssemblyEmit, SetManifestResourceProps, 12);
  EXPECT_SLOT(IMetaDataAssemblyImport, GetAssemblyProps, 3);
  EXPECT_SLOT(IMetaDataAssemblyImport, GetAssemblyRefProps, 4);
  EXPECT_SLOT(IMetaDataAssemblyImport, EnumAssemblyRefs, 8);
  EXPECT_SLOT(IMetaDataAssemblyImport, GetAssemblyFromScope, 12);
  EXPECT_SLOT(IMetaDataAssemblyImport, CloseEnum, 15);
  EXPECT_SLOT(IMetaDataAssemblyImport, FindAssembliesByName, 16);
}

// Every method libcilprofiler.so (src/profiler) calls, in one place: a drifted slot here would
// make the runtime run another method than the one the profiler means.
TEST(ProfilerAbi, SlotsTheProfilerCalls) {
  EXPECT_SLOT(IClassFactory, QueryInterface, 0);
  EXPECT_SLOT(IClassFactory, CreateInstance, 3);
  EXPECT_SLOT(ICorProfilerInfo5, GetClassFromObject, 3);
  EXPECT_SLOT(ICorProfilerInfo5, IsArrayClass, 11);
  EXPECT_SLOT(ICorProfilerInfo5, GetCurrentThreadID, 13);
  EXPECT_SLOT(ICorProfilerInfo5, GetFunctionInfo, 15);
  EXPECT_SLOT(ICorProfilerInfo5, GetModuleInfo, 20);
  EXPECT_SLOT(ICorProfilerInfo5, GetModuleMetaData, 21);
  EXPECT_SLOT(ICorProfilerInfo5, GetILFunctionBody, 22);
  EXPECT_SLOT(ICorProfilerInfo5, GetILFunctionBodyAllocator, 23);
  EXPECT_SLOT(ICorProfilerInfo5, SetILFunctionBody, 24);
  EXPECT_SLOT(ICorProfilerInfo5, GetAppDomainInfo, 25);
  EXPECT_SLOT(ICorProfilerInfo5, GetAssemblyInfo, 26);
  EXPECT_SLOT(ICorProfilerInfo5, GetFunctionInfo2, 38);
  EXPECT_SLOT(ICorProfilerInfo5, GetClassIDInfo2, 41);
  EXPECT_SLOT(ICorProfilerInfo3, SetFunctionIDMapper2, 59);
  EXPECT_SLOT(ICorProfilerInfo3, GetStringLayout2, 60);
  EXPECT_SLOT(ICorProfilerInfo3, SetEnterLeaveFunctionHooks3WithInfo, 62);
  EXPECT_SLOT(ICorProfilerInfo3, GetFunctionEnter3Info, 63);
  EXPECT_SLOT(ICorProfilerInfo3, GetRuntimeInformation, 67);
  EXPECT_SLOT(ICorProfilerInfo5, GetModuleInfo2, 70);
  EXPECT_SLOT(ICorProfilerInfo5, SetEventMask2, 82);
  EXPECT_SLOT(IMetaDataImport2, QueryInterface, 0);
  EXPECT_SLOT(IMetaDataImport2, Release, 2);
  EXPECT_SLOT(IMetaDataImport2, FindTypeDefByName, 9);
  EXPECT_SLOT(IMetaDataImport2, GetScopeProps, 10);
  EXPECT_SLOT(IMetaDataImport2, GetTypeDefProps, 12);
  EXPECT_SLOT(IMetaDataImport2, GetTypeRefProps, 14);
  EXPECT_SLOT(IMetaDataImport2, FindMethod, 27);
  EXPECT_SLOT(IMetaDataImport2, FindMemberRef, 29);
  EXPECT_SLOT(IMetaDataImport2, GetMethodProps, 30);
  EXPECT_SLOT(IMetaDataImport2, GetMemberRefProps, 31);
  EXPECT_SLOT(IMetaDataImport2, GetSigFromToken, 41);
  EXPECT_SLOT(IMetaDataImport2, GetTypeSpecFromToken, 44);
  EXPECT_SLOT(IMetaDataImport2, GetParamForMethodIndex, 52);
  EXPECT_SLOT(IMetaDataImport2, FindTypeRef, 55);
  EXPECT_SLOT(IMetaDataImport2, GetFieldProps, 57);
  EXPECT_SLOT(IMetaDataImport2, GetParamProps, 59);
  EXPECT_SLOT(IMetaDataImport2, GetNestedClassProps, 62);
  EXPECT_SLOT(IMetaDataImport2, GetMethodSpecProps, 67);
  EXPECT_SLOT(IMetaDataEmit2, DefineTypeRefByName, 12);
  EXPECT_SLOT(IMetaDataEmit2, DefineMemberRef, 14);
  EXPECT_SLOT(IMetaDataEmit2, GetTokenFromSig, 23);
  EXPECT_SLOT(IMetaDataEmit2, GetTokenFromTypeSpec, 26);
  EXPECT_SLOT(IMetaDataEmit2, DefineUserString, 28);
  EXPECT_SLOT(IMetaDataEmit2, DefineMethodSpec, 52);
  EXPECT_SLOT(IMetaDataAssemblyImport, GetAssemblyRefProps, 4);
  EXPECT_SLOT(IMetaDataAssemblyImport, EnumAssemblyRefs, 8);
  EXPECT_SLOT(IMetaDataAssemblyImport, CloseEnum, 15);
  EXPECT_SLOT(IMetaDataAssemblyEmit, DefineAssemblyRef, 4);
  EXPECT_SLOT(IMethodMalloc, Alloc, 3);
}

#else

TEST(ProfilerAbi, SlotChecksNeedX8664) { GTEST_SKIP() << "slot decoding assumes the x86-64 Itanium ABI"; }

#endif  // __x86_64__

// Return types that are not HRESULT are part of the ABI too.
static_assert(std::is_same_v<decltype(std::declval<IMetaDataImport&>().CloseEnum(nullptr)), void>);
static_assert(std::is_same_v<decltype(std::declval<IMetaDataAssemblyImport&>().CloseEnum(nullptr)), void>);
static_assert(std::is_same_v<decltype(std::declval<IMetaDataImport&>().IsValidToken(0)), BOOL>);
static_assert(std::is_same_v<decltype(std::declval<IMethodMalloc&>().Alloc(0)), void*>);
static_assert(std::is_same_v<decltype(std::declval<IUnknown&>().AddRef()), ULONG>);

// Hook and mapper signatures.
static_assert(std::is_same_v<FunctionEnter3WithInfo*, void (*)(FunctionIDOrClientID, COR_PRF_ELT_INFO)>);
static_assert(std::is_same_v<FunctionLeave3WithInfo*, void (*)(FunctionIDOrClientID, COR_PRF_ELT_INFO)>);
static_assert(std::is_same_v<FunctionTailcall3WithInfo*, void (*)(FunctionIDOrClientID, COR_PRF_ELT_INFO)>);
static_assert(std::is_same_v<FunctionIDMapper*, UINT_PTR (*)(FunctionID, BOOL*)>);
static_assert(std::is_same_v<FunctionIDMapper2*, UINT_PTR (*)(FunctionID, void*, BOOL*)>);

// Scalar widths on LP64 Linux.
static_assert(sizeof(WCHAR) == 2 && sizeof(BOOL) == 4 && sizeof(HRESULT) == 4);
static_assert(sizeof(ULONG) == 4 && sizeof(DWORD) == 4 && sizeof(ULONG32) == 4 && sizeof(mdToken) == 4);
static_assert(sizeof(FunctionID) == 8 && sizeof(ClassID) == 8 && sizeof(ModuleID) == 8 &&
              sizeof(ObjectID) == 8 && sizeof(ThreadID) == 8 && sizeof(AssemblyID) == 8 &&
              sizeof(AppDomainID) == 8 && sizeof(ReJITID) == 8 && sizeof(COR_PRF_ELT_INFO) == 8 &&
              sizeof(COR_PRF_FRAME_INFO) == 8 && sizeof(HCORENUM) == 8);
static_assert(sizeof(FunctionIDOrClientID) == 8);
static_assert(sizeof(COR_PRF_JIT_CACHE) == 4 && sizeof(COR_PRF_TRANSITION_REASON) == 4 &&
              sizeof(COR_PRF_SUSPEND_REASON) == 4 && sizeof(COR_PRF_GC_REASON) == 4 &&
              sizeof(COR_PRF_RUNTIME_TYPE) == 4 && sizeof(COR_PRF_MONITOR) == 4 &&
              sizeof(COR_PRF_HIGH_MONITOR) == 4 && sizeof(CorElementType) == 4);

// Struct layouts.
static_assert(sizeof(GUID) == 16 && offsetof(GUID, Data4) == 8);
static_assert(sizeof(COR_PRF_FUNCTION_ARGUMENT_RANGE) == 16);
static_assert(offsetof(COR_PRF_FUNCTION_ARGUMENT_RANGE, length) == 8);
static_assert(offsetof(COR_PRF_FUNCTION_ARGUMENT_INFO, totalArgumentSize) == 4);
static_assert(offsetof(COR_PRF_FUNCTION_ARGUMENT_INFO, ranges) == 8);
static_assert(sizeof(COR_PRF_FUNCTION_ARGUMENT_INFO) == 24);
static_assert(argument_info_size(3) == 8 + 3 * 16);
static_assert(sizeof(COR_PRF_CODE_INFO) == 16);
static_assert(sizeof(COR_IL_MAP) == 12);
static_assert(offsetof(COR_IL_MAP, oldOffset) == 0 && offsetof(COR_IL_MAP, newOffset) == 4 &&
              offsetof(COR_IL_MAP, fAccurate) == 8);
static_assert(sizeof(COR_DEBUG_IL_TO_NATIVE_MAP) == 12);
static_assert(sizeof(COR_FIELD_OFFSET) == 8);
static_assert(sizeof(COR_PRF_EX_CLAUSE_INFO) == 32);
static_assert(sizeof(COR_PRF_GC_GENERATION_RANGE) == 32);
static_assert(sizeof(COR_PRF_EVENTPIPE_PROVIDER_CONFIG) == 32);
static_assert(sizeof(OSINFO) == 12);
static_assert(sizeof(ASSEMBLYMETADATA) == 56);
static_assert(offsetof(ASSEMBLYMETADATA, usRevisionNumber) == 6);
static_assert(offsetof(ASSEMBLYMETADATA, szLocale) == 8);
static_assert(offsetof(ASSEMBLYMETADATA, cbLocale) == 16);
static_assert(offsetof(ASSEMBLYMETADATA, rProcessor) == 24);
static_assert(offsetof(ASSEMBLYMETADATA, ulProcessor) == 32);
static_assert(offsetof(ASSEMBLYMETADATA, rOS) == 40);
static_assert(offsetof(ASSEMBLYMETADATA, ulOS) == 48);
static_assert(sizeof(COR_PRF_ASSEMBLY_REFERENCE_INFO) == 48);

// Event mask values and their type when combined.
static_assert(COR_PRF_MONITOR_CLASS_LOADS == 0x2 && COR_PRF_MONITOR_MODULE_LOADS == 0x4 &&
              COR_PRF_MONITOR_ASSEMBLY_LOADS == 0x8 && COR_PRF_MONITOR_APPDOMAIN_LOADS == 0x10 &&
              COR_PRF_MONITOR_JIT_COMPILATION == 0x20 && COR_PRF_MONITOR_EXCEPTIONS == 0x40 &&
              COR_PRF_MONITOR_GC == 0x80 && COR_PRF_MONITOR_THREADS == 0x200 &&
              COR_PRF_MONITOR_CODE_TRANSITIONS == 0x800 && COR_PRF_MONITOR_ENTERLEAVE == 0x1000 &&
              COR_PRF_MONITOR_SUSPENDS == 0x10000 && COR_PRF_DISABLE_INLINING == 0x200000 &&
              COR_PRF_ENABLE_FUNCTION_ARGS == 0x2000000 && COR_PRF_ENABLE_FUNCTION_RETVAL == 0x4000000 &&
              COR_PRF_ENABLE_FRAME_INFO == 0x8000000 && COR_PRF_DISABLE_ALL_NGEN_IMAGES == 0x80000000u);
static_assert(COR_PRF_MONITOR_ALL == 0x0107FFFF && COR_PRF_ALL == 0x8FFFFFFF);
static_assert(std::is_same_v<decltype(COR_PRF_MONITOR_ENTERLEAVE | COR_PRF_ENABLE_FUNCTION_ARGS), DWORD>);
static_assert(COR_PRF_HIGH_MONITOR_EVENT_PIPE == 0x80 && COR_PRF_HIGH_DISABLE_TIERED_COMPILATION == 0x8);

// HRESULTs.
static_assert(static_cast<std::uint32_t>(CORPROF_E_PROFILER_CANCEL_ACTIVATION) == 0x80131375u);
static_assert(static_cast<std::uint32_t>(E_FAIL) == 0x80004005u);
static_assert(static_cast<std::uint32_t>(E_NOINTERFACE) == 0x80004002u);
static_assert(static_cast<std::uint32_t>(E_OUTOFMEMORY) == 0x8007000Eu);
static_assert(static_cast<std::uint32_t>(E_INVALIDARG) == 0x80070057u);
static_assert(static_cast<std::uint32_t>(E_NOTIMPL) == 0x80004001u);
static_assert(static_cast<std::uint32_t>(CLASS_E_NOAGGREGATION) == 0x80040110u);
static_assert(FAILED(E_FAIL) && SUCCEEDED(S_FALSE) && SUCCEEDED(S_OK));
static_assert(TRUE == 1 && FALSE == 0 && std::is_same_v<decltype(TRUE), const BOOL>);

TEST(ProfilerAbi, IidStrings) {
  struct Row {
    const IID* iid;
    const char* text;
  };
  // Textual forms as published in the uuid() attributes / EXTERN_GUID comments.
  const Row rows[] = {
      {&IID_IUnknown, "00000000-0000-0000-C000-000000000046"},
      {&IID_IClassFactory, "00000001-0000-0000-C000-000000000046"},
      {&IID_ICorProfilerCallback, "176FBED1-A55C-4796-98CA-A9DA0EF883E7"},
      {&IID_ICorProfilerCallback2, "8A8CC829-CCF2-49FE-BBAE-0F022228071A"},
      {&IID_ICorProfilerCallback3, "4FD2ED52-7731-4B8D-9469-03D2CC3086C5"},
      {&IID_ICorProfilerCallback4, "7B63B2E3-107D-4D48-B2F6-F61E229470D2"},
      {&IID_ICorProfilerCallback5, "8DFBA405-8C9F-45F8-BFFA-83B14CEF78B5"},
      {&IID_ICorProfilerCallback6, "FC13DF4B-4448-4F4F-950C-BA8D19D00C36"},
      {&IID_ICorProfilerCallback7, "F76A2DBA-1D52-4539-866C-2AA518F9EFC3"},
      {&IID_ICorProfilerCallback8, "5BED9B15-C079-4D47-BFE2-215A140C07E0"},
      {&IID_ICorProfilerCallback9, "27583EC3-C8F5-482F-8052-194B8CE4705A"},
      {&IID_ICorProfilerCallback10, "CEC5B60E-C69C-495F-87F6-84D28EE16FFB"},
      {&IID_ICorProfilerCallback11, "42350846-AAED-47F7-B128-FD0C98881CDE"},
      {&IID_ICorProfilerInfo, "28B5557D-3F3F-48B4-90B2-5F9EEA2F6C48"},
      {&IID_ICorProfilerInfo2, "CC0935CD-A518-487D-B0BB-A93214E65478"},
      {&IID_ICorProfilerInfo3, "B555ED4F-452A-4E54-8B39-B5360BAD32A0"},
      {&IID_ICorProfilerInfo4, "0D8FDCAA-6257-47BF-B1BF-94DAC88466EE"},
      {&IID_ICorProfilerInfo5, "07602928-CE38-4B83-81E7-74ADAF781214"},
      {&IID_ICorProfilerInfo6, "F30A070D-BFFB-46A7-B1D8-8781EF7B698A"},
      {&IID_ICorProfilerInfo7, "9AEECC0D-63E0-4187-8C00-E312F503F663"},
      {&IID_ICorProfilerInfo8, "C5AC80A6-782E-4716-8044-39598C60CFBF"},
      {&IID_ICorProfilerInfo9, "008170DB-F8CC-4796-9A51-DC8AA0B47012"},
      {&IID_ICorProfilerInfo10, "2F1B5152-C869-40C9-AA5F-3ABE026BD720"},
      {&IID_ICorProfilerInfo11, "06398876-8987-4154-B621-40A00D6E4D04"},
      {&IID_ICorProfilerInfo12, "27B24CCD-1CB1-47C5-96EE-98190DC30959"},
      {&IID_ICorProfilerInfo13, "6E6C7EE2-0701-4EC2-9D29-2E8733B66934"},
      {&IID_ICorProfilerInfo14, "F460E352-D76D-4FE9-835F-F6AF9D6E862D"},
      {&IID_ICorProfilerInfo15, "B446462D-BD22-41DD-872D-DC714C49EB56"},
      {&IID_ICorProfilerObjectEnum, "2C6269BD-2D13-4321-AE12-6686365FD6AF"},
      {&IID_ICorProfilerFunctionEnum, "FF71301A-B994-429D-A10B-B345A65280EF"},
      {&IID_ICorProfilerModuleEnum, "B0266D75-2081-4493-AF7F-028BA34DB891"},
      {&IID_ICorProfilerMethodEnum, "FCCEE788-0088-454B-A811-C99F298D1942"},
      {&IID_ICorProfilerThreadEnum, "571194F7-25ED-419F-AA8B-7016B3159701"},
      {&IID_ICorProfilerFunctionControl, "F0963021-E1EA-4732-8581-E01B0BD3C0C6"},
      {&IID_ICorProfilerAssemblyReferenceProvider, "66A78C24-2EEF-4F65-B45F-DD1D8038BF3C"},
      {&IID_IMethodMalloc, "A0EFB28B-6EE2-4D7B-B983-A75EF7BEEDB8"},
      {&IID_IMetaDataImport, "7DAC8207-D3AE-4C75-9B67-92801A497D44"},
      {&IID_IMetaDataImport2, "FCE5EFA0-8BBA-4F8E-A036-8F2022B08466"},
      {&IID_IMetaDataEmit, "BA3FEE4C-ECB9-4E41-83B7-183FA41CD859"},
      {&IID_IMetaDataEmit2, "F5DD9950-F693-42E6-830E-7B833E8146A9"},
      {&IID_IMetaDataAssemblyImport, "EE62470B-E94B-424E-9B7C-2F00C9249F93"},
      {&IID_IMetaDataAssemblyEmit, "211EF15B-5317-4438-B196-DEC87B887693"},
  };
  for (const Row& r : rows) EXPECT_EQ(format_guid(*r.iid), r.text);
}

TEST(ProfilerAbi, GuidByteLayout) {
  // In memory Data1..Data3 are little-endian on x86-64; Data4 is stored as written.
  unsigned char bytes[16];
  std::memcpy(bytes, &IID_ICorProfilerCallback, 16);
  const unsigned char expected[16] = {0xD1, 0xBE, 0x6F, 0x17, 0x5C, 0xA5, 0x96, 0x47,
                                      0x98, 0xCA, 0xA9, 0xDA, 0x0E, 0xF8, 0x83, 0xE7};
  EXPECT_EQ(0, std::memcmp(bytes, expected, 16));
  std::memcpy(bytes, &IID_IUnknown, 16);
  EXPECT_EQ(bytes[8], 0xC0);
  EXPECT_EQ(bytes[15], 0x46);
  EXPECT_TRUE(IID_ICorProfilerInfo3 == IID_ICorProfilerInfo3);
  EXPECT_TRUE(IID_ICorProfilerInfo3 != IID_ICorProfilerInfo4);
}

namespace {

// Every callback overridden: proves the interface chain is fully implementable
// with these exact signatures (a typo would fail `override` or leave it abstract).
class NullCallback final : public ICorProfilerCallback11 {
 public:
  HRESULT QueryInterface(REFIID riid, void** ppv) override {
    if (riid == IID_IUnknown || riid == IID_ICorProfilerCallback ||
        riid == IID_ICorProfilerCallback2 || riid == IID_ICorProfilerCallback3 ||
        riid == IID_ICorProfilerCallback4 || riid == IID_ICorProfilerCallback5 ||
        riid == IID_ICorProfilerCallback6 || riid == IID_ICorProfilerCallback7 ||
        riid == IID_ICorProfilerCallback8 || riid == IID_ICorProfilerCallback9 ||
        riid == IID_ICorProfilerCallback10 || riid == IID_ICorProfilerCallback11) {
      *ppv = static_cast<ICorProfilerCallback11*>(this);
      AddRef();
      return S_OK;
    }
    *ppv = nullptr;
    return E_NOINTERFACE;
  }
  ULONG AddRef() override { return ++refs_; }
  ULONG Release() override { return --refs_; }

  HRESULT Initialize(IUnknown*) override { return S_OK; }
  HRESULT Shutdown() override { return S_OK; }
  HRESULT AppDomainCreationStarted(AppDomainID) override { return S_OK; }
  HRESULT AppDomainCreationFinished(AppDomainID, HRESULT) override { return S_OK; }
  HRESULT AppDomainShutdownStarted(AppDomainID) override { return S_OK; }
  HRESULT AppDomainShutdownFinished(AppDomainID, HRESULT) override { return S_OK; }
  HRESULT AssemblyLoadStarted(AssemblyID) override { return S_OK; }
  HRESULT AssemblyLoadFinished(AssemblyID, HRESULT) override { return S_OK; }
  HRESULT AssemblyUnloadStarted(AssemblyID) override { return S_OK; }
  HRESULT AssemblyUnloadFinished(AssemblyID, HRESULT) override { return S_OK; }
  HRESULT ModuleLoadStarted(ModuleID) override { return S_OK; }
  HRESULT ModuleLoadFinished(ModuleID, HRESULT) override { return S_OK; }
  HRESULT ModuleUnloadStarted(ModuleID) override { return S_OK; }
  HRESULT ModuleUnloadFinished(ModuleID, HRESULT) override { return S_OK; }
  HRESULT ModuleAttachedToAssembly(ModuleID, AssemblyID) override { return S_OK; }
  HRESULT ClassLoadStarted(ClassID) override { return S_OK; }
  HRESULT ClassLoadFinished(ClassID, HRESULT) override { return S_OK; }
  HRESULT ClassUnloadStarted(ClassID) override { return S_OK; }
  HRESULT ClassUnloadFinished(ClassID, HRESULT) override { return S_OK; }
  HRESULT FunctionUnloadStarted(FunctionID) override { return S_OK; }
  HRESULT JITCompilationStarted(FunctionID, BOOL) override { return S_OK; }
  HRESULT JITCompilationFinished(FunctionID, HRESULT, BOOL) override { return S_OK; }
  HRESULT JITCachedFunctionSearchStarted(FunctionID, BOOL*) override { return S_OK; }
  HRESULT JITCachedFunctionSearchFinished(FunctionID, COR_PRF_JIT_CACHE) override { return S_OK; }
  HRESULT JITFunctionPitched(FunctionID) override { return S_OK; }
  HRESULT JITInlining(FunctionID, FunctionID, BOOL*) override { return S_OK; }
  HRESULT ThreadCreated(ThreadID) override { return S_OK; }
  HRESULT ThreadDestroyed(ThreadID) override { return S_OK; }
  HRESULT ThreadAssignedToOSThread(ThreadID, DWORD) override { return S_OK; }
  HRESULT RemotingClientInvocationStarted() override { return S_OK; }
  HRESULT RemotingClientSendingMessage(GUID*, BOOL) override { return S_OK; }
  HRESULT RemotingClientReceivingReply(GUID*, BOOL) override { return S_OK; }
  HRESULT RemotingClientInvocationFinished() override { return S_OK; }
  HRESULT RemotingServerReceivingMessage(GUID*, BOOL) override { return S_OK; }
  HRESULT RemotingServerInvocationStarted() override { return S_OK; }
  HRESULT RemotingServerInvocationReturned() override { return S_OK; }
  HRESULT RemotingServerSendingReply(GUID*, BOOL) override { return S_OK; }
  HRESULT UnmanagedToManagedTransition(FunctionID, COR_PRF_TRANSITION_REASON) override {
    return S_OK;
  }
  HRESULT ManagedToUnmanagedTransition(FunctionID, COR_PRF_TRANSITION_REASON) override {
    return S_OK;
  }
  HRESULT RuntimeSuspendStarted(COR_PRF_SUSPEND_REASON) override { return S_OK; }
  HRESULT RuntimeSuspendFinished() override { return S_OK; }
  HRESULT RuntimeSuspendAborted() override { return S_OK; }
  HRESULT RuntimeResumeStarted() override { return S_OK; }
  HRESULT RuntimeResumeFinished() override { return S_OK; }
  HRESULT RuntimeThreadSuspended(ThreadID) override { return S_OK; }
  HRESULT RuntimeThreadResumed(ThreadID) override { return S_OK; }
  HRESULT MovedReferences(ULONG, ObjectID*, ObjectID*, ULONG*) override { return S_OK; }
  HRESULT ObjectAllocated(ObjectID, ClassID) override { return S_OK; }
  HRESULT ObjectsAllocatedByClass(ULONG, ClassID*, ULONG*) override { return S_OK; }
  HRESULT ObjectReferences(ObjectID, ClassID, ULONG, ObjectID*) override { return S_OK; }
  HRESULT RootReferences(ULONG, ObjectID*) override { return S_OK; }
  HRESULT ExceptionThrown(ObjectID) override { return S_OK; }
  HRESULT ExceptionSearchFunctionEnter(FunctionID) override { return S_OK; }
  HRESULT ExceptionSearchFunctionLeave() override { return S_OK; }
  HRESULT ExceptionSearchFilterEnter(FunctionID) override { return S_OK; }
  HRESULT ExceptionSearchFilterLeave() override { return S_OK; }
  HRESULT ExceptionSearchCatcherFound(FunctionID) override { return S_OK; }
  HRESULT ExceptionOSHandlerEnter(UINT_PTR) override { return S_OK; }
  HRESULT ExceptionOSHandlerLeave(UINT_PTR) override { return S_OK; }
  HRESULT ExceptionUnwindFunctionEnter(FunctionID) override { return S_OK; }
  HRESULT ExceptionUnwindFunctionLeave() override { return S_OK; }
  HRESULT ExceptionUnwindFinallyEnter(FunctionID) override { return S_OK; }
  HRESULT ExceptionUnwindFinallyLeave() override { return S_OK; }
  HRESULT ExceptionCatcherEnter(FunctionID, ObjectID) override { return S_OK; }
  HRESULT ExceptionCatcherLeave() override { return S_OK; }
  HRESULT COMClassicVTableCreated(ClassID, REFGUID, void*, ULONG) override { return S_OK; }
  HRESULT COMClassicVTableDestroyed(ClassID, REFGUID, void*) override { return S_OK; }
  HRESULT ExceptionCLRCatcherFound() override { return S_OK; }
  HRESULT ExceptionCLRCatcherExecute() override { return S_OK; }
  HRESULT ThreadNameChanged(ThreadID, ULONG, WCHAR*) override { return S_OK; }
  HRESULT GarbageCollectionStarted(int, BOOL*, COR_PRF_GC_REASON) override { return S_OK; }
  HRESULT SurvivingReferences(ULONG, ObjectID*, ULONG*) override { return S_OK; }
  HRESULT GarbageCollectionFinished() override { return S_OK; }
  HRESULT FinalizeableObjectQueued(DWORD, ObjectID) override { return S_OK; }
  HRESULT RootReferences2(ULONG, ObjectID*, COR_PRF_GC_ROOT_KIND*, COR_PRF_GC_ROOT_FLAGS*,
                          UINT_PTR*) override {
    return S_OK;
  }
  HRESULT HandleCreated(GCHandleID, ObjectID) override { return S_OK; }
  HRESULT HandleDestroyed(GCHandleID) override { return S_OK; }
  HRESULT InitializeForAttach(IUnknown*, void*, UINT) override { return S_OK; }
  HRESULT ProfilerAttachComplete() override { return S_OK; }
  HRESULT ProfilerDetachSucceeded() override { return S_OK; }
  HRESULT ReJITCompilationStarted(FunctionID, ReJITID, BOOL) override { return S_OK; }
  HRESULT GetReJITParameters(ModuleID, mdMethodDef, ICorProfilerFunctionControl*) override {
    return S_OK;
  }
  HRESULT ReJITCompilationFinished(FunctionID, ReJITID, HRESULT, BOOL) override { return S_OK; }
  HRESULT ReJITError(ModuleID, mdMethodDef, FunctionID, HRESULT) override { return S_OK; }
  HRESULT MovedReferences2(ULONG, ObjectID*, ObjectID*, SIZE_T*) override { return S_OK; }
  HRESULT SurvivingReferences2(ULONG, ObjectID*, SIZE_T*) override { return S_OK; }
  HRESULT ConditionalWeakTableElementReferences(ULONG, ObjectID*, ObjectID*, GCHandleID*) override {
    return S_OK;
  }
  HRESULT GetAssemblyReferences(const WCHAR*, ICorProfilerAssemblyReferenceProvider*) override {
    return S_OK;
  }
  HRESULT ModuleInMemorySymbolsUpdated(ModuleID) override { return S_OK; }
  HRESULT DynamicMethodJITCompilationStarted(FunctionID, BOOL, LPCBYTE, ULONG) override {
    return S_OK;
  }
  HRESULT DynamicMethodJITCompilationFinished(FunctionID, HRESULT, BOOL) override { return S_OK; }
  HRESULT DynamicMethodUnloaded(FunctionID) override { return S_OK; }
  HRESULT EventPipeEventDelivered(EVENTPIPE_PROVIDER, DWORD, DWORD, ULONG, LPCBYTE, ULONG, LPCBYTE,
                                  LPCGUID, LPCGUID, ThreadID, ULONG, UINT_PTR*) override {
    return S_OK;
  }
  HRESULT EventPipeProviderCreated(EVENTPIPE_PROVIDER) override { return S_OK; }
  HRESULT LoadAsNotificationOnly(BOOL*) override { return S_OK; }

 private:
  ULONG refs_ = 1;
};

static_assert(!std::is_abstract_v<NullCallback>);
// A COM object is one vtable pointer; no virtual destructor sneaked in.
static_assert(sizeof(ICorProfilerCallback11) == sizeof(void*));
static_assert(sizeof(ICorProfilerInfo15) == sizeof(void*));
static_assert(sizeof(IMetaDataImport2) == sizeof(void*));
static_assert(!std::has_virtual_destructor_v<ICorProfilerCallback11>);
static_assert(!std::has_virtual_destructor_v<ICorProfilerInfo15>);
static_assert(!std::has_virtual_destructor_v<IMetaDataEmit2>);

}  // namespace

TEST(ProfilerAbi, CallbackQueryInterface) {
  NullCallback cb;
  void* p = nullptr;
  EXPECT_EQ(cb.QueryInterface(IID_ICorProfilerCallback11, &p), S_OK);
  EXPECT_EQ(p, static_cast<void*>(static_cast<ICorProfilerCallback11*>(&cb)));
  EXPECT_EQ(cb.QueryInterface(IID_ICorProfilerInfo, &p), E_NOINTERFACE);
  EXPECT_EQ(p, nullptr);
  ICorProfilerCallback* base = &cb;
  EXPECT_EQ(base->JITCompilationStarted(0, 1), S_OK);
}
