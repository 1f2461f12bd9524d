// MapLive, the body of count mode's helper that moves the counters into the live file while the
// program runs (count_runtime_code.h; the file's layout is runtime_contract.h's).
#include "instrument/count_runtime_code.h"

#include <utility>

namespace cil::instrument::count_helper {

namespace {

/// MapLive's body in parts that share its builder, references and locals.
struct MapLiveCode {
  enum : uint32_t { kPath, kStream, kBytes, kMapping, kView, kHandle, kAdded, kBase, kUnpack };
  CodeBuilder& c;
  const Refs& x;
  const CountRuntimeMembers& m;
  const CountRuntimeText& text;

  void write_data(Token field, uint32_t size) {
    push_data_array(c, x, x.byte_type, size, field);
    c.stloc(kBytes);
    write_all(c, x, kStream, kBytes);
  }

  /// The file: the header with its state byte at "writing", the counters so far (zeros), the
  /// text, every chunk's bytes and lengths, the tail; the stream is closed on every path.
  void write_file(Token suffix, Token header, Token tail, int32_t counter_bytes, Label written) {
    c.ldstr(suffix);
    c.call(m.output_path);
    c.stloc(kPath);
    c.ldloc(kPath);
    c.ldc(kFileModeCreate);
    c.newobj(x.file_stream_ctor);
    c.stloc(kStream);
    Region stream = c.begin_try();
    write_data(text.live_header, contract::kLiveHeaderSize);
    c.ldc(counter_bytes);
    c.newarr(x.byte_type);
    c.stloc(kBytes);
    write_all(c, x, kStream, kBytes);
    write_utf8(c, x, header, kStream, kBytes);
    for (const CountTextChunk& chunk : text.chunks) write_data(chunk.field, chunk.size);
    for (const CountTextChunk& chunk : text.chunks) write_data(chunk.lengths_field, chunk.pieces * 4);
    if (!text.packed.empty()) write_all(c, x, kStream, kUnpack + 2);  // inflated: the text, then the lengths
    write_utf8(c, x, tail, kStream, kBytes);
    c.leave(written);
    close_in_finally(c, x, stream, kStream);
  }

  /// The mapping: base = MemoryMappedFile.CreateFromFile(path, Open, null, 0)
  ///   .CreateViewAccessor().SafeMemoryMappedViewHandle (with a reference added).DangerousGetHandle()
  void map() {
    c.ldloc(kPath);
    c.ldc(kFileModeOpen);
    c.ldnull();
    c.ldc(0);
    c.emit(Op::Conv_I8);
    c.call(x.create_from_file);
    c.stloc(kMapping);
    c.ldloc(kMapping);
    c.callvirt(x.create_view_accessor);
    c.stloc(kView);
    c.ldloc(kView);
    c.callvirt(x.get_view_handle);
    c.stloc(kHandle);
    c.ldloc(kHandle);
    c.ldloca(kAdded);
    c.callvirt(x.add_ref);
    c.ldloc(kHandle);
    c.callvirt(x.get_handle);
    c.stloc(kBase);
    for (auto [slot, local] : {std::pair{4, kMapping}, std::pair{5, kView}}) {  // keep[4], keep[5]
      c.ldsfld(m.keep);
      c.ldc(slot);
      c.ldloc(local);
      c.emit(Op::Stelem_Ref);
    }
  }

  /// Pushes base + offset.
  void at_base(uint32_t offset) {
    c.ldloc(kBase);
    c.ldc(static_cast<int32_t>(offset));
    c.emit(Op::Add);
  }

  /// cpblk(base + 32, counts, 8 * N); counts = base + 32; base[7] = '1'; live = path
  void move_counters(int32_t counter_bytes) {
    at_base(contract::kLiveHeaderSize);
    c.ldsfld(m.counts);
    c.ldc(counter_bytes);
    c.emit(Op::Cpblk);
    at_base(contract::kLiveHeaderSize);
    c.stsfld(m.counts);
    at_base(contract::kLiveStateOffset);
    c.ldc(contract::kLiveCounting);
    c.emit(Op::Stind_I1);
    c.ldloc(kPath);
    c.stsfld(m.live);
  }
};

}  // namespace

/// MapLive: writes the live file (runtime_contract.h) with its state byte at "writing", maps it,
/// copies the counters counted so far (by code the class constructor itself ran) into it, points
/// `counts` at them and sets the state byte to "counting". The mapping is kept for the life of
/// the process: a reference added to its handle means no Dispose or finalizer ever unmaps it
/// while probes run. Any failure leaves the counters in native memory (the counts file is still
/// written at the end) and deletes the file if it was made.
Status write_map_live(md::ModuleEditor& editor, const Refs& x, const CountRuntimeMembers& m, const CountRuntimeText& text,
                      CallEffects& effects) {
  using L = MapLiveCode;
  TypeSig bytes_sig = md::wrap(ElementType::SzArray, prim(ElementType::U1));
  BodyModel body;
  std::vector<TypeSig> locals{prim(ElementType::String), md::class_type(x.stream), bytes_sig, md::class_type(x.mmf),
                              md::class_type(x.view_accessor), md::class_type(x.view_handle), prim(ElementType::Boolean),
                              prim(ElementType::I)};
  if (!text.packed.empty())
    for (const TypeSig& t : unpack_locals(x)) locals.push_back(t);
  body.local_sig_token = CIL_TRY(locals_sig(editor, locals));
  body.init_locals = true;
  Token suffix = CIL_TRY(str_token(editor, text.live_suffix));
  Token header = CIL_TRY(str_token(editor, text.header));
  Token tail = CIL_TRY(str_token(editor, text.tail));
  auto counter_bytes = static_cast<int32_t>(text.slots * 8);
  CodeBuilder c(body);
  Label written = c.new_label(), no_file = c.new_label(), end = c.new_label();
  MapLiveCode live{c, x, m, text};
  Region outer = c.begin_try();
  c.emit(Op::Nop);  // the two try blocks started at one label, which took a nop; kept so the output stays the same
  Region inner = c.begin_try();
  // A packed table is inflated before the file is made: a failure then leaves no file.
  if (!text.packed.empty()) CIL_TRY(unpack(editor, c, x, text, L::kUnpack));
  live.write_file(suffix, header, tail, counter_bytes, written);
  c.mark(written);
  live.map();
  live.move_counters(counter_bytes);
  c.leave(end);
  // catch: delete the file if it was made (a failure here goes to the outer catch).
  c.begin_catch(inner, x.exception);
  c.pop();
  c.ldloc(L::kPath);
  c.brfalse(no_file);
  c.ldloc(L::kPath);
  c.call(x.file_delete);
  c.mark(no_file);
  c.leave(end);
  c.end_region(inner);
  swallow_then_return(c, x, outer, end);
  return set_body(editor, m.map_live, body, c, effects, false);
}

}  // namespace cil::instrument::count_helper
