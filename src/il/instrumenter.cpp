// Method selection, per-method rewriting, and the image-level changes (ReadyToRun, strong name).
#include "il/instrumenter.h"

#include <algorithm>

#include <fmt/format.h>

#include "il/body_encoder.h"
#include "il/body_reader.h"
#include "il/constructor.h"
#include "il/max_stack.h"
#include "il/rewriter.h"
#include "metadata/module_editor.h"
#include "metadata/printer.h"
#include "metadata/runtime_refs.h"
#include "metadata/signature.h"

namespace cil::il {

namespace {

using md::TableId;

Error refuse(std::string message) { return make_error(ErrorKind::Unsupported, "", std::move(message)); }

Status check_supported(const md::Module& m) {
  const auto& cli = m.cli();
  bool ready_to_run = cli.ready_to_run() || cli.managed_native_header.present();
  if (!cli.il_only() && !ready_to_run)
    return refuse("mixed-mode image (native code and IL, the CLI header's ILONLY flag is clear): not supported");
  if (cli.native_entry_point()) return refuse("the image has a native entry point: not supported");
  const auto& t = m.tables();
  for (uint32_t rid = 1; rid <= t.rows(TableId::TypeDef); ++rid) {
    if (m.string_or_placeholder(t.get(TableId::TypeDef, rid, md::col::TypeDef::TypeName)) == kHelperTypeName &&
        m.string_or_placeholder(t.get(TableId::TypeDef, rid, md::col::TypeDef::TypeNamespace)).empty())
      return refuse(fmt::format("already instrumented by cil-instrument (it defines {}); instrument the original instead",
                                kHelperTypeName));
  }
  return ok();
}

/// Image changes every output needs: ReadyToRun code is dropped (the runtime must JIT the new
/// IL), and a strong-name signature cannot survive an edit.
void adjust_image(const md::Module& m, md::ModuleEditor& editor, std::vector<std::string>& warnings) {
  const auto& cli = m.cli();
  uint32_t flags = cli.flags;
  if (cli.ready_to_run() || cli.managed_native_header.present()) {
    flags = (flags | pe::kComImageIlOnly) & ~pe::kComImageIlLibrary;
    editor.clear_managed_native_header();
    auto machine = pe::decode_machine(m.image().headers().machine);
    if (machine.os) editor.set_machine(machine.machine);
    warnings.push_back("ReadyToRun code removed: the output is IL-only and will be JIT-compiled");
  }
  if (flags & pe::kComImageStrongNameSigned) {
    flags &= ~pe::kComImageStrongNameSigned;
    warnings.push_back("the input is strong-name signed; the output is not signed (re-sign it if it must be)");
  }
  if (flags != cli.flags) editor.set_cli_flags(flags);
  if (m.image().directory(pe::kSecurityDirectory).size)
    warnings.push_back("the Authenticode signature was removed (it cannot survive the edit)");
}

std::string skip_reason(const md::Module& m, uint32_t rid) {
  const auto& t = m.tables();
  uint32_t impl = t.get(TableId::MethodDef, rid, md::col::MethodDef::ImplFlags);
  uint32_t flags = t.get(TableId::MethodDef, rid, md::col::MethodDef::Flags);
  switch (impl & 0x3) {
    case 1: return "native code";
    case 2: return "OPTIL code";
    case 3: return "runtime-implemented (delegate or similar)";
    default: break;
  }
  if (t.get(TableId::MethodDef, rid, md::col::MethodDef::Rva) != 0) return "";
  if (flags & 0x0400) return "no body (abstract)";
  if (flags & 0x2000) return "no body (P/Invoke)";
  if (impl & 0x1000) return "no body (internal call)";
  return "no body (extern)";
}

struct MethodShape {
  bool returns_value = false;
  std::vector<uint8_t> return_type;  ///< encoded, for the result local
};

Expected<MethodShape> method_shape(const md::Module& m, uint32_t rid) {
  auto r = m.blobs().reader(m.tables().get(TableId::MethodDef, rid, md::col::MethodDef::Signature), "method signature");
  if (!r) return r.error();
  md::MethodSig sig = CIL_TRY(md::decode_method_sig(*r));
  MethodShape shape;
  shape.returns_value = sig.return_type.element != md::ElementType::Void;
  if (shape.returns_value) md::encode_type(shape.return_type, sig.return_type);
  return shape;
}

Status wrap_empty(const md::Module& m, md::ModuleEditor& editor, md::RuntimeRefs& refs, uint32_t rid, BodyModel& body,
                  const MethodShape& shape) {
  auto start = constructed_index(m, rid, body);
  if (!start) return refuse("no base constructor call found");
  LocalsBuilder locals = CIL_TRY(LocalsBuilder::open(editor, body.local_sig_token));
  WrapSpec spec;
  spec.try_start = *start;
  if (shape.returns_value) spec.result_local = locals.add(shape.return_type);
  spec.catch_type = CIL_TRY(refs.type("System", "Exception"));
  spec.catch_code.push_back(body.make(Op::Pop));
  spec.finally_clause = true;
  spec.finally_code.push_back(body.make(Op::Nop));
  spec.epilogue.push_back(body.make(Op::Nop));
  CIL_TRY(wrap_body(body, spec));
  body.local_sig_token = CIL_TRY(locals.commit(editor));
  if (body.local_sig_token && !body.original.fat) body.init_locals = true;
  return ok();
}

}  // namespace

Expected<InstrumentReport> instrument(const md::Module& m, const InstrumentOptions& options) {
  CIL_TRY(check_supported(m));
  InstrumentReport report;
  md::ModuleEditor editor(m);
  md::Printer printer(m);
  adjust_image(m, editor, report.warnings);

  std::optional<md::RuntimeRefs> refs;
  std::optional<CountMode> count;
  if (options.mode != Mode::Noop) refs.emplace(CIL_TRY(md::RuntimeRefs::create(editor)));
  if (options.mode == Mode::Count) count.emplace(CIL_TRY(CountMode::begin(editor, *refs)));
  CallEffects effects(editor);

  const auto& t = m.tables();
  for (uint32_t rid = 1; rid <= t.rows(TableId::MethodDef); ++rid) {
    std::string name = printer.method_name(rid);
    uint32_t rva = t.get(TableId::MethodDef, rid, md::col::MethodDef::Rva);
    bool selected = options.filter.selects(name) &&
                    (options.method_rvas.empty() ||
                     std::find(options.method_rvas.begin(), options.method_rvas.end(), rva) != options.method_rvas.end());
    if (!selected) {
      ++report.excluded;
      continue;
    }
    std::string reason = skip_reason(m, rid);
    if (!reason.empty()) {
      report.skipped.push_back({rid, name, reason});
      continue;
    }
    auto rewrite = [&]() -> Status {
      MethodBody body = CIL_TRY(read_body(m, rid));
      DecodedCode code = CIL_TRY(decode_code(body.code, body.code_file_offset));
      BodyModel model = CIL_TRY(BodyModel::from(body, code));
      MethodShape shape = CIL_TRY(method_shape(m, rid));
      switch (options.mode) {
        case Mode::Count: count->add_probe(model, static_cast<uint32_t>(report.instrumented.size())); break;
        case Mode::Noop: break;
        case Mode::Wrap: CIL_TRY(wrap_empty(m, editor, *refs, rid, model, shape)); break;
      }
      if (model.edited) {
        uint16_t computed = CIL_TRY(compute_max_stack(model, shape.returns_value, effects));
        model.max_stack = std::max(model.max_stack, computed);
      }
      editor.set_method_body(rid, CIL_TRY(encode_body(model)));
      return ok();
    };
    Status status = rewrite();
    if (!status) {
      report.skipped.push_back({rid, name, status.error().to_string()});
      continue;
    }
    report.instrumented.push_back({rid, std::move(name)});
  }

  if (count) {
    std::string assembly = t.rows(TableId::Assembly) ? std::string(m.string_or_placeholder(t.get(TableId::Assembly, 1, md::col::Assembly::Name)))
                                                      : std::string(m.string_or_placeholder(t.get(TableId::Module, 1, md::col::Module::Name)));
    auto mvid = m.metadata().guids().get(t.rows(TableId::Module) ? t.get(TableId::Module, 1, md::col::Module::Mvid) : 0);
    CIL_TRY(count->finish(report.instrumented, assembly, md::format_guid(mvid ? *mvid : md::Guid{}), effects));
  }
  report.output = CIL_TRY(editor.write());
  return report;
}

}  // namespace cil::il
