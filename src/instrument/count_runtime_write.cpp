// The writer of count mode's helper (count_runtime_code.h): the counts file's path, the one
// writer every ending calls (lock, write a temporary file, rename it over the file), the file's
// text and the formatting of each count.
#include "instrument/count_runtime_code.h"

namespace cil::instrument::count_helper {

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
  c.ldstr(variable);
  c.call(x.get_env);
  c.stloc(kDir);
  c.ldloc(kDir);
  c.call(x.is_null_or_empty);
  c.brtrue(use_assembly_dir);
  c.ldloc(kDir);
  c.call(x.dir_exists);
  c.brtrue(have_dir);
  c.mark(use_assembly_dir);
  c.ldtoken(md::make_token(md::TableId::TypeDef, m.helper_type));
  c.call(x.get_type_from_handle);
  c.callvirt(x.get_assembly);
  c.callvirt(x.get_location);
  c.call(x.get_directory_name);
  c.stloc(kDir);
  c.ldloc(kDir);
  c.call(x.is_null_or_empty);
  c.brfalse(have_dir);
  c.ldstr(dot);
  c.stloc(kDir);
  c.mark(have_dir);
  if (x.pid_is_process) {
    c.call(x.pid_source);
    c.callvirt(x.pid_get);
  } else {
    c.call(x.pid_get);
  }
  c.stloc(kPid);
  c.ldloc(kDir);
  c.ldstr(prefix);
  c.ldloca(kPid);
  c.call(x.int32_to_string);
  c.ldsfld(m.tag);
  c.ldarg(0);
  c.call(x.concat4);
  c.call(x.path_combine);
  c.ret();
  return set_body(editor, m.output_path, body, c, effects, true);
}

namespace {

/// WriteCounts' locals.
enum WriteCountsLocal : uint32_t { kCountsFile, kCountsTemp };

/// The handler of WriteCounts' catch (Exception e): say why on stderr and carry on. Then
/// try { File.Delete(temp); } catch (Exception) { }: a write that failed half-way (a full disk)
/// leaves no temporary file behind. temp is null when the failure came before it was named, and
/// File.Delete(null) throws, which is caught here as any other failure of the cleanup is.
void report_and_clean_up(CodeBuilder& c, const Refs& x, Token failure, Label end) {
  c.callvirt(x.get_message);
  c.stloc(kCountsFile);
  c.call(x.get_error);
  c.ldstr(failure);
  c.ldloc(kCountsFile);
  c.call(x.concat2);
  c.callvirt(x.write_line);
  Region cleanup = c.begin_try();
  c.ldloc(kCountsTemp);
  c.call(x.file_delete);
  c.leave(end);
  c.begin_catch(cleanup, x.exception);
  c.pop();
  c.leave(end);
  c.end_region(cleanup);
}

}  // namespace

/// WriteCounts(bool final): the one writer. lock (gate) { WriteFile(path + ".tmp"); rename over
/// path } so a signal during a flush waits for it, and a reader or a kill never sees a partial
/// file. A final write (an ending, not the flush timer) then deletes the live file, whose counts
/// the file now holds. A failure prints one line on standard error and removes the temporary
/// file; the program's own ending must not change.
Status write_write_counts(md::ModuleEditor& editor, const Refs& x, const CountRuntimeMembers& m,
                          const CountRuntimeText& text, CallEffects& effects) {
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
  c.ldsfld(m.gate);
  c.call(x.monitor_enter);
  Region lock = c.begin_try();
  // file = OutputPath(".counts.json"); temp = file + ".tmp"
  c.ldstr(suffix);
  c.call(m.output_path);
  c.stloc(kCountsFile);
  c.ldloc(kCountsFile);
  c.ldstr(temp_suffix);
  c.call(x.concat2);
  c.stloc(kCountsTemp);
  c.ldloc(kCountsTemp);
  c.call(m.write_file);
  // rename(2) either way: File.Replace when the file exists (File.Move refuses to overwrite on
  // .NET Framework and Mono), File.Move for the first write.
  c.ldloc(kCountsFile);
  c.call(x.file_exists);
  c.brfalse(move);
  c.ldloc(kCountsTemp);
  c.ldloc(kCountsFile);
  c.ldnull();
  c.call(x.file_replace);
  c.br(renamed);
  c.mark(move);
  c.ldloc(kCountsTemp);
  c.ldloc(kCountsFile);
  c.call(x.file_move);
  // if (final && live != null) { File.Delete(live); live = null; }
  c.mark(renamed);
  c.ldarg(0);
  c.brfalse(written);
  c.ldsfld(m.live);
  c.brfalse(written);
  c.ldsfld(m.live);
  c.call(x.file_delete);
  c.ldnull();
  c.stsfld(m.live);
  c.mark(written);
  c.leave(after_lock);
  c.begin_finally(lock);
  c.ldsfld(m.gate);
  c.call(x.monitor_exit);
  c.endfinally();
  c.end_region(lock);
  c.mark(after_lock);
  c.leave(end);
  c.begin_catch(outer, x.exception);
  report_and_clean_up(c, x, failure, end);
  c.end_region(outer);
  c.mark(end);
  c.ret();
  return set_body(editor, m.write, body, c, effects, false);
}

