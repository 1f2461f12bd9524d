// Events mode: an indented log of the runtime's life, in the spirit of the classic DNProfiler.
// One line per event, "[T1] " and two spaces per open Started/Enter on that thread. Loads and
// unloads, threads and GCs are always logged; events about one method (JIT, exception frames,
// transitions) only when the filters select the method.
#pragma once

#include <memory>

#include "profiler/line_log.h"
#include "profiler/profiler_base.h"
#include "profiler/thread_tags.h"

namespace cil::profiler {

class EventsProfiler final : public ProfilerBase {
 public:
  explicit EventsProfiler(Config config) : ProfilerBase(std::move(config)) {}

  HRESULT AppDomainCreationStarted(AppDomainID id) override;
  HRESULT AppDomainCreationFinished(AppDomainID id, HRESULT status) override;
  HRESULT AppDomainShutdownStarted(AppDomainID id) override;
  HRESULT AppDomainShutdownFinished(AppDomainID id, HRESULT status) override;
  HRESULT AssemblyLoadStarted(AssemblyID id) override;
  HRESULT AssemblyLoadFinished(AssemblyID id, HRESULT status) override;
  HRESULT AssemblyUnloadStarted(AssemblyID id) override;
  HRESULT AssemblyUnloadFinished(AssemblyID id, HRESULT status) override;
  HRESULT ModuleLoadStarted(ModuleID id) override;
  HRESULT ModuleLoadFinished(ModuleID id, HRESULT status) override;
  HRESULT ModuleUnloadStarted(ModuleID id) override;
  HRESULT ModuleUnloadFinished(ModuleID id, HRESULT status) override;
  HRESULT ModuleAttachedToAssembly(ModuleID module, AssemblyID assembly) override;
  HRESULT ClassLoadStarted(ClassID id) override;
  HRESULT ClassLoadFinished(ClassID id, HRESULT status) override;
  HRESULT ClassUnloadStarted(ClassID id) override;
  HRESULT ClassUnloadFinished(ClassID id, HRESULT status) override;
  HRESULT JITCompilationStarted(FunctionID id, BOOL safe_to_block) override;
  HRESULT JITCompilationFinished(FunctionID id, HRESULT status, BOOL safe_to_block) override;
  HRESULT DynamicMethodJITCompilationStarted(FunctionID id, BOOL safe_to_block, LPCBYTE header, ULONG size) override;
  HRESULT DynamicMethodJITCompilationFinished(FunctionID id, HRESULT status, BOOL safe_to_block) override;
  HRESULT ThreadCreated(ThreadID id) override;
  HRESULT ThreadDestroyed(ThreadID id) override;
  HRESULT ThreadAssignedToOSThread(ThreadID id, DWORD os_thread) override;
  HRESULT ThreadNameChanged(ThreadID id, ULONG length, WCHAR name[]) override;
  HRESULT ExceptionThrown(ObjectID thrown) override;
  HRESULT ExceptionSearchFunctionEnter(FunctionID id) override;
  HRESULT ExceptionSearchFunctionLeave() override;
  HRESULT ExceptionSearchFilterEnter(FunctionID id) override;
  HRESULT ExceptionSearchFilterLeave() override;
  HRESULT ExceptionSearchCatcherFound(FunctionID id) override;
  HRESULT ExceptionUnwindFunctionEnter(FunctionID id) override;
  HRESULT ExceptionUnwindFunctionLeave() override;
  HRESULT ExceptionUnwindFinallyEnter(FunctionID id) override;
  HRESULT ExceptionUnwindFinallyLeave() override;
  HRESULT ExceptionCatcherEnter(FunctionID id, ObjectID thrown) override;
  HRESULT ExceptionCatcherLeave() override;
  HRESULT GarbageCollectionStarted(int generations, BOOL collected[], COR_PRF_GC_REASON reason) override;
  HRESULT GarbageCollectionFinished() override;
  HRESULT UnmanagedToManagedTransition(FunctionID id, COR_PRF_TRANSITION_REASON reason) override;
  HRESULT ManagedToUnmanagedTransition(FunctionID id, COR_PRF_TRANSITION_REASON reason) override;

 protected:
  std::pair<DWORD, DWORD> event_mask() const override;
  Status start() override;
  void finish() override;
  /// A signal gets its line ("Signal SIGTERM"), in place of Shutdown's; lines are flushed as
  /// they are written, so a periodic write has nothing to do.
  void save(int signal) override;

 private:
  /// Which paired events nest; each keeps, per thread, whether its open Enter was logged.
  enum Pair { kLoad, kJit, kSearch, kFilter, kUnwind, kFinally, kCatcher, kGc, kPairs };

  /// Writes "[tag] <indent>text"; `step` +1 opens a level after the line, -1 closes one before.
  void log(std::string_view text, int step = 0);
  /// An Enter/Started of a pair: logged (and nested) when `shown`.
  void open(Pair pair, bool shown, std::string_view text);
  /// The matching Leave/Finished: logged when its Enter was.
  void close(Pair pair, std::string_view text);
  bool shows(FunctionID id, std::string* name);
  std::string app_domain_name(AppDomainID id);
  std::string assembly_name(AssemblyID id);
  std::string module_name(ModuleID id);
  std::string object_class(ObjectID object);

  std::unique_ptr<LineLog> log_;
  std::unique_ptr<ThreadTags> threads_;
};

}  // namespace cil::profiler
