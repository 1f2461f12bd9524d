// What the files that write count mode's helper code share (count_runtime.h is the public side):
// the references the code calls, the steps several bodies take, and one writer per method. The
// names live in a namespace of their own, not an anonymous one, so the files build in one unity
// batch without clashing.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "il/code_builder.h"
#include "instrument/count_runtime.h"
#include "instrument/runtime_contract.h"
#include "metadata/signature.h"

namespace cil::instrument::count_helper {

using md::ElementType;
using md::Token;
using md::TypeSig;

inline TypeSig prim(ElementType e) { return md::primitive(e); }
inline std::vector<uint8_t> sig(bool has_this, const TypeSig& ret, const std::vector<TypeSig>& params) {
  return md::method_signature(has_this, ret, params);
}

// Values of runtime enums (System.IO.FileMode.Create and Open; System.Reflection.BindingFlags.Static
// (8) plus BindingFlags.NonPublic (32)), not metadata flags.
inline constexpr int32_t kFileModeCreate = 2;
inline constexpr int32_t kFileModeOpen = 3;
inline constexpr int32_t kStaticNonPublic = 8 + 32;
// Longest decimal uint64.
inline constexpr int32_t kDigits = 20;
// The flush period is capped so that seconds * 1000 fits an int32 (Timer's milliseconds); the
// profiler caps it the same way.
inline constexpr int32_t kMaxFlushSeconds = static_cast<int32_t>(contract::kMaxFlushSeconds);
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
  // The packed skeleton's inflation (packed only).
  Token memory_stream_ctor, stream_set_position, stream_read, deflate_stream_ctor, block_copy, exception_ctor;
  bool pid_is_process = false;
};

/// Adds the references (count_runtime_refs.cpp). Their order is the order of the rows they add,
/// which the output's bytes depend on.
Expected<Refs> resolve(md::RuntimeRefs& r, bool counts_array, bool live, bool packed);

// Steps several bodies take (count_runtime_steps.cpp).

/// Writes the code `c` built as a helper body, with its max stack computed.
Status set_body(md::ModuleEditor& editor, Token method, BodyModel& body, CodeBuilder& c, CallEffects& effects,
                bool returns_value);
Expected<Token> str_token(md::ModuleEditor& editor, std::string_view s);
Expected<Token> locals_sig(md::ModuleEditor& editor, const std::vector<TypeSig>& types);
/// Pushes a new `element`[] of `count` elements filled from the static data `field` (II.16.3.2:
/// what C#'s array initializers compile to).
void push_data_array(CodeBuilder& c, const Refs& x, Token element, uint32_t count, Token field);
/// stream.Write(bytes, 0, bytes.Length), with the stream and the bytes in locals.
void write_all(CodeBuilder& c, const Refs& x, uint32_t stream, uint32_t bytes);
/// bytes = Encoding.UTF8.GetBytes(s); stream.Write(bytes, 0, bytes.Length).
void write_utf8(CodeBuilder& c, const Refs& x, Token s, uint32_t stream, uint32_t bytes);
/// The finally handler of `region`, which closes the stream in local `stream`.
void close_in_finally(CodeBuilder& c, const Refs& x, Region region, uint32_t stream);
/// The locals unpack() uses, to append to a body's own: two streams, the inflated bytes, two ints.
std::vector<TypeSig> unpack_locals(const Refs& x);
/// Inflates the packed skeleton (count_runtime_unpack.cpp) into a new byte[] in local `first + 2`
/// (the method text, then every slot's int32 length), with unpack_locals() from local `first`.
/// Damaged data throws, which the body's handler reports as any other failure.
Status unpack(md::ModuleEditor& editor, CodeBuilder& c, const Refs& x, const CountRuntimeText& text, uint32_t first);
/// The end of a body whose outermost region swallows any exception: its handler drops it and
/// leaves to `end`, which returns.
void swallow_then_return(CodeBuilder& c, const Refs& x, Region region, Label end);

// One writer per method: the class constructor, Setup and the handlers that forward to the
// writer (count_runtime_setup.cpp); OutputPath and the writer (count_runtime_write.cpp); MapLive
// (count_runtime_live.cpp).

Status write_cctor(md::ModuleEditor& editor, const Refs& x, const CountRuntimeMembers& m, uint32_t slots,
                   CallEffects& effects);
Status write_setup(md::ModuleEditor& editor, const Refs& x, const CountRuntimeMembers& m, const CountRuntimeText& text,
                   CallEffects& effects);
Status write_forwarder(md::ModuleEditor& editor, const CountRuntimeMembers& m, Token method, bool final,
                       CallEffects& effects);
Status write_output_path(md::ModuleEditor& editor, const Refs& x, const CountRuntimeMembers& m,
                         const CountRuntimeText& text, CallEffects& effects);
Status write_write_counts(md::ModuleEditor& editor, const Refs& x, const CountRuntimeMembers& m,
                          const CountRuntimeText& text, CallEffects& effects);
Status write_write_file(md::ModuleEditor& editor, const Refs& x, const CountRuntimeMembers& m,
                        const CountRuntimeText& text, CallEffects& effects);
Status write_write_chunk(md::ModuleEditor& editor, const Refs& x, const CountRuntimeMembers& m, CallEffects& effects);
Status write_map_live(md::ModuleEditor& editor, const Refs& x, const CountRuntimeMembers& m, const CountRuntimeText& text,
                      CallEffects& effects);

}  // namespace cil::instrument::count_helper