/// WriteFile(string path): the header, every chunk with its counts, the tail; the stream is
/// closed on every path. A packed table is inflated first and written as one chunk.
Status write_write_file(md::ModuleEditor& editor, const Refs& x, const CountRuntimeMembers& m,
                        const CountRuntimeText& text, CallEffects& effects) {
  enum : uint32_t { kStream, kSlot, kDigitBuffer, kBytes, kLengths, kUnpack };
  TypeSig bytes = md::wrap(ElementType::SzArray, prim(ElementType::U1));
  bool packed = !text.packed.empty();
  std::vector<TypeSig> locals{md::class_type(x.stream), prim(ElementType::I4), bytes, bytes};
  if (packed) {
    locals.push_back(md::wrap(ElementType::SzArray, prim(ElementType::I4)));
    for (const TypeSig& t : unpack_locals(x)) locals.push_back(t);
  }
  BodyModel body;
  body.local_sig_token = CIL_TRY(locals_sig(editor, locals));
  body.init_locals = true;
  Token header = CIL_TRY(str_token(editor, text.header));
  Token tail = CIL_TRY(str_token(editor, text.tail));
  CodeBuilder c(body);
  Label end = c.new_label();
  c.ldarg(0);
  c.ldc(kFileModeCreate);
  c.newobj(x.file_stream_ctor);
  c.stloc(kStream);
  Region stream = c.begin_try();
  write_utf8(c, x, header, kStream, kBytes);
  c.ldc(kDigits);
  c.newarr(x.byte_type);
  c.stloc(kDigitBuffer);
  // slot = WriteChunk(stream, <chunk bytes>, <chunk lengths>, slot, digits), for every chunk.
  for (const CountTextChunk& chunk : text.chunks) {
    c.ldloc(kStream);
    push_data_array(c, x, x.byte_type, chunk.size, chunk.field);
    push_data_array(c, x, x.int32, chunk.pieces, chunk.lengths_field);
    c.ldloc(kSlot);
    c.ldloc(kDigitBuffer);
    c.call(m.write_chunk);
    c.stloc(kSlot);
  }
  if (packed) {
    // all = the inflated table; lengths = new int[slots], copied from its end;
    // WriteChunk(stream, all, lengths, 0, digits)
    CIL_TRY(unpack(editor, c, x, text, kUnpack));
    const uint32_t all = kUnpack + 2;
    c.ldc(static_cast<int32_t>(text.slots));
    c.newarr(x.int32);
    c.stloc(kLengths);
    c.ldloc(all);
    c.ldc(static_cast<int32_t>(text.method_text));
    c.ldloc(kLengths);
    c.ldc(0);
    c.ldc(static_cast<int32_t>(text.slots * 4));
    c.call(x.block_copy);
    c.ldloc(kStream);
    c.ldloc(all);
    c.ldloc(kLengths);
    c.ldc(0);
    c.ldloc(kDigitBuffer);
    c.call(m.write_chunk);
    c.pop();
  }
  write_utf8(c, x, tail, kStream, kBytes);
  c.leave(end);
  close_in_finally(c, x, stream, kStream);
  c.mark(end);
  c.ret();
  return set_body(editor, m.write_file, body, c, effects, false);
}

namespace {

/// WriteChunk's body in parts that share its builder, references, arguments and locals.
struct WriteChunkCode {
  enum : uint32_t { kStream, kText, kLengths, kSlot, kDigitBytes };  // arguments
  enum : uint32_t { kPos, kIndex, kValue, kDigit, kLength };         // locals
  CodeBuilder& c;
  const Refs& x;
  const CountRuntimeMembers& m;

  /// s.Write(text, pos, lengths[j]); pos += lengths[j]
  void slot_text() {
    c.ldarg(kLengths);
    c.ldloc(kIndex);
    c.emit(Op::Ldelem_I4);
    c.stloc(kLength);
    c.ldarg(kStream);
    c.ldarg(kText);
    c.ldloc(kPos);
    c.ldloc(kLength);
    c.callvirt(x.stream_write);
    c.ldloc(kPos);
    c.ldloc(kLength);
    c.emit(Op::Add);
    c.stloc(kPos);
  }

  /// value = *(counts + slot * 8); the digits right to left into digits[d..20);
  /// s.Write(digits, d, 20 - d)
  void slot_count(Label digit) {
    c.ldsfld(m.counts);
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
    c.callvirt(x.stream_write);
  }

  /// slot++, j++
  void next_slot() {
    c.ldarg(kSlot);
    c.ldc(1);
    c.emit(Op::Add);
    c.starg(kSlot);
    c.ldloc(kIndex);
    c.ldc(1);
    c.emit(Op::Add);
    c.stloc(kIndex);
  }
};

}  // namespace

/// WriteChunk(Stream s, byte[] text, int[] lengths, int slot, byte[] digits) -> int: writes each
/// slot's text then its count in decimal, and returns the next slot. Only the numbers are
/// formatted at exit (by hand, unsigned: no formatting API to call), and the loop runs once per
/// method, not per byte (a loop runs unoptimized code first; see bench/README.md).
Status write_write_chunk(md::ModuleEditor& editor, const Refs& x, const CountRuntimeMembers& m, CallEffects& effects) {
  TypeSig i4 = prim(ElementType::I4);
  BodyModel body;
  body.local_sig_token = CIL_TRY(locals_sig(editor, {i4, i4, prim(ElementType::I8), i4, i4}));
  body.init_locals = true;
  CodeBuilder c(body);
  Label loop = c.new_label(), digit = c.new_label(), condition = c.new_label();
  WriteChunkCode chunk{c, x, m};
  c.branch(Op::Br, condition);
  c.mark(loop);
  chunk.slot_text();
  chunk.slot_count(digit);
  chunk.next_slot();
  c.mark(condition);
  c.ldloc(WriteChunkCode::kIndex);
  c.ldarg(WriteChunkCode::kLengths);
  c.emit(Op::Ldlen);
  c.emit(Op::Conv_I4);
  c.branch(Op::Blt, loop);
  c.ldarg(WriteChunkCode::kSlot);
  c.ret();
  return set_body(editor, m.write_chunk, body, c, effects, true);
}

}  // namespace cil::instrument::count_helper
