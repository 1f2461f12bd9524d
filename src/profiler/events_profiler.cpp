// Events mode: one method per callback, each a line in the log.
#include "profiler/events_profiler.h"

#include <fmt/format.h>

#include "profiler/signal_writer.h"
#include "profiler/wide_string.h"

namespace cil::profiler {

namespace {

constexpr int kMaxDepth = 64;  ///< deeper nesting is logged at this indentation

/// Per-thread nesting: the indentation, and for each pair kind whether each open Enter was
/// logged (a Leave has no FunctionID to filter on).
struct ThreadState {
  int depth = 0;
  std::vector<bool> open[8];
};
thread_local ThreadState t_state;

std::string status_suffix(HRESULT status) {
  return SUCCEEDED(status) ? std::string() : fmt::format(" (failed, HRESULT 0x{:08X})", static_cast<uint32_t>(status));
}

}  // namespace

std::pair<DWORD, DWORD> EventsProfiler::event_mask() const {
  DWORD low = COR_PRF_MONITOR_APPDOMAIN_LOADS | COR_PRF_MONITOR_ASSEMBLY_LOADS | COR_PRF_MONITOR_MODULE_LOADS |
              COR_PRF_MONITOR_CLASS_LOADS | COR_PRF_MONITOR_JIT_COMPILATION | COR_PRF_MONITOR_THREADS |
              COR_PRF_MONITOR_EXCEPTIONS | COR_PRF_MONITOR_CODE_TRANSITIONS;
  // Started/finished only, without the per-object callbacks of COR_PRF_MONITOR_GC.
  return {low, COR_PRF_HIGH_BASIC_GC};
}

Status EventsProfiler::start() {
  log_ = CIL_TRY(LineLog::create(output_file("events.log"), true));
  threads_ = std::make_unique<ThreadTags>(info());
  USHORT major = 0, minor = 0, build = 0, qfe = 0;
  std::string runtime = "CoreCLR";
  if (auto* info3 = static_cast<ICorProfilerInfo3*>(info());
      SUCCEEDED(info3->GetRuntimeInformation(nullptr, nullptr, &major, &minor, &build, &qfe, 0, nullptr, nullptr)))
    runtime = fmt::format("CoreCLR {}.{}.{}", major, minor, build);
  log(fmt::format("{}: {}, pid {}, mode events", attached() ? "InitializeForAttach" : "Initialize", runtime, pid_));
  return ok();
}

void EventsProfiler::finish() {
  // An attach session ends before the process does: the profiler detaches then.
  log(attached() && !shutting_down() ? "Detach" : "Shutdown");
  log_->flush();
}

void EventsProfiler::save(int signal) {
  if (!signal) return;
  log(fmt::format("Signal {}", SignalWriter::name(signal)));
  log_->flush();
}

void EventsProfiler::log(std::string_view text, int step) {
  static_assert(kPairs == std::size(ThreadState{}.open));
  ThreadState& t = t_state;
  if (step < 0 && t.depth > 0) --t.depth;
  std::string line = fmt::format("[{}] {:{}}{}", threads_->current(), "", 2 * std::min(t.depth, kMaxDepth), text);
  log_->line(line);
  if (step > 0) ++t.depth;
}

void EventsProfiler::open(Pair pair, bool shown, std::string_view text) {
  t_state.open[pair].push_back(shown);
  if (shown) log(text, +1);
}

void EventsProfiler::close(Pair pair, std::string_view text) {
  auto& stack = t_state.open[pair];
  bool shown = true;  // a Leave whose Enter came before the profiler saw it: show it
  if (!stack.empty()) {
    shown = stack.back();
    stack.pop_back();
  }
  if (shown) log(text, -1);
}

bool EventsProfiler::shows(FunctionID id, std::string* name) {
  *name = modules_->function_name(id);
  return config_.filter.selects(*name);
}

std::string EventsProfiler::app_domain_name(AppDomainID id) {
  WCHAR name[kNameCapacity];
  ULONG length = 0;
  ProcessID process = 0;
  if (FAILED(info()->GetAppDomainInfo(id, kNameCapacity, &length, name, &process))) return "?";
  return wide_name(name, length);
}

std::string EventsProfiler::assembly_name(AssemblyID id) {
  WCHAR name[kNameCapacity];
  ULONG length = 0;
  AppDomainID domain = 0;
  ModuleID module = 0;
  if (FAILED(info()->GetAssemblyInfo(id, kNameCapacity, &length, name, &domain, &module))) return "?";
  return wide_name(name, length);
}

std::string EventsProfiler::module_name(ModuleID id) {
  auto entry = modules_->get(id);
  if (!entry) return "?";
  if (!entry->path.empty()) return entry->path;
  std::string name = entry->name.empty() ? modules_->assembly_name(*entry) : entry->name;
  return fmt::format("{} (in memory{})", name.empty() ? "?" : name, entry->flags & COR_PRF_MODULE_DYNAMIC ? ", dynamic" : "");
}

std::string EventsProfiler::object_class(ObjectID object) {
  ClassID klass = 0;
  if (!object || FAILED(info()->GetClassFromObject(object, &klass))) return "?";
  return modules_->class_name(klass);
}

HRESULT EventsProfiler::AppDomainCreationStarted(AppDomainID) {
  return guarded("AppDomainCreationStarted", [&] { open(kLoad, true, "AppDomainCreationStarted"); });
}
HRESULT EventsProfiler::AppDomainCreationFinished(AppDomainID id, HRESULT status) {
  return guarded("AppDomainCreationFinished",
                 [&] { close(kLoad, fmt::format("AppDomainCreationFinished {}{}", app_domain_name(id), status_suffix(status))); });
}
HRESULT EventsProfiler::AppDomainShutdownStarted(AppDomainID id) {
  return guarded("AppDomainShutdownStarted",
                 [&] { open(kLoad, true, fmt::format("AppDomainShutdownStarted {}", app_domain_name(id))); });
}
HRESULT EventsProfiler::AppDomainShutdownFinished(AppDomainID, HRESULT status) {
  return guarded("AppDomainShutdownFinished",
                 [&] { close(kLoad, fmt::format("AppDomainShutdownFinished{}", status_suffix(status))); });
}
HRESULT EventsProfiler::AssemblyLoadStarted(AssemblyID) {
  return guarded("AssemblyLoadStarted", [&] { open(kLoad, true, "AssemblyLoadStarted"); });
}
HRESULT EventsProfiler::AssemblyLoadFinished(AssemblyID id, HRESULT status) {
  return guarded("AssemblyLoadFinished",
                 [&] { close(kLoad, fmt::format("AssemblyLoadFinished {}{}", assembly_name(id), status_suffix(status))); });
}
HRESULT EventsProfiler::AssemblyUnloadStarted(AssemblyID id) {
  return guarded("AssemblyUnloadStarted",
                 [&] { open(kLoad, true, fmt::format("AssemblyUnloadStarted {}", assembly_name(id))); });
}
HRESULT EventsProfiler::AssemblyUnloadFinished(AssemblyID, HRESULT status) {
  return guarded("AssemblyUnloadFinished",
                 [&] { close(kLoad, fmt::format("AssemblyUnloadFinished{}", status_suffix(status))); });
}
HRESULT EventsProfiler::ModuleLoadStarted(ModuleID) {
  return guarded("ModuleLoadStarted", [&] { open(kLoad, true, "ModuleLoadStarted"); });
}
HRESULT EventsProfiler::ModuleLoadFinished(ModuleID id, HRESULT status) {
  return guarded("ModuleLoadFinished",
                 [&] { close(kLoad, fmt::format("ModuleLoadFinished {}{}", module_name(id), status_suffix(status))); });
}
HRESULT EventsProfiler::ModuleUnloadStarted(ModuleID id) {
  return guarded("ModuleUnloadStarted", [&] { open(kLoad, true, fmt::format("ModuleUnloadStarted {}", module_name(id))); });
}
HRESULT EventsProfiler::ModuleUnloadFinished(ModuleID id, HRESULT status) {
  return guarded("ModuleUnloadFinished", [&] {
    close(kLoad, fmt::format("ModuleUnloadFinished{}", status_suffix(status)));
    modules_->forget(id);
  });
}
HRESULT EventsProfiler::ModuleAttachedToAssembly(ModuleID module, AssemblyID assembly) {
  return guarded("ModuleAttachedToAssembly", [&] {
    log(fmt::format("ModuleAttachedToAssembly {} -> {}", module_name(module), assembly_name(assembly)));
  });
}
HRESULT EventsProfiler::ClassLoadStarted(ClassID id) {
  return guarded("ClassLoadStarted", [&] { open(kLoad, true, fmt::format("ClassLoadStarted {}", modules_->class_name(id))); });
}
HRESULT EventsProfiler::ClassLoadFinished(ClassID id, HRESULT status) {
  return guarded("ClassLoadFinished", [&] {
    close(kLoad, fmt::format("ClassLoadFinished {}{}", modules_->class_name(id), status_suffix(status)));
  });
}
HRESULT EventsProfiler::ClassUnloadStarted(ClassID id) {
  return guarded("ClassUnloadStarted",
                 [&] { open(kLoad, true, fmt::format("ClassUnloadStarted {}", modules_->class_name(id))); });
}
HRESULT EventsProfiler::ClassUnloadFinished(ClassID id, HRESULT status) {
  return guarded("ClassUnloadFinished", [&] {
    close(kLoad, fmt::format("ClassUnloadFinished{}", status_suffix(status)));
    modules_->forget_class(id);
  });
}
HRESULT EventsProfiler::JITCompilationStarted(FunctionID id, BOOL) {
  return guarded("JITCompilationStarted", [&] {
    std::string name;
    bool shown = shows(id, &name);
    open(kJit, shown, fmt::format("JITCompilationStarted {}", name));
  });
}
HRESULT EventsProfiler::JITCompilationFinished(FunctionID id, HRESULT status, BOOL) {
  return guarded("JITCompilationFinished", [&] {
    close(kJit, fmt::format("JITCompilationFinished {}{}", modules_->function_name(id), status_suffix(status)));
  });
}
HRESULT EventsProfiler::DynamicMethodJITCompilationStarted(FunctionID, BOOL, LPCBYTE, ULONG size) {
  return guarded("DynamicMethodJITCompilationStarted", [&] {
    open(kJit, config_.filter.include.empty(), fmt::format("DynamicMethodJITCompilationStarted ({} bytes of IL)", size));
  });
}
HRESULT EventsProfiler::DynamicMethodJITCompilationFinished(FunctionID, HRESULT status, BOOL) {
  return guarded("DynamicMethodJITCompilationFinished",
                 [&] { close(kJit, fmt::format("DynamicMethodJITCompilationFinished{}", status_suffix(status))); });
}
HRESULT EventsProfiler::ThreadCreated(ThreadID id) {
  return guarded("ThreadCreated", [&] { log(fmt::format("ThreadCreated {}", threads_->of(id))); });
}
HRESULT EventsProfiler::ThreadDestroyed(ThreadID id) {
  return guarded("ThreadDestroyed", [&] {
    log(fmt::format("ThreadDestroyed {}", threads_->of(id)));
    threads_->forget(id);
  });
}
HRESULT EventsProfiler::ThreadAssignedToOSThread(ThreadID id, DWORD os_thread) {
  return guarded("ThreadAssignedToOSThread",
                 [&] { log(fmt::format("ThreadAssignedToOSThread {} -> OS thread {}", threads_->of(id), os_thread)); });
}
HRESULT EventsProfiler::ThreadNameChanged(ThreadID id, ULONG length, WCHAR name[]) {
  return guarded("ThreadNameChanged", [&] {
    std::string text = name ? to_utf8(std::u16string_view(name, length)) : std::string();
    log(fmt::format("ThreadNameChanged {} \"{}\"", threads_->of(id), text));
  });
}
HRESULT EventsProfiler::ExceptionThrown(ObjectID thrown) {
  return guarded("ExceptionThrown", [&] { log(fmt::format("ExceptionThrown {}", object_class(thrown))); });
}
HRESULT EventsProfiler::ExceptionSearchFunctionEnter(FunctionID id) {
  return guarded("ExceptionSearchFunctionEnter", [&] {
    std::string name;
    bool shown = shows(id, &name);
    open(kSearch, shown, fmt::format("ExceptionSearchFunctionEnter {}", name));
  });
}
HRESULT EventsProfiler::ExceptionSearchFunctionLeave() {
  return guarded("ExceptionSearchFunctionLeave", [&] { close(kSearch, "ExceptionSearchFunctionLeave"); });
}
HRESULT EventsProfiler::ExceptionSearchFilterEnter(FunctionID id) {
  return guarded("ExceptionSearchFilterEnter", [&] {
    std::string name;
    bool shown = shows(id, &name);
    open(kFilter, shown, fmt::format("ExceptionSearchFilterEnter {}", name));
  });
}
HRESULT EventsProfiler::ExceptionSearchFilterLeave() {
  return guarded("ExceptionSearchFilterLeave", [&] { close(kFilter, "ExceptionSearchFilterLeave"); });
}
HRESULT EventsProfiler::ExceptionSearchCatcherFound(FunctionID id) {
  return guarded("ExceptionSearchCatcherFound", [&] {
    std::string name;
    if (shows(id, &name)) log(fmt::format("ExceptionSearchCatcherFound {}", name));
  });
}
HRESULT EventsProfiler::ExceptionUnwindFunctionEnter(FunctionID id) {
  return guarded("ExceptionUnwindFunctionEnter", [&] {
    std::string name;
    bool shown = shows(id, &name);
    open(kUnwind, shown, fmt::format("ExceptionUnwindFunctionEnter {}", name));
  });
}
HRESULT EventsProfiler::ExceptionUnwindFunctionLeave() {
  return guarded("ExceptionUnwindFunctionLeave", [&] { close(kUnwind, "ExceptionUnwindFunctionLeave"); });
}
HRESULT EventsProfiler::ExceptionUnwindFinallyEnter(FunctionID id) {
  return guarded("ExceptionUnwindFinallyEnter", [&] {
    std::string name;
    bool shown = shows(id, &name);
    open(kFinally, shown, fmt::format("ExceptionUnwindFinallyEnter {}", name));
  });
}
HRESULT EventsProfiler::ExceptionUnwindFinallyLeave() {
  return guarded("ExceptionUnwindFinallyLeave", [&] { close(kFinally, "ExceptionUnwindFinallyLeave"); });
}
HRESULT EventsProfiler::ExceptionCatcherEnter(FunctionID id, ObjectID thrown) {
  return guarded("ExceptionCatcherEnter", [&] {
    std::string name;
    bool shown = shows(id, &name);
    open(kCatcher, shown, fmt::format("ExceptionCatcherEnter {} {}", name, object_class(thrown)));
  });
}
HRESULT EventsProfiler::ExceptionCatcherLeave() {
  return guarded("ExceptionCatcherLeave", [&] {
    close(kCatcher, "ExceptionCatcherLeave");
    // The catching frame's unwind has no ExceptionUnwindFunctionLeave: the catch ends it.
    auto& unwind = t_state.open[kUnwind];
    if (!unwind.empty()) {
      if (unwind.back() && t_state.depth > 0) --t_state.depth;
      unwind.pop_back();
    }
  });
}
HRESULT EventsProfiler::GarbageCollectionStarted(int generations, BOOL collected[], COR_PRF_GC_REASON reason) {
  return guarded("GarbageCollectionStarted", [&] {
    std::string text = "GarbageCollectionStarted";
    static const char* const kNames[] = {"gen0", "gen1", "gen2", "loh", "poh"};
    for (int g = 0; collected && g < generations; ++g)
      if (collected[g]) text += fmt::format(" {}", g < 5 ? kNames[g] : fmt::format("gen{}", g).c_str());
    text += reason == COR_PRF_GC_INDUCED ? " (induced)" : " (other)";
    open(kGc, true, text);
  });
}
HRESULT EventsProfiler::GarbageCollectionFinished() {
  return guarded("GarbageCollectionFinished", [&] { close(kGc, "GarbageCollectionFinished"); });
}
HRESULT EventsProfiler::UnmanagedToManagedTransition(FunctionID id, COR_PRF_TRANSITION_REASON reason) {
  return guarded("UnmanagedToManagedTransition", [&] {
    std::string name;
    if (shows(id, &name))
      log(fmt::format("UnmanagedToManagedTransition {} ({})", name, reason == COR_PRF_TRANSITION_CALL ? "call" : "return"));
  });
}
HRESULT EventsProfiler::ManagedToUnmanagedTransition(FunctionID id, COR_PRF_TRANSITION_REASON reason) {
  return guarded("ManagedToUnmanagedTransition", [&] {
    std::string name;
    if (shows(id, &name))
      log(fmt::format("ManagedToUnmanagedTransition {} ({})", name, reason == COR_PRF_TRANSITION_CALL ? "call" : "return"));
  });
}

}  // namespace cil::profiler
