// The loader's IL, built from the core library's own definitions.
#include "profiler/hooks_loader.h"

#include <algorithm>

#include "il/code_builder.h"
#include "il/instruction.h"
#include "il/method_body.h"
#include "il/rewriter.h"
#include "metadata/signature.h"
#include "metadata/text_encoding.h"

namespace cil::profiler {

namespace {

using md::ElementType;

/// calli's signature: unmanaged cdecl void(int32 status, int32 session).
constexpr uint8_t kReportSignature[] = {0x01, 0x02, 0x01, 0x08, 0x08};

}  // namespace

bool is_startup_method(std::string_view name) {
  return name == "System.StartupHookProvider::ManagedStartup" || name == "System.StartupHookProvider::ProcessStartupHooks";
}

Expected<LoaderTokens> core_loader_tokens(EmitSink& core, const std::string& hooks_path, const std::string& hook_type) {
  md::TypeSig string = md::primitive(ElementType::String);
  LoaderTokens t;
  md::Token assembly = CIL_TRY(core.find_type_def("System.Reflection", "Assembly"));
  t.exception = CIL_TRY(core.find_type_def("System", "Exception"));
  if (!assembly || !t.exception) return make_error(ErrorKind::Unsupported, "core library", "System.Reflection.Assembly or System.Exception not found");
  t.load_from = CIL_TRY(core.find_member_def(assembly, "LoadFrom", md::method_signature(false, md::class_type(assembly), {string})));
  // Assembly.GetType(string, bool), which returns System.Type.
  md::Token type = CIL_TRY(core.find_type_def("System", "Type"));
  t.get_type = CIL_TRY(core.find_member_def(assembly, "GetType",
                                          md::method_signature(true, md::class_type(type), {string, md::primitive(ElementType::Boolean)})));
  t.get_hresult = CIL_TRY(core.find_member_def(t.exception, "get_HResult", md::method_signature(true, md::primitive(ElementType::I4), {})));
  if (!t.load_from || !t.get_type || !t.get_hresult)
    return make_error(ErrorKind::Unsupported, "core library", "Assembly.LoadFrom, Assembly.GetType or Exception.HResult not found");
  t.path = CIL_TRY(core.user_string(md::utf8_to_utf16(hooks_path)));
  t.type_name = CIL_TRY(core.user_string(md::utf8_to_utf16(hook_type)));
  t.report_signature = CIL_TRY(core.standalone_sig(kReportSignature));
  return t;
}

Expected<LoaderTokens> module_loader_tokens(md::MetadataSink& sink, md::RuntimeRefs& refs, const std::string& hooks_path,
                                            const std::string& hook_type) {
  md::TypeSig string = md::primitive(ElementType::String);
  LoaderTokens t;
  md::Token assembly = CIL_TRY(refs.type("System.Reflection", "Assembly"));
  md::Token type = CIL_TRY(refs.type("System", "Type"));
  t.exception = CIL_TRY(refs.type("System", "Exception"));
  t.load_from = CIL_TRY(refs.member(assembly, "LoadFrom", md::method_signature(false, md::class_type(assembly), {string})));
  t.get_type = CIL_TRY(refs.member(assembly, "GetType",
                                   md::method_signature(true, md::class_type(type), {string, md::primitive(ElementType::Boolean)})));
  t.get_hresult = CIL_TRY(refs.member(t.exception, "get_HResult", md::method_signature(true, md::primitive(ElementType::I4), {})));
  t.path = CIL_TRY(sink.user_string(md::utf8_to_utf16(hooks_path)));
  t.type_name = CIL_TRY(sink.user_string(md::utf8_to_utf16(hook_type)));
  t.report_signature = CIL_TRY(sink.standalone_sig(kReportSignature));
  return t;
}

Expected<il::EncodedBody> loader_body(const LoaderTokens& t, std::span<const uint8_t> bytes, LoaderReport report) {
  auto report_address = static_cast<int64_t>(reinterpret_cast<uintptr_t>(report));

  il::MethodBody body = CIL_TRY(il::parse_method_body(ByteReader(bytes, 0, "method body")));
  il::DecodedCode code = CIL_TRY(il::decode_code(body.code, body.code_file_offset));
  il::BodyEdit edit;
  edit.edit = [&](il::BodyModel& model) -> Status {
    il::CodeBuilder c(model);
    il::Label done = c.new_label();
    il::Region guard = c.begin_try();
    c.ldstr(t.path);
    c.call(t.load_from);
    c.ldstr(t.type_name);
    c.ldc(1);
    c.callvirt(t.get_type);
    c.pop();
    c.ldc(0);
    c.ldc(t.session);
    c.emit(il::Op::Ldc_I8, report_address);
    c.emit(il::Op::Conv_I);
    c.emit(il::Op::Calli, t.report_signature);
    c.leave(done);
    c.begin_catch(guard, t.exception);
    c.callvirt(t.get_hresult);
    c.ldc(static_cast<int32_t>(0x80000000u));
    c.emit(il::Op::Or);
    c.ldc(t.session);
    c.emit(il::Op::Ldc_I8, report_address);
    c.emit(il::Op::Conv_I);
    c.emit(il::Op::Calli, t.report_signature);
    c.leave(done);
    c.end_region(guard);
    c.mark(done);
    c.emit(il::Op::Nop);
    il::Code loader = CIL_TRY(c.finish());
    il::insert_code(model, 0, std::move(loader.instrs));
    // The loader's region is outside every original one: its clause may go anywhere.
    model.clauses.insert(model.clauses.end(), loader.clauses.begin(), loader.clauses.end());
    model.max_stack = std::max<uint16_t>(model.max_stack, 3);  // status, session, address
    model.edited = true;
    return ok();
  };
  return il::rewrite_body(body, code, edit);
}

}  // namespace cil::profiler
