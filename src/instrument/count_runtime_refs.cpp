// The type and member references count mode's helper code calls (count_runtime_code.h). The
// calls below add TypeRef and MemberRef rows in the order they run, so the order is part of the
// output: reorder nothing.
#include "instrument/count_runtime_code.h"

namespace cil::instrument::count_helper {

namespace {

/// The types the members belong to, beyond those Refs keeps, and the signature types they use.
struct RefTypes {
  TypeSig str = prim(ElementType::String), obj = prim(ElementType::Object), vd = prim(ElementType::Void);
  TypeSig boolean = prim(ElementType::Boolean), native_int = prim(ElementType::I), i4 = prim(ElementType::I4);
  TypeSig bytes = md::wrap(ElementType::SzArray, prim(ElementType::U1));
  TypeSig objects = md::wrap(ElementType::SzArray, prim(ElementType::Object));
  Token event_handler, unhandled_handler, assembly, string_type, environment, directory,
        path, file, file_stream, file_mode, monitor, timer, timer_callback, encoding,
        array, field_handle, runtime_helpers, method_base, binding_flags, enum_type,
        console;
  TypeSig type_sig, domain_sig;
};

Status resolve_types(md::RuntimeRefs& r, Refs& x, RefTypes& t) {
  x.object = CIL_TRY(r.type("System", "Object"));
  x.object_ctor = CIL_TRY(r.member(x.object, ".ctor", sig(true, t.vd, {})));
  x.int64 = CIL_TRY(r.type("System", "Int64"));
  x.int32 = CIL_TRY(r.type("System", "Int32"));
  x.byte_type = CIL_TRY(r.type("System", "Byte"));
  x.exception = CIL_TRY(r.type("System", "Exception"));
  x.type = CIL_TRY(r.type("System", "Type"));
  x.runtime_type_handle = CIL_TRY(r.type("System", "RuntimeTypeHandle"));
  x.app_domain = CIL_TRY(r.type("System", "AppDomain"));
  t.event_handler = CIL_TRY(r.type("System", "EventHandler"));
  t.unhandled_handler = CIL_TRY(r.type("System", "UnhandledExceptionEventHandler"));
  t.assembly = CIL_TRY(r.type("System.Reflection", "Assembly"));
  x.text_writer = CIL_TRY(r.type("System.IO", "TextWriter"));
  t.string_type = CIL_TRY(r.type("System", "String"));
  t.environment = CIL_TRY(r.type("System", "Environment"));
  t.directory = CIL_TRY(r.type("System.IO", "Directory"));
  t.path = CIL_TRY(r.type("System.IO", "Path"));
  t.file = CIL_TRY(r.type("System.IO", "File"));
  t.file_stream = CIL_TRY(r.type("System.IO", "FileStream"));
  t.file_mode = CIL_TRY(r.type("System.IO", "FileMode"));
  x.stream = CIL_TRY(r.type("System.IO", "Stream"));
  t.monitor = CIL_TRY(r.type("System.Threading", "Monitor"));
  t.timer = CIL_TRY(r.type("System.Threading", "Timer"));
  t.timer_callback = CIL_TRY(r.type("System.Threading", "TimerCallback"));
  t.encoding = CIL_TRY(r.type("System.Text", "Encoding"));
  t.array = CIL_TRY(r.type("System", "Array"));
  t.field_handle = CIL_TRY(r.type("System", "RuntimeFieldHandle"));
  t.runtime_helpers = CIL_TRY(r.type("System.Runtime.CompilerServices", "RuntimeHelpers"));
  t.method_base = CIL_TRY(r.type("System.Reflection", "MethodBase"));
  x.method_info = CIL_TRY(r.type("System.Reflection", "MethodInfo"));
  x.parameter_info = CIL_TRY(r.type("System.Reflection", "ParameterInfo"));
  t.binding_flags = CIL_TRY(r.type("System.Reflection", "BindingFlags"));
  x.delegate = CIL_TRY(r.type("System", "Delegate"));
  t.enum_type = CIL_TRY(r.type("System", "Enum"));
  t.console = r.kind() == md::CoreLibraryKind::Mscorlib ? CIL_TRY(r.type("System", "Console"))
                                                        : CIL_TRY(r.type_in(r.console_assembly(), "System", "Console"));
  t.type_sig = md::class_type(x.type);
  t.domain_sig = md::class_type(x.app_domain);
  return ok();
}

/// The domain's events and data, the environment, paths and strings, the console.
Status resolve_domain_members(md::RuntimeRefs& r, Refs& x, const RefTypes& t) {
  const TypeSig &str = t.str, &obj = t.obj, &vd = t.vd, &boolean = t.boolean, &native_int = t.native_int, &i4 = t.i4;
  x.get_current_domain = CIL_TRY(r.member(x.app_domain, "get_CurrentDomain", sig(false, t.domain_sig, {})));
  x.add_process_exit = CIL_TRY(r.member(x.app_domain, "add_ProcessExit", sig(true, vd, {md::class_type(t.event_handler)})));
  x.add_unhandled = CIL_TRY(r.member(x.app_domain, "add_UnhandledException", sig(true, vd, {md::class_type(t.unhandled_handler)})));
  x.event_handler_ctor = CIL_TRY(r.member(t.event_handler, ".ctor", sig(true, vd, {obj, native_int})));
  x.unhandled_handler_ctor = CIL_TRY(r.member(t.unhandled_handler, ".ctor", sig(true, vd, {obj, native_int})));
  x.get_data = CIL_TRY(r.member(x.app_domain, "GetData", sig(true, obj, {str})));
  x.set_data = CIL_TRY(r.member(x.app_domain, "SetData", sig(true, vd, {str, obj})));
  x.is_default_domain = CIL_TRY(r.member(x.app_domain, "IsDefaultAppDomain", sig(true, boolean, {})));
  x.domain_id = CIL_TRY(r.member(x.app_domain, "get_Id", sig(true, i4, {})));
  x.get_env = CIL_TRY(r.member(t.environment, "GetEnvironmentVariable", sig(false, str, {str})));
  x.is_null_or_empty = CIL_TRY(r.member(t.string_type, "IsNullOrEmpty", sig(false, boolean, {str})));
  x.dir_exists = CIL_TRY(r.member(t.directory, "Exists", sig(false, boolean, {str})));
  x.get_type_from_handle = CIL_TRY(r.member(x.type, "GetTypeFromHandle", sig(false, t.type_sig, {md::value_type(x.runtime_type_handle)})));
  x.get_assembly = CIL_TRY(r.member(x.type, "get_Assembly", sig(true, md::class_type(t.assembly), {})));
  x.get_location = CIL_TRY(r.member(t.assembly, "get_Location", sig(true, str, {})));
  x.get_directory_name = CIL_TRY(r.member(t.path, "GetDirectoryName", sig(false, str, {str})));
  x.path_combine = CIL_TRY(r.member(t.path, "Combine", sig(false, str, {str, str})));
  x.concat2 = CIL_TRY(r.member(t.string_type, "Concat", sig(false, str, {str, str})));
  x.concat3 = CIL_TRY(r.member(t.string_type, "Concat", sig(false, str, {str, str, str})));
  x.concat4 = CIL_TRY(r.member(t.string_type, "Concat", sig(false, str, {str, str, str, str})));
  x.intern = CIL_TRY(r.member(t.string_type, "Intern", sig(false, str, {str})));
  x.int32_to_string = CIL_TRY(r.member(x.int32, "ToString", sig(true, str, {})));
  x.int32_try_parse = CIL_TRY(r.member(x.int32, "TryParse", sig(false, boolean, {str, md::wrap(ElementType::ByRef, i4)})));
  x.get_error = CIL_TRY(r.member(t.console, "get_Error", sig(false, md::class_type(x.text_writer), {})));
  x.write_line = CIL_TRY(r.member(x.text_writer, "WriteLine", sig(true, vd, {str})));
  x.get_message = CIL_TRY(r.member(x.exception, "get_Message", sig(true, str, {})));
  return ok();
}

/// The lock, files and streams, the timer, and the reflection that finds the signals.
Status resolve_io_members(md::RuntimeRefs& r, Refs& x, const RefTypes& t) {
  const TypeSig &str = t.str, &obj = t.obj, &vd = t.vd, &boolean = t.boolean, &native_int = t.native_int, &i4 = t.i4;
  const TypeSig& type_sig = t.type_sig;
  x.monitor_enter = CIL_TRY(r.member(t.monitor, "Enter", sig(false, vd, {obj})));
  x.monitor_exit = CIL_TRY(r.member(t.monitor, "Exit", sig(false, vd, {obj})));
  x.file_exists = CIL_TRY(r.member(t.file, "Exists", sig(false, boolean, {str})));
  x.file_replace = CIL_TRY(r.member(t.file, "Replace", sig(false, vd, {str, str, str})));
  x.file_move = CIL_TRY(r.member(t.file, "Move", sig(false, vd, {str, str})));
  x.file_stream_ctor = CIL_TRY(r.member(t.file_stream, ".ctor", sig(true, vd, {str, md::value_type(t.file_mode)})));
  x.stream_write = CIL_TRY(r.member(x.stream, "Write", sig(true, vd, {t.bytes, i4, i4})));
  x.stream_close = CIL_TRY(r.member(x.stream, "Close", sig(true, vd, {})));
  x.get_utf8 = CIL_TRY(r.member(t.encoding, "get_UTF8", sig(false, md::class_type(t.encoding), {})));
  x.get_bytes = CIL_TRY(r.member(t.encoding, "GetBytes", sig(true, t.bytes, {str})));
  x.initialize_array = CIL_TRY(r.member(t.runtime_helpers, "InitializeArray", sig(false, vd, {md::class_type(t.array), md::value_type(t.field_handle)})));
  x.timer_callback_ctor = CIL_TRY(r.member(t.timer_callback, ".ctor", sig(true, vd, {obj, native_int})));
  x.timer_ctor = CIL_TRY(r.member(t.timer, ".ctor", sig(true, vd, {md::class_type(t.timer_callback), obj, i4, i4})));
  x.type_get_type = CIL_TRY(r.member(x.type, "GetType", sig(false, type_sig, {str, boolean})));
  x.type_get_method = CIL_TRY(r.member(x.type, "GetMethod", sig(true, md::class_type(x.method_info), {str})));
  x.type_get_method_flags = CIL_TRY(r.member(x.type, "GetMethod", sig(true, md::class_type(x.method_info), {str, md::value_type(t.binding_flags)})));
  x.get_parameters = CIL_TRY(r.member(t.method_base, "GetParameters", sig(true, md::wrap(ElementType::SzArray, md::class_type(x.parameter_info)), {})));
  x.parameter_type = CIL_TRY(r.member(x.parameter_info, "get_ParameterType", sig(true, type_sig, {})));
  x.create_delegate = CIL_TRY(r.member(x.delegate, "CreateDelegate", sig(false, md::class_type(x.delegate), {type_sig, md::class_type(x.method_info)})));
  x.enum_parse = CIL_TRY(r.member(t.enum_type, "Parse", sig(false, obj, {type_sig, str})));
  x.method_invoke = CIL_TRY(r.member(t.method_base, "Invoke", sig(true, obj, {obj, t.objects})));
  return ok();
}

/// The live file's mapping: MemoryMappedFile (System.IO.MemoryMappedFiles, or netstandard) and
/// the handle whose reference keeps the view mapped.
Status resolve_live_members(md::RuntimeRefs& r, Refs& x, const RefTypes& t) {
  md::AssemblyRefSpec mapped = r.memory_mapped_files_assembly();
  x.mmf = CIL_TRY(r.type_in(mapped, "System.IO.MemoryMappedFiles", "MemoryMappedFile"));
  x.view_accessor = CIL_TRY(r.type_in(mapped, "System.IO.MemoryMappedFiles", "MemoryMappedViewAccessor"));
  x.view_handle = CIL_TRY(r.type_in(mapped, "Microsoft.Win32.SafeHandles", "SafeMemoryMappedViewHandle"));
  Token safe_handle = CIL_TRY(r.type("System.Runtime.InteropServices", "SafeHandle"));
  x.create_from_file = CIL_TRY(r.member(
      x.mmf, "CreateFromFile", sig(false, md::class_type(x.mmf), {t.str, md::value_type(t.file_mode), t.str, prim(ElementType::I8)})));
  x.create_view_accessor = CIL_TRY(r.member(x.mmf, "CreateViewAccessor", sig(true, md::class_type(x.view_accessor), {})));
  x.get_view_handle =
      CIL_TRY(r.member(x.view_accessor, "get_SafeMemoryMappedViewHandle", sig(true, md::class_type(x.view_handle), {})));
  x.add_ref = CIL_TRY(r.member(safe_handle, "DangerousAddRef", sig(true, t.vd, {md::wrap(ElementType::ByRef, t.boolean)})));
  x.get_handle = CIL_TRY(r.member(safe_handle, "DangerousGetHandle", sig(true, t.native_int, {})));
  return ok();
}

/// The process id: Environment.ProcessId on .NET 5 and later, Process.GetCurrentProcess().Id on
/// .NET Framework and netstandard.
Status resolve_pid(md::RuntimeRefs& r, Refs& x, const RefTypes& t) {
  if (r.kind() == md::CoreLibraryKind::PrivateCoreLib) {
    x.pid_get = CIL_TRY(r.member(t.environment, "get_ProcessId", sig(false, t.i4, {})));
    return ok();
  }
  Token process = CIL_TRY(r.type_in(r.process_assembly(), "System.Diagnostics", "Process"));
  x.pid_source = CIL_TRY(r.member(process, "GetCurrentProcess", sig(false, md::class_type(process), {})));
  x.pid_get = CIL_TRY(r.member(process, "get_Id", sig(true, t.i4, {})));
  x.pid_is_process = true;
  return ok();
}

/// What inflates the packed skeleton: MemoryStream and Buffer (core library), DeflateStream
/// (System.IO.Compression, or System on .NET Framework).
Status resolve_unpack_members(md::RuntimeRefs& r, Refs& x, const RefTypes& t) {
  Token memory_stream = CIL_TRY(r.type("System.IO", "MemoryStream"));
  x.memory_stream_ctor = CIL_TRY(r.member(memory_stream, ".ctor", sig(true, t.vd, {})));
  x.stream_set_position = CIL_TRY(r.member(x.stream, "set_Position", sig(true, t.vd, {prim(ElementType::I8)})));
  x.stream_read = CIL_TRY(r.member(x.stream, "Read", sig(true, t.i4, {t.bytes, t.i4, t.i4})));
  md::AssemblyRefSpec compression = r.compression_assembly();
  Token deflate_stream = CIL_TRY(r.type_in(compression, "System.IO.Compression", "DeflateStream"));
  Token mode = CIL_TRY(r.type_in(compression, "System.IO.Compression", "CompressionMode"));
  x.deflate_stream_ctor =
      CIL_TRY(r.member(deflate_stream, ".ctor", sig(true, t.vd, {md::class_type(x.stream), md::value_type(mode)})));
  Token buffer = CIL_TRY(r.type("System", "Buffer"));
  TypeSig array = md::class_type(t.array);
  x.block_copy = CIL_TRY(r.member(buffer, "BlockCopy", sig(false, t.vd, {array, t.i4, array, t.i4, t.i4})));
  x.exception_ctor = CIL_TRY(r.member(x.exception, ".ctor", sig(true, t.vd, {t.str})));
  return ok();
}

}  // namespace

Expected<Refs> resolve(md::RuntimeRefs& r, bool counts_array, bool live, bool packed) {
  Refs x{};
  RefTypes t;
  CIL_TRY(resolve_types(r, x, t));
  CIL_TRY(resolve_domain_members(r, x, t));
  CIL_TRY(resolve_io_members(r, x, t));
  if (!counts_array) {
    Token marshal = CIL_TRY(r.type("System.Runtime.InteropServices", "Marshal"));
    x.alloc_hglobal = CIL_TRY(r.member(marshal, "AllocHGlobal", sig(false, t.native_int, {t.i4})));
  }
  x.file_delete = CIL_TRY(r.member(t.file, "Delete", sig(false, t.vd, {t.str})));
  if (live) CIL_TRY(resolve_live_members(r, x, t));
  CIL_TRY(resolve_pid(r, x, t));
  if (packed) CIL_TRY(resolve_unpack_members(r, x, t));
  return x;
}

}  // namespace cil::instrument::count_helper
