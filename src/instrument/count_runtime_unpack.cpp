// Inflating the packed skeleton (skeleton_pack.h) in count mode's helper at run time
// (count_runtime_code.h): the step WriteFile and MapLive take first when the method table is
// packed.
#include "instrument/count_runtime_code.h"

#include <cstdint>

#include <fmt/format.h>

namespace cil::instrument::count_helper {

std::vector<TypeSig> unpack_locals(const Refs& x) {
  TypeSig stream = md::class_type(x.stream), i4 = prim(ElementType::I4);
  return {stream, stream, md::wrap(ElementType::SzArray, prim(ElementType::U1)), i4, i4};
}

/// packed = new MemoryStream(); packed.Write(each data field); packed.Position = 0;
/// inflater = new DeflateStream(packed, CompressionMode.Decompress);
/// all = new byte[method text + 4 * slots]; read until full;
/// if (at != all.Length) throw new Exception(...); inflater.Close()
/// The compressed data is a few hundred kilobytes at most: one copy of it in a MemoryStream is
/// cheaper than a stream over the data fields.
Status unpack(md::ModuleEditor& editor, CodeBuilder& c, const Refs& x, const CountRuntimeText& text, uint32_t first) {
  const uint32_t packed = first, inflater = first + 1, all = first + 2, at = first + 3, got = first + 4;
  constexpr int32_t kDecompress = 0;  // System.IO.Compression.CompressionMode.Decompress
  uint64_t total64 = uint64_t{text.method_text} + uint64_t{text.slots} * 4;
  if (total64 > INT32_MAX)
    return make_error(ErrorKind::Limit, "count mode", fmt::format("a method table of {} bytes does not fit one array", total64));
  auto total = static_cast<int32_t>(total64);
  Token damaged = CIL_TRY(str_token(editor, "the packed method table inflates to fewer bytes than it holds"));
  Label loop = c.new_label(), read = c.new_label(), full = c.new_label();
  c.newobj(x.memory_stream_ctor);
  c.stloc(packed);
  for (const CountTextChunk& piece : text.packed) {
    c.ldloc(packed);
    push_data_array(c, x, x.byte_type, piece.size, piece.field);
    c.ldc(0);
    c.ldc(static_cast<int32_t>(piece.size));
    c.callvirt(x.stream_write);
  }
  c.ldloc(packed);
  c.ldc(0);
  c.emit(Op::Conv_I8);
  c.callvirt(x.stream_set_position);
  c.ldloc(packed);
  c.ldc(kDecompress);
  c.newobj(x.deflate_stream_ctor);
  c.stloc(inflater);
  c.ldc(total);
  c.newarr(x.byte_type);
  c.stloc(all);
  // while (at < total && (got = inflater.Read(all, at, total - at)) > 0) at += got;
  c.mark(loop);
  c.ldloc(at);
  c.ldc(total);
  c.branch(Op::Bge, full);
  c.ldloc(inflater);
  c.ldloc(all);
  c.ldloc(at);
  c.ldc(total);
  c.ldloc(at);
  c.emit(Op::Sub);
  c.callvirt(x.stream_read);
  c.stloc(got);
  c.ldloc(got);
  c.ldc(0);
  c.branch(Op::Ble, full);
  c.ldloc(at);
  c.ldloc(got);
  c.emit(Op::Add);
  c.stloc(at);
  c.branch(Op::Br, loop);
  c.mark(full);
  c.ldloc(at);
  c.ldc(total);
  c.branch(Op::Beq, read);
  c.ldstr(damaged);
  c.newobj(x.exception_ctor);
  c.emit(Op::Throw);
  c.mark(read);
  c.ldloc(inflater);
  c.callvirt(x.stream_close);
  return ok();
}

}  // namespace cil::instrument::count_helper
