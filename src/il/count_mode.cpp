// Count mode: the helper type, the probe, and the IL of the exit-time writer.
#include "il/count_mode.h"

#include <fmt/format.h>

#include "il/code_builder.h"
#include "il/helper_attributes.h"
#include "il/probes.h"
#include "il/rewrite.h"
#include "il/runtime_contract.h"
#include "metadata/signature.h"
#include "metadata/text_encoding.h"

namespace cil::il {

namespace {

using md::ElementType;
using md::TableId;
using md::Token;
using md::TypeSig;

/// Mono refuses value types over 1 MiB, so the method table is split into chunks below that
/// (a single longer line, which no real name makes, gets a chunk of its own).
constexpr size_t kChunkSize = 512 * 1024;
constexpr uint32_t kChunkAlignment = 8;

std::vector<uint8_t> method_sig(bool has_this, const TypeSig& ret, const std::vector<TypeSig>& params) {
  return md::method_signature(has_this, ret, params);
}

TypeSig prim(ElementType e) { return md::primitive(e); }

/// The type and member references the helper's code needs.
struct Refs {
  Token object, int64, character, exception, event_args, unhandled_args, event_handler, unhandled_handler,
      app_domain, type, runtime_type_handle, assembly, string_builder, text_writer;
  Token get_current_domain, add_process_exit, add_unhandled, event_handler_ctor, unhandled_handler_ctor;
  Token get_env, is_null_or_empty, dir_exists, get_type_from_handle, get_assembly, get_location,
      get_directory_name, path_combine, sb_ctor, sb_append_string, sb_append_int64, object_to_string, string_split,
      concat2, concat3, write_all_text, get_error, write_line, get_message, pid_source, pid_get, int32_to_string,
      byte_type, get_utf8, get_string, initialize_array, sb_append_range, string_length;
  bool pid_is_process = false;
};

Expected<Refs> resolve(md::RuntimeRefs& r) {
  Refs x{};
  x.object = CIL_TRY(r.type("System", "Object"));
  x.int64 = CIL_TRY(r.type("System", "Int64"));
  x.character = CIL_TRY(r.type("System", "Char"));
  x.exception = CIL_TRY(r.type("System", "Exception"));
  x.event_args = CIL_TRY(r.type("System", "EventArgs"));
  x.unhandled_args = CIL_TRY(r.type("System", "UnhandledExceptionEventArgs"));
  x.event_handler = CIL_TRY(r.type("System", "EventHandler"));
  x.unhandled_handler = CIL_TRY(r.type("System", "UnhandledExceptionEventHandler"));
  x.app_domain = CIL_TRY(r.type("System", "AppDomain"));
  x.type = CIL_TRY(r.type("System", "Type"));
  x.runtime_type_handle = CIL_TRY(r.type("System", "RuntimeTypeHandle"));
  x.assembly = CIL_TRY(r.type("System.Reflection", "Assembly"));
  x.string_builder = CIL_TRY(r.type("System.Text", "StringBuilder"));
  x.text_writer = CIL_TRY(r.type("System.IO", "TextWriter"));
  Token string_type = CIL_TRY(r.type("System", "String"));
  Token environment = CIL_TRY(r.type("System", "Environment"));
  Token directory = CIL_TRY(r.type("System.IO", "Directory"));
  Token path = CIL_TRY(r.type("System.IO", "Path"));
  Token file = CIL_TRY(r.type("System.IO", "File"));
  Token console = r.kind() == md::CoreLibraryKind::Mscorlib ? CIL_TRY(r.type("System", "Console"))
                                                            : CIL_TRY(r.type_in(r.console_assembly(), "System", "Console"));
  Token int32 = CIL_TRY(r.type("System", "Int32"));

  TypeSig str = prim(ElementType::String), obj = prim(ElementType::Object), vd = prim(ElementType::Void);
  TypeSig boolean = prim(ElementType::Boolean), native_int = prim(ElementType::I);
  x.get_current_domain = CIL_TRY(r.member(x.app_domain, "get_CurrentDomain", method_sig(false, md::class_type(x.app_domain), {})));
  x.add_process_exit = CIL_TRY(r.member(x.app_domain, "add_ProcessExit", method_sig(true, vd, {md::class_type(x.event_handler)})));
  x.add_unhandled = CIL_TRY(r.member(x.app_domain, "add_UnhandledException", method_sig(true, vd, {md::class_type(x.unhandled_handler)})));
  x.event_handler_ctor = CIL_TRY(r.member(x.event_handler, ".ctor", method_sig(true, vd, {obj, native_int})));
  x.unhandled_handler_ctor = CIL_TRY(r.member(x.unhandled_handler, ".ctor", method_sig(true, vd, {obj, native_int})));
  x.get_env = CIL_TRY(r.member(environment, "GetEnvironmentVariable", method_sig(false, str, {str})));
  x.is_null_or_empty = CIL_TRY(r.member(string_type, "IsNullOrEmpty", method_sig(false, boolean, {str})));
  x.dir_exists = CIL_TRY(r.member(directory, "Exists", method_sig(false, boolean, {str})));
  x.get_type_from_handle = CIL_TRY(r.member(x.type, "GetTypeFromHandle", method_sig(false, md::class_type(x.type), {md::value_type(x.runtime_type_handle)})));
  x.get_assembly = CIL_TRY(r.member(x.type, "get_Assembly", method_sig(true, md::class_type(x.assembly), {})));
  x.get_location = CIL_TRY(r.member(x.assembly, "get_Location", method_sig(true, str, {})));
  x.get_directory_name = CIL_TRY(r.member(path, "GetDirectoryName", method_sig(false, str, {str})));
  x.path_combine = CIL_TRY(r.member(path, "Combine", method_sig(false, str, {str, str})));
  x.sb_ctor = CIL_TRY(r.member(x.string_builder, ".ctor", method_sig(true, vd, {})));
  x.sb_append_string = CIL_TRY(r.member(x.string_builder, "Append", method_sig(true, md::class_type(x.string_builder), {str})));
  x.sb_append_int64 = CIL_TRY(r.member(x.string_builder, "Append", method_sig(true, md::class_type(x.string_builder), {prim(ElementType::I8)})));
  x.object_to_string = CIL_TRY(r.member(x.object, "ToString", method_sig(true, str, {})));
  x.string_split = CIL_TRY(r.member(string_type, "Split", method_sig(true, md::wrap(ElementType::SzArray, str), {md::wrap(ElementType::SzArray, prim(ElementType::Char))})));
  x.concat2 = CIL_TRY(r.member(string_type, "Concat", method_sig(false, str, {str, str})));
  x.concat3 = CIL_TRY(r.member(string_type, "Concat", method_sig(false, str, {str, str, str})));
  x.write_all_text = CIL_TRY(r.member(file, "WriteAllText", method_sig(false, vd, {str, str})));
  x.get_error = CIL_TRY(r.member(console, "get_Error", method_sig(false, md::class_type(x.text_writer), {})));
  x.write_line = CIL_TRY(r.member(x.text_writer, "WriteLine", method_sig(true, vd, {str})));
  x.get_message = CIL_TRY(r.member(x.exception, "get_Message", method_sig(true, str, {})));
  x.int32_to_string = CIL_TRY(r.member(int32, "ToString", method_sig(true, str, {})));
  x.byte_type = CIL_TRY(r.type("System", "Byte"));
  Token encoding = CIL_TRY(r.type("System.Text", "Encoding"));
  Token array = CIL_TRY(r.type("System", "Array"));
  Token field_handle = CIL_TRY(r.type("System", "RuntimeFieldHandle"));
  Token runtime_helpers = CIL_TRY(r.type("System.Runtime.CompilerServices", "RuntimeHelpers"));
  x.get_utf8 = CIL_TRY(r.member(encoding, "get_UTF8", method_sig(false, md::class_type(encoding), {})));
  x.get_string = CIL_TRY(r.member(encoding, "GetString", method_sig(true, str, {md::wrap(ElementType::SzArray, prim(ElementType::U1))})));
  x.initialize_array = CIL_TRY(r.member(runtime_helpers, "InitializeArray", method_sig(false, vd, {md::class_type(array), md::value_type(field_handle)})));
  x.sb_append_range = CIL_TRY(r.member(x.string_builder, "Append", method_sig(true, md::class_type(x.string_builder), {str, prim(ElementType::I4), prim(ElementType::I4)})));
  x.string_length = CIL_TRY(r.member(string_type, "get_Length", method_sig(true, prim(ElementType::I4), {})));
  if (r.kind() == md::CoreLibraryKind::PrivateCoreLib) {
    // Environment.ProcessId: .NET 5 and later.
    x.pid_get = CIL_TRY(r.member(environment, "get_ProcessId", method_sig(false, prim(ElementType::I4), {})));
  } else {
    // .NET Framework and netstandard: Process.GetCurrentProcess().Id.
    Token process = CIL_TRY(r.type_in(r.process_assembly(), "System.Diagnostics", "Process"));
    x.pid_source = CIL_TRY(r.member(process, "GetCurrentProcess", method_sig(false, md::class_type(process), {})));
    x.pid_get = CIL_TRY(r.member(process, "get_Id", method_sig(true, prim(ElementType::I4), {})));
    x.pid_is_process = true;
  }
  return x;
}

/// Writes a helper body (no EH unless given), with its max stack computed.
Status set_body(md::ModuleEditor& editor, Token method, BodyModel& body, CallEffects& effects, bool returns_value) {
  body.max_stack = CIL_TRY(compute_max_stack(body, returns_value, effects));
  EncodedBody encoded = CIL_TRY(rewrite_body(std::move(body), {}));
  return editor.set_method_body(md::token_rid(method), encoded.bytes);
}

/// AppendChunk(StringBuilder builder, byte[] chunk, int slot) -> int: appends one JSON object per
/// line of the chunk ("06000001" then the name as a JSON string) with the count of its slot, and
/// returns the next slot.
Status write_append_chunk(md::ModuleEditor& editor, const Refs& x, Token method, Token counts_field, CallEffects& effects) {
  enum : uint32_t { kLines, kIndex, kLine };
  enum : uint32_t { kBuilder, kChunk, kSlot };
  constexpr auto kDigits = static_cast<int32_t>(contract::kTokenDigits);  // each line starts with the token's digits
  std::vector<uint8_t> locals{md::kSigLocals, 3};
  md::encode_type(locals, md::wrap(ElementType::SzArray, prim(ElementType::String)));
  md::encode_type(locals, prim(ElementType::I4));
  md::encode_type(locals, prim(ElementType::String));
  auto utf16 = [](std::string_view s) { return md::utf8_to_utf16(s); };
  Token open_token = CIL_TRY(editor.user_string(utf16(contract::counts_method_open())));
  Token open_name = CIL_TRY(editor.user_string(utf16(contract::counts_method_name())));
  Token open_count = CIL_TRY(editor.user_string(utf16(contract::counts_method_count())));
  Token comma = CIL_TRY(editor.user_string(utf16(contract::kCountsSeparator)));
  Token close_brace = CIL_TRY(editor.user_string(utf16(contract::kCountsMethodClose)));

  BodyModel body;
  body.local_sig_token = CIL_TRY(editor.standalone_sig(locals));
  body.init_locals = true;
  CodeBuilder c(body);
  uint32_t loop = c.new_label(), condition = c.new_label(), no_comma = c.new_label();
  auto append_string = [&](Token s) {
    c.ldarg(kBuilder);
    c.emit(Op::Ldstr, s);
    c.emit(Op::Callvirt, x.sb_append_string);
    c.emit(Op::Pop);
  };
  // lines = Encoding.UTF8.GetString(chunk).Split('\n')
  c.emit(Op::Call, x.get_utf8);
  c.ldarg(kChunk);
  c.emit(Op::Callvirt, x.get_string);
  c.ldc_i4(1);
  c.emit(Op::Newarr, x.character);
  c.emit(Op::Dup);
  c.ldc_i4(0);
  c.ldc_i4('\n');
  c.emit(Op::Stelem_I2);
  c.emit(Op::Callvirt, x.string_split);
  c.stloc(kLines);
  c.ldc_i4(0);
  c.stloc(kIndex);
  c.branch(Op::Br_S, condition);
  c.mark(loop);
  c.ldarg(kSlot);
  c.branch(Op::Brfalse_S, no_comma);
  append_string(comma);
  c.mark(no_comma);
  c.ldloc(kLines);
  c.ldloc(kIndex);
  c.emit(Op::Ldelem_Ref);
  c.stloc(kLine);
  append_string(open_token);
  c.ldarg(kBuilder);
  c.ldloc(kLine);
  c.ldc_i4(0);
  c.ldc_i4(kDigits);
  c.emit(Op::Callvirt, x.sb_append_range);
  c.emit(Op::Pop);
  append_string(open_name);
  c.ldarg(kBuilder);
  c.ldloc(kLine);
  c.ldc_i4(kDigits);
  c.ldloc(kLine);
  c.emit(Op::Callvirt, x.string_length);
  c.ldc_i4(kDigits);
  c.emit(Op::Sub);
  c.emit(Op::Callvirt, x.sb_append_range);
  c.emit(Op::Pop);
  append_string(open_count);
  c.ldarg(kBuilder);
  c.emit(Op::Ldsfld, counts_field);
  c.ldarg(kSlot);
  c.emit(Op::Ldelem_I8);
  c.emit(Op::Callvirt, x.sb_append_int64);
  c.emit(Op::Pop);
  append_string(close_brace);
  c.ldarg(kSlot);
  c.ldc_i4(1);
  c.emit(Op::Add);
  c.emit(Op::Starg_S, kSlot);
  c.ldloc(kIndex);
  c.ldc_i4(1);
  c.emit(Op::Add);
  c.stloc(kIndex);
  c.mark(condition);
  c.ldloc(kIndex);
  c.ldloc(kLines);
  c.emit(Op::Ldlen);
  c.emit(Op::Conv_I4);
  c.branch(Op::Blt_S, loop);
  c.ldarg(kSlot);
  c.emit(Op::Ret);
  body.instrs = c.take();
  return set_body(editor, method, body, effects, true);
}

}  // namespace

Expected<CountMode> CountMode::begin(md::ModuleEditor& editor, md::RuntimeRefs& refs) {
  CountMode mode;
  mode.editor_ = &editor;
  mode.refs_ = &refs;
  const md::Module& m = editor.module();
  Token object = CIL_TRY(refs.type("System", "Object"));
  Token interlocked = CIL_TRY(increment_type(refs));
  TypeSig i8 = prim(ElementType::I8);
  mode.int64_ = CIL_TRY(refs.type("System", "Int64"));
  mode.increment_ = CIL_TRY(increment_method(refs, interlocked));

  // Rows: the TypeDef's member lists start at the current ends of Field and MethodDef (or of
  // their Ptr tables, in uncompressed metadata), and the new members follow.
  bool field_ptr = m.tables().rows(TableId::FieldPtr) > 0;
  bool method_ptr = m.tables().rows(TableId::MethodPtr) > 0;
  uint32_t field_list = (field_ptr ? editor.rows(TableId::FieldPtr) : editor.rows(TableId::Field)) + 1;
  uint32_t method_list = (method_ptr ? editor.rows(TableId::MethodPtr) : editor.rows(TableId::MethodDef)) + 1;
  uint32_t param_list = (m.tables().rows(TableId::ParamPtr) ? editor.rows(TableId::ParamPtr) : editor.rows(TableId::Param)) + 1;
  Token type = CIL_TRY(editor.add(md::TypeDefRow{.flags = kStaticClass,
                                                  .type_name = kHelperTypeName,
                                                  .extends = object,
                                                  .field_list = field_list,
                                                  .method_list = method_list}));
  mode.helper_type_ = md::token_rid(type);

  std::vector<uint8_t> field_sig{md::kSigField};
  md::encode_type(field_sig, md::wrap(ElementType::SzArray, i8));
  mode.counts_field_ = CIL_TRY(editor.add(md::FieldRow{.flags = kHelperField, .name = "counts", .signature = field_sig}));
  if (field_ptr) CIL_TRY(editor.add(md::FieldPtrRow{.field = md::token_rid(mode.counts_field_)}));

  Token event_args = CIL_TRY(refs.type("System", "EventArgs"));
  Token unhandled_args = CIL_TRY(refs.type("System", "UnhandledExceptionEventArgs"));
  TypeSig vd = prim(ElementType::Void), obj = prim(ElementType::Object);
  auto add_method = [&](md::MethodAttributes flags, std::string_view name, std::vector<uint8_t> sig) -> Expected<Token> {
    Token t = CIL_TRY(editor.add(md::MethodDefRow{.flags = flags, .name = name, .signature = sig, .param_list = param_list}));
    if (method_ptr) CIL_TRY(editor.add(md::MethodPtrRow{.method = md::token_rid(t)}));
    return t;
  };
  mode.cctor_ = CIL_TRY(add_method(kTypeInitializer, ".cctor", method_sig(false, vd, {})));
  mode.write_ = CIL_TRY(add_method(kHelperMethod, "WriteCounts", method_sig(false, vd, {})));
  mode.on_exit_ = CIL_TRY(add_method(kPrivateHelperMethod, "OnProcessExit", method_sig(false, vd, {obj, md::class_type(event_args)})));
  mode.on_unhandled_ = CIL_TRY(add_method(kPrivateHelperMethod, "OnUnhandledException",
                                          method_sig(false, vd, {obj, md::class_type(unhandled_args)})));
  Token builder = CIL_TRY(refs.type("System.Text", "StringBuilder"));
  mode.append_chunk_ = CIL_TRY(add_method(kPrivateHelperMethod, "AppendChunk",
                                          method_sig(false, prim(ElementType::I4),
                                                     {md::class_type(builder), md::wrap(ElementType::SzArray, prim(ElementType::U1)),
                                                      prim(ElementType::I4)})));
  return mode;
}

Status CountMode::commit(uint32_t rid, std::string_view name) {
  // The token's digits ("0600002A") then the name as a JSON string, without a formatting pass.
  std::string quoted = json_string(name);
  size_t line = contract::kTokenDigits + quoted.size();
  if (table_.empty() || table_.back().bytes.size() + line + 1 > kChunkSize) {
    if (!table_.empty()) {
      TableChunk& full = table_.back();
      full.rva = CIL_TRY(editor_->place_section_data(full.bytes, kChunkAlignment));
      std::vector<uint8_t>().swap(full.bytes);
    }
    table_.emplace_back();
    table_.back().bytes.reserve(std::max(kChunkSize, line));
  } else {
    table_.back().bytes.push_back('\n');  // JSON strings hold no raw newline: lines split cleanly
  }
  auto& bytes = table_.back().bytes;
  contract::append_token_digits(bytes, md::make_token(TableId::MethodDef, rid));
  bytes.insert(bytes.end(), quoted.begin(), quoted.end());
  table_.back().size = static_cast<uint32_t>(bytes.size());
  ++slots_;
  return ok();
}

Status CountMode::measure_probe(CallEffects& effects) {
  probe_max_stack_ = CIL_TRY(il::probe_max_stack(CounterRef{counts_field_, int64_, 0, 0}, increment_, effects));
  return ok();
}

void CountMode::next_probe(std::vector<Instr>& probe) const {
  BodyModel scratch;  // only hands out instruction ids, which rewrite_body replaces
  counter_probe(scratch, CounterRef{counts_field_, int64_, slots_, 0}, increment_, probe);
}

Status CountMode::finish(std::string_view assembly, std::string_view mvid, CallEffects& effects) {
  md::ModuleEditor& editor = *editor_;
  Refs x = CIL_TRY(resolve(*refs_));

  // The class constructor: allocate the counters, then hook process exit and unhandled
  // exceptions (on .NET an unhandled exception ends the process without ProcessExit).
  {
    BodyModel body;
    CodeBuilder c(body);
    c.ldc_i4(static_cast<int32_t>(slots_));
    c.emit(Op::Newarr, x.int64);
    c.emit(Op::Stsfld, counts_field_);
    c.emit(Op::Call, x.get_current_domain);
    c.emit(Op::Dup);
    c.emit(Op::Ldnull);
    c.emit(Op::Ldftn, on_exit_);
    c.emit(Op::Newobj, x.event_handler_ctor);
    c.emit(Op::Callvirt, x.add_process_exit);
    c.emit(Op::Ldnull);
    c.emit(Op::Ldftn, on_unhandled_);
    c.emit(Op::Newobj, x.unhandled_handler_ctor);
    c.emit(Op::Callvirt, x.add_unhandled);
    c.emit(Op::Ret);
    body.instrs = c.take();
    CIL_TRY(set_body(editor, cctor_, body, effects, false));
  }
  for (Token handler : {on_exit_, on_unhandled_}) {
    BodyModel body;
    CodeBuilder c(body);
    c.emit(Op::Call, write_);
    c.emit(Op::Ret);
    body.instrs = c.take();
    CIL_TRY(set_body(editor, handler, body, effects, false));
  }

  // The method table (UTF-8, built by commit()) becomes static data, II.16.3.2: chunks of whole
  // lines, each the RVA field of a value type of its size, like C#'s array initializers. Each
  // chunk type owns its field, so the rows go type, field, type, field...
  struct Chunk {
    Token field;
    uint32_t size;
  };
  std::vector<Chunk> chunks;
  {
    const md::Module& m = editor.module();
    bool field_ptr = m.tables().rows(TableId::FieldPtr) > 0;
    bool method_ptr = m.tables().rows(TableId::MethodPtr) > 0;
    Token value_type = CIL_TRY(refs_->type("System", "ValueType"));
    for (auto& chunk : table_) {
      uint32_t size = chunk.size;
      uint32_t field_list = (field_ptr ? editor.rows(TableId::FieldPtr) : editor.rows(TableId::Field)) + 1;
      uint32_t method_list = (method_ptr ? editor.rows(TableId::MethodPtr) : editor.rows(TableId::MethodDef)) + 1;
      std::string type_name = fmt::format("<CilInstrument>Methods{}", chunks.size());
      Token type = CIL_TRY(editor.add(md::TypeDefRow{.flags = kDataType,
                                                    .type_name = type_name,
                                                    .extends = value_type,
                                                    .field_list = field_list,
                                                    .method_list = method_list}));
      CIL_TRY(editor.add(md::ClassLayoutRow{.packing_size = 1, .class_size = std::max<uint32_t>(size, 1), .parent = md::token_rid(type)}));
      std::vector<uint8_t> sig{md::kSigField};
      md::encode_type(sig, md::value_type(type));
      Token field = CIL_TRY(editor.add(
          md::FieldRow{.flags = kHelperField | md::FieldAttributes::HasFieldRVA, .name = "Data", .signature = sig}));
      if (field_ptr) CIL_TRY(editor.add(md::FieldPtrRow{.field = md::token_rid(field)}));
      Token rva_row = CIL_TRY(editor.add(md::FieldRVARow{.rva = chunk.rva, .field = md::token_rid(field)}));
      if (!chunk.rva) CIL_TRY(editor.add_section_data(std::move(chunk.bytes), kChunkAlignment, md::token_rid(rva_row)));
      chunks.push_back({field, size});
    }
    table_.clear();
    table_.shrink_to_fit();
  }

  auto utf16 = [](std::string_view s) { return md::utf8_to_utf16(s); };
  Token header_str = CIL_TRY(editor.user_string(utf16(contract::counts_header(json_string(assembly), json_string(mvid)))));
  Token variable = CIL_TRY(editor.user_string(utf16(contract::kEnvOutput)));
  Token dot = CIL_TRY(editor.user_string(u"."));
  CIL_TRY(write_append_chunk(editor, x, append_chunk_, counts_field_, effects));
  Token tail = CIL_TRY(editor.user_string(utf16(contract::kCountsTail)));
  Token prefix = CIL_TRY(editor.user_string(utf16(contract::counts_file_prefix(assembly))));
  Token suffix = CIL_TRY(editor.user_string(utf16(contract::kCountsFileSuffix)));
  Token failure = CIL_TRY(editor.user_string(u"cil-instrument: cannot write call counts: "));

  // WriteCounts. Locals: 0 dir, 1 builder, 2 slot, 3 pid.
  enum : uint32_t { kDir, kBuilder, kSlot, kPid };
  std::vector<uint8_t> locals{md::kSigLocals, 4};
  md::encode_type(locals, prim(ElementType::String));
  md::encode_type(locals, md::class_type(x.string_builder));
  md::encode_type(locals, prim(ElementType::I4));
  md::encode_type(locals, prim(ElementType::I4));
  BodyModel body;
  body.local_sig_token = CIL_TRY(editor.standalone_sig(locals));
  body.init_locals = true;
  CodeBuilder c(body);
  uint32_t use_assembly_dir = c.new_label(), have_dir = c.new_label(), handler = c.new_label(), end = c.new_label();
  auto append_string = [&](Token s) {
    c.ldloc(kBuilder);
    c.emit(Op::Ldstr, s);
    c.emit(Op::Callvirt, x.sb_append_string);
    c.emit(Op::Pop);
  };
  c.emit(Op::Ldstr, variable);
  c.emit(Op::Call, x.get_env);
  c.stloc(kDir);
  c.ldloc(kDir);
  c.emit(Op::Call, x.is_null_or_empty);
  c.branch(Op::Brtrue_S, use_assembly_dir);
  c.ldloc(kDir);
  c.emit(Op::Call, x.dir_exists);
  c.branch(Op::Brtrue_S, have_dir);
  c.mark(use_assembly_dir);
  c.emit(Op::Ldtoken, md::make_token(TableId::TypeDef, helper_type_));
  c.emit(Op::Call, x.get_type_from_handle);
  c.emit(Op::Callvirt, x.get_assembly);
  c.emit(Op::Callvirt, x.get_location);
  c.emit(Op::Call, x.get_directory_name);
  c.stloc(kDir);
  c.ldloc(kDir);
  c.emit(Op::Call, x.is_null_or_empty);
  c.branch(Op::Brfalse_S, have_dir);
  c.emit(Op::Ldstr, dot);
  c.stloc(kDir);
  c.mark(have_dir);
  c.emit(Op::Newobj, x.sb_ctor);
  c.stloc(kBuilder);
  append_string(header_str);
  // slot = AppendChunk(builder, <chunk bytes>, slot), for every chunk.
  c.ldc_i4(0);
  c.stloc(kSlot);
  for (const auto& chunk : chunks) {
    c.ldloc(kBuilder);
    c.ldc_i4(static_cast<int32_t>(chunk.size));
    c.emit(Op::Newarr, x.byte_type);
    c.emit(Op::Dup);
    c.emit(Op::Ldtoken, chunk.field);
    c.emit(Op::Call, x.initialize_array);
    c.ldloc(kSlot);
    c.emit(Op::Call, append_chunk_);
    c.stloc(kSlot);
  }
  append_string(tail);
  if (x.pid_is_process) {
    c.emit(Op::Call, x.pid_source);
    c.emit(Op::Callvirt, x.pid_get);
  } else {
    c.emit(Op::Call, x.pid_get);
  }
  c.stloc(kPid);
  c.ldloc(kDir);
  c.emit(Op::Ldstr, prefix);
  c.ldloca(kPid);
  c.emit(Op::Call, x.int32_to_string);
  c.emit(Op::Ldstr, suffix);
  c.emit(Op::Call, x.concat3);
  c.emit(Op::Call, x.path_combine);
  c.ldloc(kBuilder);
  c.emit(Op::Callvirt, x.object_to_string);
  c.emit(Op::Call, x.write_all_text);
  c.branch(Op::Leave_S, end);
  // catch (Exception e): say why on stderr and carry on; the program's own exit must not change.
  c.mark(handler);
  c.emit(Op::Callvirt, x.get_message);
  c.stloc(kDir);
  c.emit(Op::Call, x.get_error);
  c.emit(Op::Ldstr, failure);
  c.ldloc(kDir);
  c.emit(Op::Call, x.concat2);
  c.emit(Op::Callvirt, x.write_line);
  c.branch(Op::Leave_S, end);
  c.mark(end);
  c.emit(Op::Ret);
  body.instrs = c.take();
  EhRegion clause;
  clause.kind = ClauseKind::Catch;
  clause.try_start = body.instrs.front().id;
  clause.try_end = handler;
  clause.handler_start = handler;
  clause.handler_end = end;
  clause.class_token = x.exception;
  body.clauses.push_back(clause);
  return set_body(editor, write_, body, effects, false);
}

}  // namespace cil::il
