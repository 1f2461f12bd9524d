// Every ICorProfilerCallback method, answering S_OK: the profilers override only what they use.
// Reference counting and QueryInterface for all eleven callback interfaces.
#pragma once

#include <atomic>

#include "profiler/abi/corprof.h"

namespace cil::profiler {

using namespace cilprof;

class CallbackBase : public ICorProfilerCallback11 {
 public:
  virtual ~CallbackBase() = default;

  HRESULT QueryInterface(REFIID riid, void** ppv) override {
    if (!ppv) return E_POINTER;
    if (riid == IID_IUnknown || riid == IID_ICorProfilerCallback || riid == IID_ICorProfilerCallback2 ||
        riid == IID_ICorProfilerCallback3 || riid == IID_ICorProfilerCallback4 || riid == IID_ICorProfilerCallback5 ||
        riid == IID_ICorProfilerCallback6 || riid == IID_ICorProfilerCallback7 || riid == IID_ICorProfilerCallback8 ||
        riid == IID_ICorProfilerCallback9 || riid == IID_ICorProfilerCallback10 || riid == IID_ICorProfilerCallback11) {
      *ppv = static_cast<ICorProfilerCallback11*>(this);
      AddRef();
      return S_OK;
    }
    *ppv = nullptr;
    return E_NOINTERFACE;
  }
  ULONG AddRef() override { return ++refs_; }
  ULONG Release() override {
    ULONG left = --refs_;
    if (left == 0) delete this;
    return left;
  }

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
  std::atomic<ULONG> refs_{1};
};

}  // namespace cil::profiler
