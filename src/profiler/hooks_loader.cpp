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

/// calli's signature: unmanaged cdecl void(int32).
constexpr uint8_t kReportSignature[] = {0x01, 0x01, 0x01, 0x08};

}  // namespace

bool is_startup_method(std::string_view name) {
  return name == "System.StartupHookProvider::ManagedStartup" || name == "System.StartupHookProvider::ProcessStartupHooks";
}

Expected<il::EncodedBody> loader_body(EmitSink& core, std::span<const uint8_t> bytes, const std::string& hooks_path,
                                      const std::string& hook_type, LoaderReport report) {
  md::TypeSig string = md::primitive(ElementType::String);
  md::Token assembly = CIL_TRY(core.find_type_def("System.Reflection", "Assembly"));
  md::Token exception = CIL_TRY(core.find_type_def("System", "Exception"));
  if (!assembly || !exception) return make_error(ErrorKind::Unsupported, "core library", "System.Reflection.Assembly or System.Exception not found");
  md::Token load_from = CIL_TRY(core.find_member_def(assembly, "LoadFrom", md::method_signature(false, md::class_type(assembly), {string})));
  // Assembly.GetType(string, bool), which returns System.Type.
  md::Token type = CIL_TRY(core.find_type_def("System", "Type"));
  md::Token get_type = CIL_TRY(core.find_member_def(assembly, "GetType",
                                          md::method_signature(true, md::class_type(type), {string, md::primitive(ElementType::Boolean)})));
  md::Token get_hresult = CIL_TRY(core.find_member_def(exception, "get_HResult", md::method_signature(true, md::primitive(ElementType::I4), {})));
  if (!load_from || !get_type || !get_hresult)
    return make_error(ErrorKind::Unsupported, "core library", "Assembly.LoadFrom, Assembly.GetType or Exception.HResult not found");
  md::Token path = CIL_TRY(core.user_string(md::utf8_to_utf16(hooks_path)));
  md::Token type_name = CIL_TRY(core.user_string(md::utf8_to_utf16(hook_type)));
  md::Token report_sig = CIL_TRY(core.standalone_sig(kReportSignature));
  auto report_address = static_cast<int64_t>(reinterpret_cast<uintptr_t>(report));

  il::MethodBody body = CIL_TRY(il::parse_method_body(ByteReader(bytes, 0, "method body")));
  il::DecodedCode code = CIL_TRY(il::decode_code(body.code, body.code_file_offset));
  il::BodyEdit edit;
  edit.edit = [&](il::BodyModel& model) -> Status {
    il::CodeBuilder c(model);
    il::Label done = c.new_label();
    il::Region guard = c.begin_try();
    c.ldstr(path);
    c.call(load_from);
    c.ldstr(type_name);
    c.ldc(1);
    c.callvirt(get_type);
    c.pop();
    c.ldc(0);
    c.emit(il::Op::Ldc_I8, report_address);
    c.emit(il::Op::Conv_I);
    c.emit(il::Op::Calli, report_sig);
    c.leave(done);
    c.begin_catch(guard, exception);
    c.callvirt(get_hresult);
    c.ldc(static_cast<int32_t>(0x80000000u));
    c.emit(il::Op::Or);
    c.emit(il::Op::Ldc_I8, report_address);
    c.emit(il::Op::Conv_I);
    c.emit(il::Op::Calli, report_sig);
    c.leave(done);
    c.end_region(guard);
    c.mark(done);
    c.emit(il::Op::Nop);
    il::Code loader = CIL_TRY(c.finish());
    il::insert_code(model, 0, std::move(loader.instrs));
    // The loader's region is outside every original one: its clause may go anywhere.
    model.clauses.insert(model.clauses.end(), loader.clauses.begin(), loader.clauses.end());
    model.max_stack = std::max<uint16_t>(model.max_stack, 3);
    model.edited = true;
    return ok();
  };
  return il::rewrite_body(body, code, edit);
}

}  // namespace cil::profiler
