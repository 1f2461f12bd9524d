// Method selection, per-method rewriting, and the image-level changes (ReadyToRun, strong name).
#include "instrument/instrumenter.h"

#include <algorithm>

#include <fmt/format.h>

#include "il/body_reader.h"
#include "il/rewrite.h"
#include "instrument/count_mode.h"
#include "instrument/output_check.h"
#include "metadata/module_editor.h"
#include "metadata/printer.h"
#include "metadata/reference_check.h"
#include "metadata/runtime_refs.h"
#include "pe/section_layout.h"

namespace cil::instrument {

namespace {

using md::TableId;

Error refuse(std::string message) { return make_error(ErrorKind::Unsupported, "", std::move(message)); }

Status check_supported(const md::Module& m) {
  const auto& cli = m.cli();
  bool ready_to_run = cli.ready_to_run() || cli.managed_native_header.present();
  if (!cli.il_only() && !ready_to_run)
    return refuse("mixed-mode image (native code and IL, the CLI header's ILONLY flag is clear): not supported");
  if (cli.native_entry_point()) return refuse("the image has a native entry point: not supported");
  for (uint32_t rid = 1; rid <= m.tables().rows(TableId::TypeDef); ++rid) {
    auto type = m.row<TableId::TypeDef>(rid);
    if (type.type_name() == kHelperTypeName && type.type_namespace().empty())
      return refuse(fmt::format("already instrumented by cil-instrument (it defines {}); instrument the original instead",
                                kHelperTypeName));
  }
  return ok();
}

/// A new MVID for the output, derived from the input's and the mode so that outputs stay
/// reproducible. Runtimes key caches by MVID (Mono's AOT images): a changed module must not be
/// paired with native code compiled for the original.
Status renew_mvid(const md::Module& m, md::ModuleEditor& editor, Mode mode) {
  if (!m.tables().rows(TableId::Module)) return ok();
  auto old = m.row<TableId::Module>(1).mvid();
  md::Guid seed = old ? *old : md::Guid{};
  // Two FNV-1a hashes over the old MVID, the tool's name and the mode.
  auto fnv = [&](uint64_t h) {
    auto mix = [&](uint8_t b) { h = (h ^ b) * 0x100000001b3ULL; };
    for (uint8_t b : seed) mix(b);
    for (char ch : std::string_view("cil-instrument")) mix(static_cast<uint8_t>(ch));
    mix(static_cast<uint8_t>(mode));
    return h;
  };
  uint64_t a = fnv(0xcbf29ce484222325ULL), b = fnv(0x84222325cbf29ce4ULL);
  md::Guid mvid;
  for (int i = 0; i < 8; ++i) {
    mvid[i] = static_cast<uint8_t>(a >> (8 * i));
    mvid[8 + i] = static_cast<uint8_t>(b >> (8 * i));
  }
  // Version 4 layout and the RFC 4122 variant (RFC 4122 4.1.1, 4.1.3; byte 7 is the high byte
  // of the third field as .NET stores it).
  constexpr uint8_t kVersionMask = 0xF0, kVersion4 = 0x40, kVariantMask = 0xC0, kVariantRfc4122 = 0x80;
  mvid[7] = static_cast<uint8_t>((mvid[7] & ~kVersionMask) | kVersion4);
  mvid[8] = static_cast<uint8_t>((mvid[8] & ~kVariantMask) | kVariantRfc4122);
  return editor.set_mvid(mvid);
}

/// Image changes every output needs: ReadyToRun code is dropped (the runtime must JIT the new
/// IL), and a strong-name signature cannot survive an edit.
void adjust_image(const md::Module& m, md::ModuleEditor& editor, bool strong_name, std::vector<std::string>& warnings) {
  const auto& cli = m.cli();
  uint32_t flags = cli.flags;
  if (cli.ready_to_run() || cli.managed_native_header.present()) {
    flags = (flags | pe::kComImageIlOnly) & ~pe::kComImageIlLibrary;
    editor.clear_managed_native_header();
    // An IL-only image may only have the directories the runtime allows (PEDecoder::CheckILOnly
    // in dotnet/runtime): the native code's exception table and relocations must go.
    for (auto index : {pe::kExportDirectory, pe::kExceptionDirectory, pe::kBaseRelocDirectory, pe::kArchitectureDirectory,
                       pe::kGlobalPtrDirectory, pe::kTlsDirectory, pe::kLoadConfigDirectory, pe::kBoundImportDirectory,
                       pe::kDelayImportDirectory})
      if (m.image().directory(index).rva || m.image().directory(index).size) editor.clear_directory(index);
    auto machine = pe::decode_machine(m.image().headers().machine);
    if (machine.os) editor.set_machine(machine.machine);
    warnings.push_back("ReadyToRun code removed: the output is IL-only and will be JIT-compiled");
  }
  if (strong_name) {
    flags |= pe::kComImageStrongNameSigned;
  } else if (flags & pe::kComImageStrongNameSigned) {
    flags &= ~pe::kComImageStrongNameSigned;
    warnings.push_back("the input is strong-name signed; the output is not signed (--key re-signs it)");
  }
  if (flags != cli.flags) editor.set_cli_flags(flags);
  if (m.image().directory(pe::kSecurityDirectory).size)
    warnings.push_back("the Authenticode signature was removed (it cannot survive the edit)");
}

std::optional<SkipReason> skip_reason(const md::Module& m, md::MethodDefId id) {
  using md::MethodAttributes;
  using md::MethodImplAttributes;
  auto method = m.row(id);
  MethodImplAttributes impl = method.impl_flags();
  MethodAttributes flags = method.flags();
  switch (impl & MethodImplAttributes::CodeTypeMask) {
    case MethodImplAttributes::Native: return SkipReason::NativeCode;
    case MethodImplAttributes::OPTIL: return SkipReason::OptilCode;
    case MethodImplAttributes::Runtime: return SkipReason::RuntimeImplemented;
    default: break;
  }
  if (method.rva() != 0) return std::nullopt;
  if (md::has(flags, MethodAttributes::Abstract)) return SkipReason::Abstract;
  if (md::has(flags, MethodAttributes::PInvokeImpl)) return SkipReason::PInvoke;
  if (md::has(impl, MethodImplAttributes::InternalCall)) return SkipReason::InternalCall;
  return SkipReason::Extern;
}

}  // namespace

bool probe_runtime_method(std::string_view name) {
  return name.starts_with("System.Runtime.CompilerServices.") || name.starts_with("System.Threading.Interlocked::");
}

std::string_view skip_reason_text(SkipReason reason) {
  switch (reason) {
    case SkipReason::NativeCode: return "native code";
    case SkipReason::OptilCode: return "OPTIL code";
    case SkipReason::RuntimeImplemented: return "runtime-implemented (delegate or similar)";
    case SkipReason::Abstract: return "no body (abstract)";
    case SkipReason::PInvoke: return "no body (P/Invoke)";
    case SkipReason::InternalCall: return "no body (internal call)";
    case SkipReason::Extern: return "no body (extern)";
    case SkipReason::Malformed: return "malformed body";
    case SkipReason::Unsupported: return "could not be rewritten";
    case SkipReason::ProbeRuntime: return "runtime helper the probe itself runs (CoreLib)";
  }
  return "unknown";
}

Expected<InstrumentReport> instrument_module(const md::Module& m, const InstrumentOptions& options) {
  // What the self-check will hold the output to, held first to the input: the sections and the
  // tables are copied, so a fault in them is the input's (bad input), not the tool's.
  CIL_TRY(pe::check_section_layout(m.image()));
  CIL_TRY(md::check_references(m.metadata(), md::ReferenceScope::All));
  CIL_TRY(check_supported(m));
  InstrumentReport report;
  md::ModuleEditor editor(m);
  editor.set_section_sink(options.sink, options.sink_chunk);
  md::Printer printer(m);
  adjust_image(m, editor, options.strong_name, report.warnings);
  CIL_TRY(renew_mvid(m, editor, options.mode));
  DebugInfoJob debug = DebugInfoJob::open(m, options.pdb, report.warnings);

  ModeContext context{m, editor, printer, debug.pdb(), options.hooks, &options.coverage};
  std::unique_ptr<InstrumentMode> mode = CIL_TRY(options.open ? options.open(context) : open_mode(options.mode, context));
  const md::RuntimeRefs* refs = mode->refs();
  CallEffects effects(editor);
  CIL_TRY(mode->measure(effects));

  const auto& t = m.tables();
  // Room for the new bodies, so the section is never copied as it grows: more than the input can
  // hold. Only address space: pages that are never written are never resident.
  editor.reserve_bodies(m.bytes().size() + size_t{t.rows(TableId::MethodDef)} * 96 + 4096);

  MethodBody body;  // buffers reused from body to body
  DecodedCode decoded;
  EncodedBody rewritten;
  std::string name;  // reused from method to method
  for (md::MethodDefId method : m.ids<TableId::MethodDef>()) {
    printer.method_name_into(name, method);
    uint32_t rva = m.row(method).rva();
    bool selected = options.filter.selects(name) &&
                    (options.method_rvas.empty() ||
                     std::find(options.method_rvas.begin(), options.method_rvas.end(), rva) != options.method_rvas.end());
    if (!selected) {
      ++report.excluded;
      continue;
    }
    if (std::optional<SkipReason> reason = skip_reason(m, method)) {
      report.skipped.push_back({method, name, *reason, {}});
      continue;
    }
    if (refs && refs->self() && refs->kind() == md::CoreLibraryKind::PrivateCoreLib && probe_runtime_method(name)) {
      report.skipped.push_back({method, name, SkipReason::ProbeRuntime, {}});
      continue;
    }
    if (mode->excludes(method)) {
      ++report.excluded;
      continue;
    }
    auto rewrite = [&]() -> Status {
      CIL_TRY(read_body_into(m, method, body));
      CIL_TRY(decode_code_into(body.code, body.code_file_offset, decoded));
      // What the self-check will resolve in the rewritten body, resolved in the input's: a token
      // naming no row is the input's fault (the body is kept as it is, with a warning).
      CIL_TRY(check_body_tokens(m, method, body, decoded));
      BodyEdit edit;
      CIL_TRY(mode->edit(method, name, effects, edit));
      CIL_TRY(rewrite_body_into(body, decoded, edit, rewritten));
      CIL_TRY(editor.set_method_body(method, rewritten.bytes));
      editor.drop_input_range(rva, body.total_size);
      debug.method_rewritten(method, rewritten.map, rewritten.local_sig_token);
      if (options.on_rewritten) options.on_rewritten(method, rewritten.map);
      return ok();
    };
    Status status = rewrite();
    if (!status) {
      ErrorKind kind = status.error().kind;
      bool malformed = kind == ErrorKind::Format || kind == ErrorKind::Limit;
      report.skipped.push_back({method, name, malformed ? SkipReason::Malformed : SkipReason::Unsupported, status.error().to_string()});
      continue;
    }
    CIL_TRY(mode->commit(method, name));
    report.instrumented.push_back(method);
  }

  CIL_TRY(mode->finish(effects));
  report.pdb = debug.finish(editor, report.warnings);
  report.output = CIL_TRY(editor.write());
  return report;
}

}  // namespace cil::instrument
