// The seam between the instrument job and its modes: what the job asks of a mode, method by
// method, and the one place that opens a mode by its name. A new mode is a class here and a case
// in open_mode (instrument_mode.cpp); instrument_module does not change.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "il/max_stack.h"
#include "il/rewrite.h"
#include "instrument/coverage_mode.h"
#include "instrument/engine_names.h"
#include "instrument/hook_contract.h"
#include "metadata/module.h"
#include "metadata/module_editor.h"
#include "metadata/portable_pdb.h"
#include "metadata/printer.h"
#include "metadata/runtime_refs.h"

namespace cil::instrument {

enum class Mode {
  Count,  ///< count calls per method; write <Assembly>.<pid>.counts.json at exit
  Noop,   ///< decode and re-encode every selected body unchanged (a round trip through the engine)
  Wrap,   ///< wrap every selected body in empty try/catch/finally with one exit block
  Trace,  ///< call the user's hooks (OnEnter / OnLeave / OnException) from every selected method
  Coverage,  ///< count hits per sequence point and branch outcome; write <Assembly>.<pid>.hits.json at exit
};

/// What a mode is opened on: the module, its editor, and what the job has found out before any
/// method is rewritten. Everything outlives the mode.
struct ModeContext {
  const md::Module& module;
  md::ModuleEditor& editor;
  md::Printer& printer;  ///< names methods (coverage reports a state machine under its kickoff method)
  /// The input's matching PDB, or null (coverage places its line probes by it).
  const md::PortablePdb* pdb = nullptr;
  /// Trace mode: the hooks to call (null otherwise).
  const HookContract* hooks = nullptr;
  /// Coverage mode: what it leaves out.
  const CoverageOptions* coverage = nullptr;
};

/// One mode instrumenting one module. instrument_module calls, in order: measure() once, then for
/// each selected method with a body excludes(), edit(), and commit() once the new body is kept,
/// and finish() after the last method.
class InstrumentMode {
 public:
  virtual ~InstrumentMode() = default;

  /// The core library references the mode's code uses, or null when it adds none (noop): the job
  /// then knows whether the module is the core library that the probes themselves run.
  virtual const md::RuntimeRefs* refs() const = 0;
  /// Simulates what the mode inserts once, for the stack depth it adds to every body.
  virtual Status measure(CallEffects& effects) = 0;
  /// True when the mode itself leaves `method` out (coverage's exclusions); the job counts it as
  /// excluded, as it does methods the filters did not select.
  virtual bool excludes(md::MethodDefId method) = 0;
  /// Says in `edit` what becomes of the body of `method`, named `name` (Ns.Type::Method): a
  /// prologue, an edit of the model, or neither (a round trip). What `edit` refers to stays valid
  /// until the next call; nothing is counted until commit().
  virtual Status edit(md::MethodDefId method, const std::string& name, CallEffects& effects, BodyEdit& edit) = 0;
  /// The body edit() planned for `method` was written into the module.
  virtual Status commit(md::MethodDefId method, std::string_view name) = 0;
  /// After the last method: the helper's own bodies (its class constructor, the writer of its file).
  virtual Status finish(CallEffects& effects) = 0;
};

/// Opens a mode on `context` (its helper type and references go into the module now).
using ModeOpener = std::function<Expected<std::unique_ptr<InstrumentMode>>(const ModeContext& context)>;

/// Opens `mode`: the one place that knows every mode the library has. Trace mode without hooks is a
/// usage error.
Expected<std::unique_ptr<InstrumentMode>> open_mode(Mode mode, const ModeContext& context);

}  // namespace cil::instrument
