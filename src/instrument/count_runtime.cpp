// The IL of count mode's helper at run time (see count_runtime.h). In C# terms:
//
//   static .cctor() { counts = Marshal.AllocHGlobal(8 * N), zeroed (the core library and
//                     mscorlib-based modules: new long[N], and no live file); gate = new object(); tag = "";
//                     domain.ProcessExit += OnProcessExit; domain.UnhandledException += ...; Setup(); }
//   static void Setup() { try { tag = the load's tag; MapLive(); timer every
//                               CIL_INSTRUMENT_FLUSH_SECONDS; PosixSignalRegistration.Create(
//                               SIGTERM/SIGINT/SIGQUIT, OnSignal) by reflection } catch {} }
//   static void MapLive() { try { write the live file; map it; copy the counters there and point
//                                 counts at them; live = its path } catch { delete it } }
//   static void WriteCounts(bool final) { try { lock (gate) { WriteFile(file + ".tmp"); rename it
//                               to file; if (final) delete the live file } }
//                               catch (Exception e) { one line on stderr } }
//
// Only mscorlib-level APIs are referenced, and MemoryMappedFile (System.IO.MemoryMappedFiles, or
// netstandard) for the live file; PosixSignalRegistration (.NET 6+) is found by name, so the same
// output runs on .NET Framework and Mono, where the signals part does nothing.
#include "instrument/count_runtime.h"

#include <algorithm>

#include "il/code_builder.h"
#include "il/rewrite.h"
#include "instrument/runtime_contract.h"
#include "metadata/signature.h"
#include "metadata/text_encoding.h"

