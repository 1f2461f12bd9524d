// Trace mode's loader of the hooks assembly at run time. The JIT binds a traced method's call to
// a hook while it compiles that method, so the hooks must be loaded before the first traced
// method is compiled, without changing the app (no deps.json entry, no copy beside it). The
// loader is put in front of the runtime's own startup method, System.StartupHookProvider::
// ManagedStartup (ProcessStartupHooks before .NET 8), which every app runs right before Main:
//   try { Assembly.LoadFrom(hooks).GetType(hookType, throwOnError: true); report(0, session); }
//   catch (Exception e) { report(e.HResult | 0x80000000, session); }
// `report` is a native function of the profiler, called through calli with its address baked in
// (no P/Invoke, no export). LoadFrom loads into the default context, where a by-name reference
// to the hooks' assembly then binds, and it resolves the hooks' own dependencies from their folder.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "il/rewrite.h"
#include "metadata/runtime_refs.h"
#include "profiler/emit_sink.h"

namespace cil::profiler {

/// Whether `name` (Ns.Type::Method, in the core library) is a startup method the loader goes into.
bool is_startup_method(std::string_view name);

/// How the loader reports: 0 when the hooks loaded and their type was found, otherwise the
/// exception's HRESULT with its top bit set (never 0); with the session its body was made for.
using LoaderReport = void (*)(int32_t status, int32_t session);

/// The tokens the loader uses, in the scope of the module whose method gets it.
struct LoaderTokens {
  md::Token load_from{}, get_type{}, get_hresult{}, exception{};
  md::Token path{}, type_name{};  ///< user strings
  md::Token report_signature{};     ///< StandAloneSig of calli
  int32_t session = 0;  ///< passed with the report: the attach session the loader belongs to (0 at startup)
};

/// In the core library: its own definitions. Only references, a user string and a signature are
/// added to it, no definition.
Expected<LoaderTokens> core_loader_tokens(EmitSink& core_library, const std::string& hooks_path, const std::string& hook_type);
/// In any other module (attach, whose startup method has run): references to the core library
/// through `refs`, added to `sink`'s module.
Expected<LoaderTokens> module_loader_tokens(md::MetadataSink& sink, md::RuntimeRefs& refs, const std::string& hooks_path,
                                            const std::string& hook_type);

/// The IL `body` with the loader in front.
Expected<il::EncodedBody> loader_body(const LoaderTokens& tokens, std::span<const uint8_t> body, LoaderReport report);

}  // namespace cil::profiler
