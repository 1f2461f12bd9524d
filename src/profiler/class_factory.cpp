// DllGetClassObject, the class factory, and the choice of profiler by mode. The only symbol
// the library exports is DllGetClassObject (see profiler.map).
#include "profiler/class_factory.h"

#include <atomic>
#include <new>
#include <cstdlib>
#include <string>

#include <unistd.h>

#include "profiler/args_profiler.h"
#include "profiler/count_profiler.h"
#include "profiler/events_profiler.h"
#include "profiler/trace_profiler.h"

namespace cil::profiler {

namespace {

std::string working_directory() {
  std::string buffer(4096, '\0');
  if (!::getcwd(buffer.data(), buffer.size())) return "";
  buffer.resize(std::char_traits<char>::length(buffer.c_str()));
  return buffer;
}

class ClassFactory final : public cilprof::IClassFactory {
 public:
  explicit ClassFactory(const cilprof::CLSID& clsid) : clsid_(clsid) {}
  cilprof::HRESULT QueryInterface(cilprof::REFIID riid, void** ppv) override {
    if (!ppv) return cilprof::E_POINTER;
    if (riid == cilprof::IID_IUnknown || riid == cilprof::IID_IClassFactory) {
      *ppv = static_cast<cilprof::IClassFactory*>(this);
      AddRef();
      return cilprof::S_OK;
    }
    *ppv = nullptr;
    return cilprof::E_NOINTERFACE;
  }
  cilprof::ULONG AddRef() override { return ++refs_; }
  cilprof::ULONG Release() override {
    cilprof::ULONG left = --refs_;
    if (left == 0) delete this;
    return left;
  }
  cilprof::HRESULT CreateInstance(cilprof::IUnknown* outer, cilprof::REFIID riid, void** ppv) override {
    if (!ppv) return cilprof::E_POINTER;
    *ppv = nullptr;
    if (outer) return cilprof::CLASS_E_NOAGGREGATION;
    cilprof::IUnknown* profiler = create_profiler(clsid_);
    if (!profiler) return cilprof::E_OUTOFMEMORY;
    cilprof::HRESULT hr = profiler->QueryInterface(riid, ppv);
    profiler->Release();
    return hr;
  }
  cilprof::HRESULT LockServer(cilprof::BOOL) override { return cilprof::S_OK; }

 private:
  std::atomic<cilprof::ULONG> refs_{1};
  cilprof::CLSID clsid_;
};

}  // namespace

cilprof::IUnknown* create_profiler() {
  try {
    auto config = read_config([](const char* name) { return std::getenv(name); }, working_directory());
    if (!config) return new DecliningProfiler(config.error().message);
    switch (config->mode) {
      case Mode::Count: case Mode::Coverage: return new CountProfiler(std::move(*config));
      case Mode::Events: return new EventsProfiler(std::move(*config));
      case Mode::Args: return new ArgsProfiler(std::move(*config));
      case Mode::Trace: return new TraceProfiler(std::move(*config));
    }
    return nullptr;
  } catch (...) {
    return nullptr;
  }
}

cilprof::IUnknown* create_profiler(const cilprof::CLSID& clsid) {
  if (clsid == kClsid) return create_profiler();
  try {
    Config config;
    if (clsid == kAttachClsidCount) config.mode = Mode::Count;
    else if (clsid == kAttachClsidEvents) config.mode = Mode::Events;
    else if (clsid == kAttachClsidCoverage) config.mode = Mode::Coverage;
    else if (clsid == kAttachClsidTrace) config.mode = Mode::Trace;
    else return nullptr;
    if (config.mode == Mode::Events) return new EventsProfiler(std::move(config));
    // The hooks come with the session's settings (InitializeForAttach), before start() reads them.
    if (config.mode == Mode::Trace) return new TraceProfiler(std::move(config));
    return new CountProfiler(std::move(config));
  } catch (...) {
    return nullptr;
  }
}

}  // namespace cil::profiler

extern "C" __attribute__((visibility("default"))) cilprof::HRESULT DllGetClassObject(cilprof::REFCLSID clsid,
                                                                                     cilprof::REFIID riid, void** ppv) {
  using namespace cilprof;
  if (!ppv) return E_POINTER;
  *ppv = nullptr;
  if (clsid != cil::profiler::kClsid && clsid != cil::profiler::kAttachClsidCount &&
      clsid != cil::profiler::kAttachClsidEvents && clsid != cil::profiler::kAttachClsidCoverage &&
      clsid != cil::profiler::kAttachClsidTrace)
    return CLASS_E_CLASSNOTAVAILABLE;
  auto* factory = new (std::nothrow) cil::profiler::ClassFactory(clsid);
  if (!factory) return E_OUTOFMEMORY;
  HRESULT hr = factory->QueryInterface(riid, ppv);
  factory->Release();
  return hr;
}