namespace cil::instrument {

namespace {

using md::ElementType;
using md::Token;
using md::TypeSig;

TypeSig prim(ElementType e) { return md::primitive(e); }
std::vector<uint8_t> sig(bool has_this, const TypeSig& ret, const std::vector<TypeSig>& params) {
  return md::method_signature(has_this, ret, params);
}

// Values of runtime enums (System.IO.FileMode.Create and Open; System.Reflection.BindingFlags.Static
// (8) plus BindingFlags.NonPublic (32)), not metadata flags.
constexpr int32_t kFileModeCreate = 2;
constexpr int32_t kFileModeOpen = 3;
constexpr int32_t kStaticNonPublic = 8 + 32;
// Longest decimal uint64.
constexpr int32_t kDigits = 20;
// The flush period is capped so that seconds * 1000 fits an int32 (Timer's milliseconds); the
// profiler caps it the same way.
constexpr int32_t kMaxFlushSeconds = static_cast<int32_t>(contract::kMaxFlushSeconds);
static_assert(int64_t{kMaxFlushSeconds} * 1000 <= INT32_MAX);

/// The type and member references the helper's code needs.
struct Refs {
  Token app_domain, method_info, parameter_info, delegate, stream, text_writer;
  Token object, object_ctor, int64, int32, byte_type, exception, string_builder, type, runtime_type_handle;
  Token get_current_domain, add_process_exit, add_unhandled, event_handler_ctor, unhandled_handler_ctor;
  Token get_env, is_null_or_empty, dir_exists, get_type_from_handle, get_assembly, get_location, get_directory_name,
      path_combine, concat2, concat3, concat4, intern, int32_to_string, int32_try_parse, get_error, write_line,
      get_message, pid_source, pid_get;
  Token monitor_enter, monitor_exit, get_data, set_data, is_default_domain, domain_id;
  Token file_exists, file_replace, file_move, file_stream_ctor, stream_write, stream_close, get_utf8, get_bytes,
      initialize_array;
  Token timer_callback_ctor, timer_ctor;
  Token alloc_hglobal, file_delete;
  // The live file's mapping (live only).
  Token mmf, view_accessor, view_handle, create_from_file, create_view_accessor, get_view_handle, add_ref, get_handle;
  Token type_get_type, type_get_method, type_get_method_flags, get_parameters, parameter_type, create_delegate,
      enum_parse, method_invoke;
  bool pid_is_process = false;
};

Expected<Refs> resolve(md::RuntimeRefs& r, bool counts_array, bool live) {
  Refs x{};
  TypeSig str = prim(ElementType::String), obj = prim(ElementType::Object), vd = prim(ElementType::Void);
  TypeSig boolean = prim(ElementType::Boolean), native_int = prim(ElementType::I), i4 = prim(ElementType::I4);
  TypeSig bytes = md::wrap(ElementType::SzArray, prim(ElementType::U1));
  TypeSig objects = md::wrap(ElementType::SzArray, obj);
  x.object = CIL_TRY(r.type("System", "Object"));
  x.object_ctor = CIL_TRY(r.member(x.object, ".ctor", sig(true, vd, {})));
  x.int64 = CIL_TRY(r.type("System", "Int64"));
  x.int32 = CIL_TRY(r.type("System", "Int32"));
  x.byte_type = CIL_TRY(r.type("System", "Byte"));
  x.exception = CIL_TRY(r.type("System", "Exception"));
  x.type = CIL_TRY(r.type("System", "Type"));
  x.runtime_type_handle = CIL_TRY(r.type("System", "RuntimeTypeHandle"));
  x.app_domain = CIL_TRY(r.type("System", "AppDomain"));
  Token event_handler = CIL_TRY(r.type("System", "EventHandler"));
  Token unhandled_handler = CIL_TRY(r.type("System", "UnhandledExceptionEventHandler"));
  Token assembly = CIL_TRY(r.type("System.Reflection", "Assembly"));
  x.text_writer = CIL_TRY(r.type("System.IO", "TextWriter"));
  Token string_type = CIL_TRY(r.type("System", "String"));
  Token environment = CIL_TRY(r.type("System", "Environment"));
  Token directory = CIL_TRY(r.type("System.IO", "Directory"));
  Token path = CIL_TRY(r.type("System.IO", "Path"));
  Token file = CIL_TRY(r.type("System.IO", "File"));
  Token file_stream = CIL_TRY(r.type("System.IO", "FileStream"));
  Token file_mode = CIL_TRY(r.type("System.IO", "FileMode"));
  x.stream = CIL_TRY(r.type("System.IO", "Stream"));
  Token monitor = CIL_TRY(r.type("System.Threading", "Monitor"));
  Token timer = CIL_TRY(r.type("System.Threading", "Timer"));
  Token timer_callback = CIL_TRY(r.type("System.Threading", "TimerCallback"));
  Token encoding = CIL_TRY(r.type("System.Text", "Encoding"));
  Token array = CIL_TRY(r.type("System", "Array"));
  Token field_handle = CIL_TRY(r.type("System", "RuntimeFieldHandle"));
  Token runtime_helpers = CIL_TRY(r.type("System.Runtime.CompilerServices", "RuntimeHelpers"));
  Token method_base = CIL_TRY(r.type("System.Reflection", "MethodBase"));
  x.method_info = CIL_TRY(r.type("System.Reflection", "MethodInfo"));
  x.parameter_info = CIL_TRY(r.type("System.Reflection", "ParameterInfo"));
  Token binding_flags = CIL_TRY(r.type("System.Reflection", "BindingFlags"));
  x.delegate = CIL_TRY(r.type("System", "Delegate"));
  Token enum_type = CIL_TRY(r.type("System", "Enum"));
  Token console = r.kind() == md::CoreLibraryKind::Mscorlib ? CIL_TRY(r.type("System", "Console"))
                                                            : CIL_TRY(r.type_in(r.console_assembly(), "System", "Console"));
  TypeSig type_sig = md::class_type(x.type), domain_sig = md::class_type(x.app_domain);

  x.get_current_domain = CIL_TRY(r.member(x.app_domain, "get_CurrentDomain", sig(false, domain_sig, {})));
  x.add_process_exit = CIL_TRY(r.member(x.app_domain, "add_ProcessExit", sig(true, vd, {md::class_type(event_handler)})));
  x.add_unhandled = CIL_TRY(r.member(x.app_domain, "add_UnhandledException", sig(true, vd, {md::class_type(unhandled_handler)})));
  x.event_handler_ctor = CIL_TRY(r.member(event_handler, ".ctor", sig(true, vd, {obj, native_int})));
  x.unhandled_handler_ctor = CIL_TRY(r.member(unhandled_handler, ".ctor", sig(true, vd, {obj, native_int})));
  x.get_data = CIL_TRY(r.member(x.app_domain, "GetData", sig(true, obj, {str})));
  x.set_data = CIL_TRY(r.member(x.app_domain, "SetData", sig(true, vd, {str, obj})));
  x.is_default_domain = CIL_TRY(r.member(x.app_domain, "IsDefaultAppDomain", sig(true, boolean, {})));
  x.domain_id = CIL_TRY(r.member(x.app_domain, "get_Id", sig(true, i4, {})));
  x.get_env = CIL_TRY(r.member(environment, "GetEnvironmentVariable", sig(false, str, {str})));
  x.is_null_or_empty = CIL_TRY(r.member(string_type, "IsNullOrEmpty", sig(false, boolean, {str})));
  x.dir_exists = CIL_TRY(r.member(directory, "Exists", sig(false, boolean, {str})));
  x.get_type_from_handle = CIL_TRY(r.member(x.type, "GetTypeFromHandle", sig(false, type_sig, {md::value_type(x.runtime_type_handle)})));
  x.get_assembly = CIL_TRY(r.member(x.type, "get_Assembly", sig(true, md::class_type(assembly), {})));
  x.get_location = CIL_TRY(r.member(assembly, "get_Location", sig(true, str, {})));
  x.get_directory_name = CIL_TRY(r.member(path, "GetDirectoryName", sig(false, str, {str})));
  x.path_combine = CIL_TRY(r.member(path, "Combine", sig(false, str, {str, str})));
  x.concat2 = CIL_TRY(r.member(string_type, "Concat", sig(false, str, {str, str})));
  x.concat3 = CIL_TRY(r.member(string_type, "Concat", sig(false, str, {str, str, str})));
  x.concat4 = CIL_TRY(r.member(string_type, "Concat", sig(false, str, {str, str, str, str})));
  x.intern = CIL_TRY(r.member(string_type, "Intern", sig(false, str, {str})));
  x.int32_to_string = CIL_TRY(r.member(x.int32, "ToString", sig(true, str, {})));
  x.int32_try_parse = CIL_TRY(r.member(x.int32, "TryParse", sig(false, boolean, {str, md::wrap(ElementType::ByRef, i4)})));
  x.get_error = CIL_TRY(r.member(console, "get_Error", sig(false, md::class_type(x.text_writer), {})));
  x.write_line = CIL_TRY(r.member(x.text_writer, "WriteLine", sig(true, vd, {str})));
  x.get_message = CIL_TRY(r.member(x.exception, "get_Message", sig(true, str, {})));
  x.monitor_enter = CIL_TRY(r.member(monitor, "Enter", sig(false, vd, {obj})));
  x.monitor_exit = CIL_TRY(r.member(monitor, "Exit", sig(false, vd, {obj})));
  x.file_exists = CIL_TRY(r.member(file, "Exists", sig(false, boolean, {str})));
  x.file_replace = CIL_TRY(r.member(file, "Replace", sig(false, vd, {str, str, str})));
  x.file_move = CIL_TRY(r.member(file, "Move", sig(false, vd, {str, str})));
  x.file_stream_ctor = CIL_TRY(r.member(file_stream, ".ctor", sig(true, vd, {str, md::value_type(file_mode)})));
  x.stream_write = CIL_TRY(r.member(x.stream, "Write", sig(true, vd, {bytes, i4, i4})));
  x.stream_close = CIL_TRY(r.member(x.stream, "Close", sig(true, vd, {})));
  x.get_utf8 = CIL_TRY(r.member(encoding, "get_UTF8", sig(false, md::class_type(encoding), {})));
  x.get_bytes = CIL_TRY(r.member(encoding, "GetBytes", sig(true, bytes, {str})));
  x.initialize_array = CIL_TRY(r.member(runtime_helpers, "InitializeArray", sig(false, vd, {md::class_type(array), md::value_type(field_handle)})));
  x.timer_callback_ctor = CIL_TRY(r.member(timer_callback, ".ctor", sig(true, vd, {obj, native_int})));
  x.timer_ctor = CIL_TRY(r.member(timer, ".ctor", sig(true, vd, {md::class_type(timer_callback), obj, i4, i4})));
  x.type_get_type = CIL_TRY(r.member(x.type, "GetType", sig(false, type_sig, {str, boolean})));
  x.type_get_method = CIL_TRY(r.member(x.type, "GetMethod", sig(true, md::class_type(x.method_info), {str})));
  x.type_get_method_flags = CIL_TRY(r.member(x.type, "GetMethod", sig(true, md::class_type(x.method_info), {str, md::value_type(binding_flags)})));
  x.get_parameters = CIL_TRY(r.member(method_base, "GetParameters", sig(true, md::wrap(ElementType::SzArray, md::class_type(x.parameter_info)), {})));
  x.parameter_type = CIL_TRY(r.member(x.parameter_info, "get_ParameterType", sig(true, type_sig, {})));
  x.create_delegate = CIL_TRY(r.member(x.delegate, "CreateDelegate", sig(false, md::class_type(x.delegate), {type_sig, md::class_type(x.method_info)})));
  x.enum_parse = CIL_TRY(r.member(enum_type, "Parse", sig(false, obj, {type_sig, str})));
  x.method_invoke = CIL_TRY(r.member(method_base, "Invoke", sig(true, obj, {obj, objects})));
  if (!counts_array) {
    Token marshal = CIL_TRY(r.type("System.Runtime.InteropServices", "Marshal"));
    x.alloc_hglobal = CIL_TRY(r.member(marshal, "AllocHGlobal", sig(false, native_int, {i4})));
  }
  x.file_delete = CIL_TRY(r.member(file, "Delete", sig(false, vd, {str})));
  if (live) {
    md::AssemblyRefSpec mapped = r.memory_mapped_files_assembly();
    x.mmf = CIL_TRY(r.type_in(mapped, "System.IO.MemoryMappedFiles", "MemoryMappedFile"));
    x.view_accessor = CIL_TRY(r.type_in(mapped, "System.IO.MemoryMappedFiles", "MemoryMappedViewAccessor"));
    x.view_handle = CIL_TRY(r.type_in(mapped, "Microsoft.Win32.SafeHandles", "SafeMemoryMappedViewHandle"));
    Token safe_handle = CIL_TRY(r.type("System.Runtime.InteropServices", "SafeHandle"));
    x.create_from_file = CIL_TRY(r.member(
        x.mmf, "CreateFromFile", sig(false, md::class_type(x.mmf), {str, md::value_type(file_mode), str, prim(ElementType::I8)})));
    x.create_view_accessor = CIL_TRY(r.member(x.mmf, "CreateViewAccessor", sig(true, md::class_type(x.view_accessor), {})));
    x.get_view_handle =
        CIL_TRY(r.member(x.view_accessor, "get_SafeMemoryMappedViewHandle", sig(true, md::class_type(x.view_handle), {})));
    x.add_ref = CIL_TRY(r.member(safe_handle, "DangerousAddRef", sig(true, vd, {md::wrap(ElementType::ByRef, boolean)})));
    x.get_handle = CIL_TRY(r.member(safe_handle, "DangerousGetHandle", sig(true, native_int, {})));
  }
  if (r.kind() == md::CoreLibraryKind::PrivateCoreLib) {
    // Environment.ProcessId: .NET 5 and later.
    x.pid_get = CIL_TRY(r.member(environment, "get_ProcessId", sig(false, i4, {})));
  } else {
    // .NET Framework and netstandard: Process.GetCurrentProcess().Id.
    Token process = CIL_TRY(r.type_in(r.process_assembly(), "System.Diagnostics", "Process"));
    x.pid_source = CIL_TRY(r.member(process, "GetCurrentProcess", sig(false, md::class_type(process), {})));
    x.pid_get = CIL_TRY(r.member(process, "get_Id", sig(true, i4, {})));
    x.pid_is_process = true;
  }
  return x;
}

/// Writes the code `c` built as a helper body, with its max stack computed.
Status set_body(md::ModuleEditor& editor, Token method, BodyModel& body, CodeBuilder& c, CallEffects& effects,
                bool returns_value) {
  Code code = CIL_TRY(c.finish());
  body.instrs = std::move(code.instrs);
  body.clauses = std::move(code.clauses);
  body.max_stack = CIL_TRY(compute_max_stack(body, returns_value, effects));
  EncodedBody encoded = CIL_TRY(rewrite_body(std::move(body), {}));
  return editor.set_method_body(md::token_rid(method), encoded.bytes);
}

Expected<Token> str_token(md::ModuleEditor& editor, std::string_view s) { return editor.user_string(md::utf8_to_utf16(s)); }

Expected<Token> locals_sig(md::ModuleEditor& editor, const std::vector<TypeSig>& types) {
  std::vector<uint8_t> locals{md::kSigLocals, static_cast<uint8_t>(types.size())};
  for (const TypeSig& t : types) md::encode_type(locals, t);
  return editor.standalone_sig(locals);
}

/// Pushes a new `element`[] of `count` elements filled from the static data `field` (II.16.3.2:
/// what C#'s array initializers compile to).
void push_data_array(CodeBuilder& c, const Refs& x, Token element, uint32_t count, Token field) {
  c.ldc(static_cast<int32_t>(count));
  c.emit(Op::Newarr, element);
  c.emit(Op::Dup);
  c.emit(Op::Ldtoken, field);
  c.emit(Op::Call, x.initialize_array);
}

/// stream.Write(bytes, 0, bytes.Length), with the stream and the bytes in locals.
void write_all(CodeBuilder& c, const Refs& x, uint32_t stream, uint32_t bytes) {
  c.ldloc(stream);
  c.ldloc(bytes);
  c.ldc(0);
  c.ldloc(bytes);
  c.emit(Op::Ldlen);
  c.emit(Op::Conv_I4);
  c.emit(Op::Callvirt, x.stream_write);
}

/// bytes = Encoding.UTF8.GetBytes(s); stream.Write(bytes, 0, bytes.Length).
void write_utf8(CodeBuilder& c, const Refs& x, Token s, uint32_t stream, uint32_t bytes) {
  c.emit(Op::Call, x.get_utf8);
  c.emit(Op::Ldstr, s);
  c.emit(Op::Callvirt, x.get_bytes);
  c.stloc(bytes);
  write_all(c, x, stream, bytes);
}

/// The finally handler of `region`, which closes the stream in local `stream`.
void close_in_finally(CodeBuilder& c, const Refs& x, Region region, uint32_t stream) {
  c.begin_finally(region);
  c.ldloc(stream);
  c.emit(Op::Callvirt, x.stream_close);
  c.emit(Op::Endfinally);
  c.end_region(region);
}

/// The end of a body whose outermost region swallows any exception: its handler drops it and
/// leaves to `end`, which returns.
void swallow_then_return(CodeBuilder& c, const Refs& x, Region region, Label end) {
  c.begin_catch(region, x.exception);
  c.emit(Op::Pop);
  c.branch(Op::Leave_S, end);
  c.end_region(region);
  c.mark(end);
  c.emit(Op::Ret);
}

/// .cctor: the counters (zeroed native memory, until MapLive moves them into the live file), the
/// write lock, the default tag, the exit hooks (on .NET an unhandled exception ends the process
/// without ProcessExit), then Setup.
Status write_cctor(md::ModuleEditor& editor, const Refs& x, const CountRuntimeMembers& m, uint32_t slots,
                   CallEffects& effects) {
  Token empty = CIL_TRY(str_token(editor, ""));
  BodyModel body;
  CodeBuilder c(body);
  if (m.counts_array) {
    c.ldc(static_cast<int32_t>(slots));
    c.emit(Op::Newarr, x.int64);
    c.emit(Op::Stsfld, m.counts);
  } else {
    auto bytes = static_cast<int32_t>(slots * 8);
    c.ldc(std::max(bytes, 8));
    c.emit(Op::Call, x.alloc_hglobal);
    c.emit(Op::Stsfld, m.counts);
    c.emit(Op::Ldsfld, m.counts);
    c.ldc(0);
    c.ldc(bytes);
    c.emit(Op::Initblk);
  }
  c.emit(Op::Newobj, x.object_ctor);
  c.emit(Op::Stsfld, m.gate);
  c.emit(Op::Ldstr, empty);
  c.emit(Op::Stsfld, m.tag);
  c.emit(Op::Call, x.get_current_domain);
  c.emit(Op::Dup);
  c.emit(Op::Ldnull);
  c.emit(Op::Ldftn, m.on_exit);
  c.emit(Op::Newobj, x.event_handler_ctor);
  c.emit(Op::Callvirt, x.add_process_exit);
  c.emit(Op::Ldnull);
  c.emit(Op::Ldftn, m.on_unhandled);
  c.emit(Op::Newobj, x.unhandled_handler_ctor);
  c.emit(Op::Callvirt, x.add_unhandled);
  c.emit(Op::Call, m.setup);
  c.emit(Op::Ret);
  return set_body(editor, m.cctor, body, c, effects, false);
}

/// Setup: the load's tag, the flush timer and the signal handlers. Nothing here may fail the
/// program: any exception leaves the helper with what it has (the exit hooks are in place).
Status write_setup(md::ModuleEditor& editor, const Refs& x, const CountRuntimeMembers& m, const CountRuntimeText& text,
                   CallEffects& effects) {
  enum : uint32_t { kDomain, kLoad, kData, kLock, kSeconds, kRegistration, kCreate, kParams, kHandler, kSignal, kArgs };
  TypeSig obj = prim(ElementType::Object), i4 = prim(ElementType::I4);
  BodyModel body;
  body.local_sig_token = CIL_TRY(locals_sig(
      editor, {md::class_type(x.app_domain), i4, obj, prim(ElementType::String), i4, md::class_type(x.type),
               md::class_type(x.method_info), md::wrap(ElementType::SzArray, md::class_type(x.parameter_info)),
               md::class_type(x.delegate), md::class_type(x.type), md::wrap(ElementType::SzArray, obj)}));
  body.init_locals = true;
  Token key = CIL_TRY(str_token(editor, text.load_key));
  Token dot = CIL_TRY(str_token(editor, "."));
  Token domain_prefix = CIL_TRY(str_token(editor, ".domain"));
  Token flush_variable = CIL_TRY(str_token(editor, contract::kEnvFlushSeconds));
  Token registration = CIL_TRY(str_token(editor, contract::kPosixSignalRegistrationType));
  Token create = CIL_TRY(str_token(editor, "Create"));
  Token on_signal = CIL_TRY(str_token(editor, kOnSignalName));

  CodeBuilder c(body);
  Label set = c.new_label(), after_lock = c.new_label(), default_domain = c.new_label(), timer = c.new_label(),
        scale = c.new_label(), signals = c.new_label(), done = c.new_label(), end = c.new_label();
  // The load's number: lock (string.Intern(key)) { n = (int?)domain.GetData(key) + 1; SetData }.
  // The interned key is one object for every load of this build in the domain, and no user
  // code locks it.
  Region outer = c.begin_try();
  c.emit(Op::Call, x.get_current_domain);
  c.stloc(kDomain);
  c.emit(Op::Ldstr, key);
  c.emit(Op::Call, x.intern);
  c.stloc(kLock);
  c.ldloc(kLock);
  c.emit(Op::Call, x.monitor_enter);
  Region lock = c.begin_try();
  c.ldloc(kDomain);
  c.emit(Op::Ldstr, key);
  c.emit(Op::Callvirt, x.get_data);
  c.stloc(kData);
  c.ldc(1);
  c.stloc(kLoad);
  c.ldloc(kData);
  c.branch(Op::Brfalse_S, set);
  c.ldloc(kData);
  c.emit(Op::Unbox_Any, x.int32);
  c.ldc(1);
  c.emit(Op::Add);
  c.stloc(kLoad);
  c.mark(set);
  c.ldloc(kDomain);
  c.emit(Op::Ldstr, key);
  c.ldloc(kLoad);
  c.emit(Op::Box, x.int32);
  c.emit(Op::Callvirt, x.set_data);
  c.branch(Op::Leave_S, after_lock);
  c.begin_finally(lock);
  c.ldloc(kLock);
  c.emit(Op::Call, x.monitor_exit);
  c.emit(Op::Endfinally);
  c.end_region(lock);
  // tag = n > 1 ? "." + n : ""; a domain other than the default (.NET Framework, Mono) puts
  // ".domain<id>" before it.
  c.mark(after_lock);
  c.ldloc(kLoad);
  c.ldc(1);
  c.branch(Op::Ble_S, default_domain);
  c.emit(Op::Ldstr, dot);
  c.ldloca(kLoad);
  c.emit(Op::Call, x.int32_to_string);
  c.emit(Op::Call, x.concat2);
  c.emit(Op::Stsfld, m.tag);
  c.mark(default_domain);
  c.ldloc(kDomain);
  c.emit(Op::Callvirt, x.is_default_domain);
  c.branch(Op::Brtrue_S, timer);
  c.ldloc(kDomain);
  c.emit(Op::Callvirt, x.domain_id);
  c.stloc(kLoad);
  c.emit(Op::Ldstr, domain_prefix);
  c.ldloca(kLoad);
  c.emit(Op::Call, x.int32_to_string);
  c.emit(Op::Ldsfld, m.tag);
  c.emit(Op::Call, x.concat3);
  c.emit(Op::Stsfld, m.tag);
  // keep = new object[6]: [0] the flush timer, [1..3] the signal registrations, [4..5] the
  // live file's mapping.
  c.mark(timer);
  c.ldc(6);
  c.emit(Op::Newarr, x.object);
  c.emit(Op::Stsfld, m.keep);
  if (m.map_live) c.emit(Op::Call, m.map_live);
  // A periodic flush when CIL_INSTRUMENT_FLUSH_SECONDS is a positive integer. Timer callbacks
  // run on the thread pool, whose threads never keep the process alive.
  c.emit(Op::Ldstr, flush_variable);
  c.emit(Op::Call, x.get_env);
  c.ldloca(kSeconds);
  c.emit(Op::Call, x.int32_try_parse);
  c.branch(Op::Brfalse_S, signals);
  c.ldloc(kSeconds);
  c.ldc(0);
  c.branch(Op::Ble_S, signals);
  c.ldloc(kSeconds);
  c.ldc(kMaxFlushSeconds);
  c.branch(Op::Ble_S, scale);
  c.ldc(kMaxFlushSeconds);
  c.stloc(kSeconds);
  c.mark(scale);
  c.ldloc(kSeconds);
  c.ldc(1000);
  c.emit(Op::Mul);
  c.stloc(kSeconds);
  c.emit(Op::Ldsfld, m.keep);
  c.ldc(0);
  c.emit(Op::Ldnull);
  c.emit(Op::Ldftn, m.on_timer);
  c.emit(Op::Newobj, x.timer_callback_ctor);
  c.emit(Op::Ldnull);
  c.ldloc(kSeconds);
  c.ldloc(kSeconds);
  c.emit(Op::Newobj, x.timer_ctor);
  c.emit(Op::Stelem_Ref);
  // Signals, where the runtime has PosixSignalRegistration (.NET 6 and later):
  //   create = type.GetMethod("Create"); p = create.GetParameters();
  //   handler = Delegate.CreateDelegate(p[1].ParameterType, OnSignal)  (Action<PosixSignalContext>
  //   bound to OnSignal(object), by contravariance);
  //   keep[k] = create.Invoke(null, {Enum.Parse(p[0].ParameterType, "SIGTERM"), handler}) ...
  // The handler never sets Cancel, so the runtime's default outcome follows it.
  c.mark(signals);
  c.emit(Op::Ldstr, registration);
  c.ldc(0);
  c.emit(Op::Call, x.type_get_type);
  c.stloc(kRegistration);
  c.ldloc(kRegistration);
  c.branch(Op::Brfalse, done);
  c.ldloc(kRegistration);
  c.emit(Op::Ldstr, create);
  c.emit(Op::Callvirt, x.type_get_method);
  c.stloc(kCreate);
  c.ldloc(kCreate);
  c.emit(Op::Callvirt, x.get_parameters);
  c.stloc(kParams);
  c.ldloc(kParams);
  c.ldc(1);
  c.emit(Op::Ldelem_Ref);
  c.emit(Op::Callvirt, x.parameter_type);
  c.emit(Op::Ldtoken, md::make_token(md::TableId::TypeDef, m.helper_type));
  c.emit(Op::Call, x.get_type_from_handle);
  c.emit(Op::Ldstr, on_signal);
  c.ldc(kStaticNonPublic);
  c.emit(Op::Callvirt, x.type_get_method_flags);
  c.emit(Op::Call, x.create_delegate);
  c.stloc(kHandler);
  c.ldloc(kParams);
  c.ldc(0);
  c.emit(Op::Ldelem_Ref);
  c.emit(Op::Callvirt, x.parameter_type);
  c.stloc(kSignal);
  int32_t slot = 1;
  for (std::string_view name : contract::kCountSignals) {
    Token name_token = CIL_TRY(str_token(editor, name));
    c.ldc(2);
    c.emit(Op::Newarr, x.object);
    c.stloc(kArgs);
    c.ldloc(kArgs);
    c.ldc(0);
    c.ldloc(kSignal);
    c.emit(Op::Ldstr, name_token);
    c.emit(Op::Call, x.enum_parse);
    c.emit(Op::Stelem_Ref);
    c.ldloc(kArgs);
    c.ldc(1);
    c.ldloc(kHandler);
    c.emit(Op::Stelem_Ref);
    c.emit(Op::Ldsfld, m.keep);
    c.ldc(slot++);
    c.ldloc(kCreate);
    c.emit(Op::Ldnull);
    c.ldloc(kArgs);
    c.emit(Op::Callvirt, x.method_invoke);
    c.emit(Op::Stelem_Ref);
  }
  c.mark(done);
  c.branch(Op::Leave, end);
  swallow_then_return(c, x, outer, end);
  return set_body(editor, m.setup, body, c, effects, false);
}

/// A handler with any parameters that calls WriteCounts(final).
Status write_forwarder(md::ModuleEditor& editor, const CountRuntimeMembers& m, Token method, bool final,
                       CallEffects& effects) {
  BodyModel body;
  CodeBuilder c(body);
  c.ldc(final ? 1 : 0);
  c.emit(Op::Call, m.write);
  c.emit(Op::Ret);
  return set_body(editor, method, body, c, effects, false);
}

/// OutputPath(string suffix): CIL_INSTRUMENT_OUTPUT if it names a directory, else the assembly's,
/// else "."; then "<Assembly>." + pid + tag + suffix.
Status write_output_path(md::ModuleEditor& editor, const Refs& x, const CountRuntimeMembers& m,
                         const CountRuntimeText& text, CallEffects& effects) {
  enum : uint32_t { kDir, kPid };
  BodyModel body;
  body.local_sig_token = CIL_TRY(locals_sig(editor, {prim(ElementType::String), prim(ElementType::I4)}));
  body.init_locals = true;
  Token variable = CIL_TRY(str_token(editor, contract::kEnvOutput));
  Token dot = CIL_TRY(str_token(editor, "."));
  Token prefix = CIL_TRY(str_token(editor, text.file_prefix));
  CodeBuilder c(body);
  Label use_assembly_dir = c.new_label(), have_dir = c.new_label();
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
  c.emit(Op::Ldtoken, md::make_token(md::TableId::TypeDef, m.helper_type));
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
  c.emit(Op::Ldsfld, m.tag);
  c.ldarg(0);
  c.emit(Op::Call, x.concat4);
  c.emit(Op::Call, x.path_combine);
  c.emit(Op::Ret);
  return set_body(editor, m.output_path, body, c, effects, true);
}

/// WriteCounts(bool final): the one writer. lock (gate) { WriteFile(path + ".tmp"); rename over
/// path } so a signal during a flush waits for it, and a reader or a kill never sees a partial
/// file. A final write (an ending, not the flush timer) then deletes the live file, whose counts
/// the file now holds. A failure prints one line on standard error and removes the temporary
/// file; the program's own ending must not change.
Status write_write_counts(md::ModuleEditor& editor, const Refs& x, const CountRuntimeMembers& m,
                          const CountRuntimeText& text, CallEffects& effects) {
  enum : uint32_t { kFile, kTemp };
  TypeSig str = prim(ElementType::String);
  BodyModel body;
  body.local_sig_token = CIL_TRY(locals_sig(editor, {str, str}));
  body.init_locals = true;
  Token suffix = CIL_TRY(str_token(editor, text.file_suffix));
  Token temp_suffix = CIL_TRY(str_token(editor, contract::kCountsTempSuffix));
  Token failure = CIL_TRY(str_token(editor, "cil-instrument: cannot write call counts: "));

  CodeBuilder c(body);
  Label move = c.new_label(), renamed = c.new_label(), written = c.new_label(), after_lock = c.new_label(),
        end = c.new_label();
  Region outer = c.begin_try();
  c.emit(Op::Ldsfld, m.gate);
  c.emit(Op::Call, x.monitor_enter);
  Region lock = c.begin_try();
  // file = OutputPath(".counts.json"); temp = file + ".tmp"
  c.emit(Op::Ldstr, suffix);
  c.emit(Op::Call, m.output_path);
  c.stloc(kFile);
  c.ldloc(kFile);
  c.emit(Op::Ldstr, temp_suffix);
  c.emit(Op::Call, x.concat2);
  c.stloc(kTemp);
  c.ldloc(kTemp);
  c.emit(Op::Call, m.write_file);
  // rename(2) either way: File.Replace when the file exists (File.Move refuses to overwrite on
  // .NET Framework and Mono), File.Move for the first write.
  c.ldloc(kFile);
  c.emit(Op::Call, x.file_exists);
  c.branch(Op::Brfalse_S, move);
  c.ldloc(kTemp);
  c.ldloc(kFile);
  c.emit(Op::Ldnull);
  c.emit(Op::Call, x.file_replace);
  c.branch(Op::Br_S, renamed);
  c.mark(move);
  c.ldloc(kTemp);
  c.ldloc(kFile);
  c.emit(Op::Call, x.file_move);
  // if (final && live != null) { File.Delete(live); live = null; }
  c.mark(renamed);
  c.ldarg(0);
  c.branch(Op::Brfalse_S, written);
  c.emit(Op::Ldsfld, m.live);
  c.branch(Op::Brfalse_S, written);
  c.emit(Op::Ldsfld, m.live);
  c.emit(Op::Call, x.file_delete);
  c.emit(Op::Ldnull);
  c.emit(Op::Stsfld, m.live);
  c.mark(written);
  c.branch(Op::Leave_S, after_lock);
  c.begin_finally(lock);
  c.emit(Op::Ldsfld, m.gate);
  c.emit(Op::Call, x.monitor_exit);
  c.emit(Op::Endfinally);
  c.end_region(lock);
  c.mark(after_lock);
  c.branch(Op::Leave_S, end);
  // catch (Exception e): say why on stderr and carry on.
  c.begin_catch(outer, x.exception);
  c.emit(Op::Callvirt, x.get_message);
  c.stloc(kFile);
  c.emit(Op::Call, x.get_error);
  c.emit(Op::Ldstr, failure);
  c.ldloc(kFile);
  c.emit(Op::Call, x.concat2);
  c.emit(Op::Callvirt, x.write_line);
  // try { File.Delete(temp); } catch (Exception) { }: a write that failed half-way (a full disk)
  // leaves no temporary file behind. temp is null when the failure came before it was named, and
  // File.Delete(null) throws, which is caught here as any other failure of the cleanup is.
  Region cleanup = c.begin_try();
  c.ldloc(kTemp);
  c.emit(Op::Call, x.file_delete);
  c.branch(Op::Leave_S, end);
  c.begin_catch(cleanup, x.exception);
  c.emit(Op::Pop);
  c.branch(Op::Leave_S, end);
  c.end_region(cleanup);
  c.end_region(outer);
  c.mark(end);
  c.emit(Op::Ret);
  return set_body(editor, m.write, body, c, effects, false);
}

/// WriteFile(string path): the header, every chunk with its counts, the tail; the stream is
/// closed on every path.
Status write_write_file(md::ModuleEditor& editor, const Refs& x, const CountRuntimeMembers& m,
                        const CountRuntimeText& text, CallEffects& effects) {
  enum : uint32_t { kStream, kSlot, kDigitBuffer, kBytes };
  TypeSig bytes = md::wrap(ElementType::SzArray, prim(ElementType::U1));
  BodyModel body;
  body.local_sig_token = CIL_TRY(locals_sig(editor, {md::class_type(x.stream), prim(ElementType::I4), bytes, bytes}));
  body.init_locals = true;
  Token header = CIL_TRY(str_token(editor, text.header));
  Token tail = CIL_TRY(str_token(editor, text.tail));
  CodeBuilder c(body);
  Label end = c.new_label();
  c.ldarg(0);
  c.ldc(kFileModeCreate);
  c.emit(Op::Newobj, x.file_stream_ctor);
  c.stloc(kStream);
  Region stream = c.begin_try();
  write_utf8(c, x, header, kStream, kBytes);
  c.ldc(kDigits);
  c.emit(Op::Newarr, x.byte_type);
  c.stloc(kDigitBuffer);
  // slot = WriteChunk(stream, <chunk bytes>, <chunk lengths>, slot, digits), for every chunk.
  for (const CountTextChunk& chunk : text.chunks) {
    c.ldloc(kStream);
    push_data_array(c, x, x.byte_type, chunk.size, chunk.field);
    push_data_array(c, x, x.int32, chunk.pieces, chunk.lengths_field);
    c.ldloc(kSlot);
    c.ldloc(kDigitBuffer);
    c.emit(Op::Call, m.write_chunk);
    c.stloc(kSlot);
  }
  write_utf8(c, x, tail, kStream, kBytes);
  c.branch(Op::Leave_S, end);
  close_in_finally(c, x, stream, kStream);
  c.mark(end);
  c.emit(Op::Ret);
  return set_body(editor, m.write_file, body, c, effects, false);
}

/// WriteChunk(Stream s, byte[] text, int[] lengths, int slot, byte[] digits) -> int: writes each
/// slot's text then its count in decimal, and returns the next slot. Only the numbers are
/// formatted at exit (by hand, unsigned: no formatting API to call), and the loop runs once per
/// method, not per byte (a loop runs unoptimized code first; see bench/README.md).
Status write_write_chunk(md::ModuleEditor& editor, const Refs& x, const CountRuntimeMembers& m, CallEffects& effects) {
  enum : uint32_t { kStream, kText, kLengths, kSlot, kDigitBytes };
  enum : uint32_t { kPos, kIndex, kValue, kDigit, kLength };
  TypeSig i4 = prim(ElementType::I4);
  BodyModel body;
  body.local_sig_token = CIL_TRY(locals_sig(editor, {i4, i4, prim(ElementType::I8), i4, i4}));
  body.init_locals = true;
  CodeBuilder c(body);
  Label loop = c.new_label(), digit = c.new_label(), condition = c.new_label();
  // text: s.Write(text, pos, lengths[j]); pos += lengths[j]
  c.branch(Op::Br, condition);
  c.mark(loop);
  c.ldarg(kLengths);
  c.ldloc(kIndex);
  c.emit(Op::Ldelem_I4);
  c.stloc(kLength);
  c.ldarg(kStream);
  c.ldarg(kText);
  c.ldloc(kPos);
  c.ldloc(kLength);
  c.emit(Op::Callvirt, x.stream_write);
  c.ldloc(kPos);
  c.ldloc(kLength);
  c.emit(Op::Add);
  c.stloc(kPos);
  // value = *(counts + slot * 8); the digits right to left into digits[d..20);
  // s.Write(digits, d, 20 - d)
  c.emit(Op::Ldsfld, m.counts);
  c.ldarg(kSlot);
  if (m.counts_array) {
    c.emit(Op::Ldelem_I8);
  } else {
    c.ldc(8);
    c.emit(Op::Mul);
    c.emit(Op::Add);
    c.emit(Op::Ldind_I8);
  }
  c.stloc(kValue);
  c.ldc(kDigits);
  c.stloc(kDigit);
  c.mark(digit);
  c.ldloc(kDigit);
  c.ldc(1);
  c.emit(Op::Sub);
  c.stloc(kDigit);
  c.ldarg(kDigitBytes);
  c.ldloc(kDigit);
  c.ldloc(kValue);
  c.ldc(10);
  c.emit(Op::Conv_I8);
  c.emit(Op::Rem_Un);
  c.emit(Op::Conv_I4);
  c.ldc('0');
  c.emit(Op::Add);
  c.emit(Op::Stelem_I1);
  c.ldloc(kValue);
  c.ldc(10);
  c.emit(Op::Conv_I8);
  c.emit(Op::Div_Un);
  c.stloc(kValue);
  c.ldloc(kValue);
  c.branch(Op::Brtrue, digit);
  c.ldarg(kStream);
  c.ldarg(kDigitBytes);
  c.ldloc(kDigit);
  c.ldc(kDigits);
  c.ldloc(kDigit);
  c.emit(Op::Sub);
  c.emit(Op::Callvirt, x.stream_write);
  // slot++, j++
  c.ldarg(kSlot);
  c.ldc(1);
  c.emit(Op::Add);
  c.emit(Op::Starg_S, kSlot);
  c.ldloc(kIndex);
  c.ldc(1);
  c.emit(Op::Add);
  c.stloc(kIndex);
  c.mark(condition);
  c.ldloc(kIndex);
  c.ldarg(kLengths);
  c.emit(Op::Ldlen);
  c.emit(Op::Conv_I4);
  c.branch(Op::Blt, loop);
  c.ldarg(kSlot);
  c.emit(Op::Ret);
  return set_body(editor, m.write_chunk, body, c, effects, true);
}

/// MapLive: writes the live file (runtime_contract.h) with its state byte at "writing", maps it,
/// copies the counters counted so far (by code the class constructor itself ran) into it, points
/// `counts` at them and sets the state byte to "counting". The mapping is kept for the life of
/// the process: a reference added to its handle means no Dispose or finalizer ever unmaps it
/// while probes run. Any failure leaves the counters in native memory (the counts file is still
/// written at the end) and deletes the file if it was made.
Status write_map_live(md::ModuleEditor& editor, const Refs& x, const CountRuntimeMembers& m, const CountRuntimeText& text,
                      CallEffects& effects) {
  enum : uint32_t { kPath, kStream, kBytes, kMapping, kView, kHandle, kAdded, kBase };
  TypeSig bytes_sig = md::wrap(ElementType::SzArray, prim(ElementType::U1));
  BodyModel body;
  body.local_sig_token = CIL_TRY(locals_sig(
      editor, {prim(ElementType::String), md::class_type(x.stream), bytes_sig, md::class_type(x.mmf),
               md::class_type(x.view_accessor), md::class_type(x.view_handle), prim(ElementType::Boolean), prim(ElementType::I)}));
  body.init_locals = true;
  Token suffix = CIL_TRY(str_token(editor, text.live_suffix));
  Token header = CIL_TRY(str_token(editor, text.header));
  Token tail = CIL_TRY(str_token(editor, text.tail));
  auto counter_bytes = static_cast<int32_t>(text.slots * 8);
  CodeBuilder c(body);
  Label written = c.new_label(), no_file = c.new_label(), end = c.new_label();
  auto write_data = [&](Token field, uint32_t size) {
    push_data_array(c, x, x.byte_type, size, field);
    c.stloc(kBytes);
    write_all(c, x, kStream, kBytes);
  };
  Region outer = c.begin_try();
  c.emit(Op::Nop);  // the two try blocks started at one label, which took a nop; kept so the output stays the same
  Region inner = c.begin_try();
  c.emit(Op::Ldstr, suffix);
  c.emit(Op::Call, m.output_path);
  c.stloc(kPath);
  c.ldloc(kPath);
  c.ldc(kFileModeCreate);
  c.emit(Op::Newobj, x.file_stream_ctor);
  c.stloc(kStream);
  Region stream = c.begin_try();
  write_data(text.live_header, contract::kLiveHeaderSize);
  c.ldc(counter_bytes);
  c.emit(Op::Newarr, x.byte_type);
  c.stloc(kBytes);
  write_all(c, x, kStream, kBytes);
  write_utf8(c, x, header, kStream, kBytes);
  for (const CountTextChunk& chunk : text.chunks) write_data(chunk.field, chunk.size);
  for (const CountTextChunk& chunk : text.chunks) write_data(chunk.lengths_field, chunk.pieces * 4);
  write_utf8(c, x, tail, kStream, kBytes);
  c.branch(Op::Leave_S, written);
  close_in_finally(c, x, stream, kStream);
  // The mapping: base = MemoryMappedFile.CreateFromFile(path, Open, null, 0)
  //   .CreateViewAccessor().SafeMemoryMappedViewHandle (with a reference added).DangerousGetHandle()
  c.mark(written);
  c.ldloc(kPath);
  c.ldc(kFileModeOpen);
  c.emit(Op::Ldnull);
  c.ldc(0);
  c.emit(Op::Conv_I8);
  c.emit(Op::Call, x.create_from_file);
  c.stloc(kMapping);
  c.ldloc(kMapping);
  c.emit(Op::Callvirt, x.create_view_accessor);
  c.stloc(kView);
  c.ldloc(kView);
  c.emit(Op::Callvirt, x.get_view_handle);
  c.stloc(kHandle);
  c.ldloc(kHandle);
  c.ldloca(kAdded);
  c.emit(Op::Callvirt, x.add_ref);
  c.ldloc(kHandle);
  c.emit(Op::Callvirt, x.get_handle);
  c.stloc(kBase);
  for (auto [slot, local] : {std::pair{4, kMapping}, std::pair{5, kView}}) {  // keep[4], keep[5]
    c.emit(Op::Ldsfld, m.keep);
    c.ldc(slot);
    c.ldloc(local);
    c.emit(Op::Stelem_Ref);
  }
  // cpblk(base + 32, counts, 8 * N); counts = base + 32; base[7] = '1'; live = path
  auto at_base = [&](uint32_t offset) {  // pushes base + offset
    c.ldloc(kBase);
    c.ldc(static_cast<int32_t>(offset));
    c.emit(Op::Add);
  };
  at_base(contract::kLiveHeaderSize);
  c.emit(Op::Ldsfld, m.counts);
  c.ldc(counter_bytes);
  c.emit(Op::Cpblk);
  at_base(contract::kLiveHeaderSize);
  c.emit(Op::Stsfld, m.counts);
  at_base(contract::kLiveStateOffset);
  c.ldc(contract::kLiveCounting);
  c.emit(Op::Stind_I1);
  c.ldloc(kPath);
  c.emit(Op::Stsfld, m.live);
  c.branch(Op::Leave_S, end);
  // catch: delete the file if it was made (a failure here goes to the outer catch).
  c.begin_catch(inner, x.exception);
  c.emit(Op::Pop);
  c.ldloc(kPath);
  c.branch(Op::Brfalse_S, no_file);
  c.ldloc(kPath);
  c.emit(Op::Call, x.file_delete);
  c.mark(no_file);
  c.branch(Op::Leave_S, end);
  c.end_region(inner);
  swallow_then_return(c, x, outer, end);
  return set_body(editor, m.map_live, body, c, effects, false);
}

}  // namespace

Status write_count_runtime(md::ModuleEditor& editor, md::RuntimeRefs& refs, const CountRuntimeMembers& members,
                           const CountRuntimeText& text, CallEffects& effects) {
  Refs x = CIL_TRY(resolve(refs, members.counts_array, members.map_live != 0));
  CIL_TRY(write_cctor(editor, x, members, text.slots, effects));
  CIL_TRY(write_setup(editor, x, members, text, effects));
  for (Token handler : {members.on_exit, members.on_unhandled, members.on_signal})
    CIL_TRY(write_forwarder(editor, members, handler, true, effects));
  CIL_TRY(write_forwarder(editor, members, members.on_timer, false, effects));
  CIL_TRY(write_output_path(editor, x, members, text, effects));
  if (members.map_live) CIL_TRY(write_map_live(editor, x, members, text, effects));
  CIL_TRY(write_write_counts(editor, x, members, text, effects));
  CIL_TRY(write_write_file(editor, x, members, text, effects));
  return write_write_chunk(editor, x, members, effects);
}

}  // namespace cil::instrument
