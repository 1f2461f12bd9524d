// Instrumenting a module: choose methods, rewrite each through the engine in the chosen mode
// (instrument_mode.h), and write the new module. Returns what it did; prints nothing.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "instrument/count_mode.h"
#include "instrument/coverage_mode.h"
#include "instrument/debug_info.h"
#include "instrument/hook_contract.h"
#include "instrument/instrument_mode.h"
#include "il/offset_map.h"
#include "metadata/module.h"
#include "metadata/module_editor.h"
#include "metadata/name_pattern.h"
#include "pe/image_writer.h"
#include "instrument/engine_names.h"

namespace cil::instrument {

struct InstrumentOptions {
  Mode mode = Mode::Count;
  /// When set, opens the mode instead of open_mode(mode): a mode the library does not list (the
  /// job needs no change for it). `mode` still seeds the output's MVID.
  ModeOpener open;
  md::MethodFilter filter;
  std::vector<uint32_t> method_rvas;  ///< when not empty, only methods whose body is at one of these
  const HookContract* hooks = nullptr;  ///< trace mode: the hooks to call
  /// Where the new bodies and static data go as they are made (see md::ModuleEditor::
  /// set_section_sink); without one they are held until the output is returned.
  pe::SectionSink* sink = nullptr;
  size_t sink_chunk = md::ModuleEditor::kSinkChunk;
  /// Called with the offset map of every body rewritten (in token order), for what must follow
  /// the code: sequence points, scopes, coverage. Bodies whose rewrite failed are not reported.
  std::function<void(md::MethodDefId method, const OffsetMap& map)> on_rewritten;
  /// Where debug information comes from (see PdbOptions).
  PdbOptions pdb;
  /// Coverage mode: what it leaves out.
  CoverageOptions coverage;
  /// The output keeps the StrongNameSigned flag (set even when the input is delay-signed) for a
  /// signature the caller writes once the file is complete (pe::finish_strong_name). Otherwise
  /// the flag is cleared with a warning: the input's signature cannot survive the edit.
  bool strong_name = false;
};

/// Why a selected method was not instrumented.
enum class SkipReason : uint8_t {
  NativeCode,          ///< code type Native (II.23.1.11)
  OptilCode,           ///< code type OPTIL
  RuntimeImplemented,  ///< code type Runtime (delegates and the like)
  Abstract,            ///< no body: abstract
  PInvoke,             ///< no body: P/Invoke
  InternalCall,        ///< no body: internal call
  Extern,              ///< no body, for no other reason
  Malformed,           ///< the body could not be read or is over a cap: kept as in the input
  Unsupported,         ///< a body the engine cannot rewrite in this mode (jmp under wrap...)
  /// System.Private.CoreLib's own runtime helpers (System.Runtime.CompilerServices.*,
  /// System.Threading.Interlocked): the probe itself runs them (its static field goes through
  /// StaticsHelpers.GetGCStaticBase, its counter through Interlocked.Increment), so a probe in
  /// them would call itself until the stack overflows as the runtime starts.
  ProbeRuntime,
};

/// True when MethodDef `name` (Ns.Type::Method) of System.Private.CoreLib is one of the runtime
/// helpers the probes themselves run (SkipReason::ProbeRuntime).
bool probe_runtime_method(std::string_view name);

/// The text shown for a reason without details: "native code", "no body (abstract)"...
std::string_view skip_reason_text(SkipReason reason);

struct SkippedMethod {
  md::MethodDefId method;
  std::string name;
  SkipReason reason = SkipReason::Unsupported;
  std::string detail;  ///< Malformed and Unsupported: the error, naming where and why

  /// What the summary shows: the detail when there is one, else the reason's text.
  std::string_view text() const { return detail.empty() ? skip_reason_text(reason) : std::string_view(detail); }
  bool malformed() const { return reason == SkipReason::Malformed; }
};

struct InstrumentReport {
  pe::OutputImage output;  ///< refers to the module's bytes: keep the module alive; what went
                           ///< to options.sink is a piece in place
  std::vector<md::MethodDefId> instrumented;  ///< in token order
  std::vector<SkippedMethod> skipped;
  uint32_t excluded = 0;  ///< methods the filters did not select
  std::vector<std::string> warnings;
  PdbOutcome pdb;  ///< the debug information the output got
};

/// Instruments `module`. Fails (and produces no output) on input the tool refuses: mixed-mode
/// images, images already instrumented, modules without a core library to reference.
Expected<InstrumentReport> instrument_module(const md::Module& module, const InstrumentOptions& options);

}  // namespace cil::instrument
