// Count mode: the helper type, the probe, and the IL of the exit-time writer.
#include "instrument/count_mode.h"

#include <fmt/format.h>

#include "instrument/count_runtime.h"
#include "instrument/helper_attributes.h"
#include "instrument/probes.h"
#include "il/rewrite.h"
#include "instrument/runtime_contract.h"
#include "metadata/signature.h"
#include "metadata/text_encoding.h"
#include "metadata/token_text.h"

namespace cil::instrument {

namespace {

using md::ElementType;
using md::TableId;
using md::Token;
using md::TypeSig;

/// Mono refuses value types over 1 MiB, so the method table is split into chunks below that
/// (a single longer line, which no real name makes, gets a chunk of its own).
constexpr size_t kChunkSize = 512 * 1024;
/// A table (text and lengths) longer than this is packed (skeleton_pack.h): deflate makes it
/// about a tenth of its size, and below this the few milliseconds that loading DeflateStream
/// costs the program's exit outweigh the bytes saved. At most kChunkSize, so that a full chunk
/// is always packed.
constexpr size_t kPackAbove = 64 * 1024;
static_assert(kPackAbove <= kChunkSize);
constexpr uint32_t kChunkAlignment = 8;
constexpr uint32_t kMaxSlots = uint32_t{1} << 28;

}  // namespace

Expected<CountMode> CountMode::begin(md::ModuleEditor& editor, md::RuntimeRefs& refs, CounterFile file, ProbeKind kind) {
  CountMode mode;
  mode.file_ = file;
  mode.kind_ = kind;
  mode.editor_ = &editor;
  mode.refs_ = &refs;
  const md::Module& m = editor.module();
  Token object = CIL_TRY(refs.type("System", "Object"));
  Token interlocked = CIL_TRY(increment_type(refs));
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

  auto add_field = [&](std::string_view name, const TypeSig& type) -> Expected<Token> {
    std::vector<uint8_t> sig{md::kSigField};
    md::encode_type(sig, type);
    Token t = CIL_TRY(editor.add(md::FieldRow{.flags = kHelperField, .name = name, .signature = sig}));
    if (field_ptr) CIL_TRY(editor.add(md::FieldPtrRow{.field = md::token_rid(t)}));
    return t;
  };
  CountRuntimeMembers& rt = mode.runtime_;
  rt.helper_type = mode.helper_type_;
  // Counters in an int64[] for the core library, whose class constructor cannot call any of the
  // library's own (probed) code before the counters exist (allocating native memory would), and
  // for .NET Framework-style modules (mscorlib), whose probes stay verifiable (ldelema, not a
  // pointer passed as a byref): partial trust and `peverify` check them. Every other module's
  // helper holds the counters' address, in a live file when it can (count_runtime.h).
  if (refs.self() || refs.kind() == md::CoreLibraryKind::Mscorlib) mode.array_element_ = CIL_TRY(refs.type("System", "Int64"));
  rt.counts_array = static_cast<bool>(mode.array_element_);
  rt.counts = mode.counts_field_ = CIL_TRY(
      add_field("counts", rt.counts_array ? md::wrap(ElementType::SzArray, md::primitive(ElementType::I8)) : md::primitive(ElementType::I)));
  rt.gate = CIL_TRY(add_field("gate", md::primitive(ElementType::Object)));
  rt.tag = CIL_TRY(add_field("tag", md::primitive(ElementType::String)));
  rt.keep = CIL_TRY(add_field("keep", md::wrap(ElementType::SzArray, md::primitive(ElementType::Object))));
  rt.live = CIL_TRY(add_field("live", md::primitive(ElementType::String)));
  // The live file needs the counters' address and MemoryMappedFile, which the assembly that
  // defines it cannot reference.
  std::string assembly_name = CIL_TRY(editor.assembly_name());
  mode.live_ = !rt.counts_array && assembly_name != refs.memory_mapped_files_assembly().name;
  // DeflateStream's assembly cannot reference itself, nor can the core library anything.
  mode.packable_ = !refs.self() && assembly_name != refs.compression_assembly().name;

  Token event_args = CIL_TRY(refs.type("System", "EventArgs"));
  Token unhandled_args = CIL_TRY(refs.type("System", "UnhandledExceptionEventArgs"));
  TypeSig vd = md::primitive(ElementType::Void), obj = md::primitive(ElementType::Object);
  auto add_method = [&](md::MethodAttributes flags, std::string_view name, std::vector<uint8_t> sig) -> Expected<Token> {
    Token t = CIL_TRY(editor.add(md::MethodDefRow{.flags = flags, .name = name, .signature = sig, .param_list = param_list}));
    if (method_ptr) CIL_TRY(editor.add(md::MethodPtrRow{.method = md::token_rid(t)}));
    return t;
  };
  rt.cctor = CIL_TRY(add_method(kTypeInitializer, ".cctor", md::method_signature(false, vd, {})));
  rt.write = CIL_TRY(add_method(kHelperMethod, "WriteCounts", md::method_signature(false, vd, {md::primitive(ElementType::Boolean)})));
  rt.on_exit = CIL_TRY(add_method(kPrivateHelperMethod, "OnProcessExit", md::method_signature(false, vd, {obj, md::class_type(event_args)})));
  rt.on_unhandled = CIL_TRY(add_method(kPrivateHelperMethod, "OnUnhandledException",
                                       md::method_signature(false, vd, {obj, md::class_type(unhandled_args)})));
  rt.setup = CIL_TRY(add_method(kPrivateHelperMethod, "Setup", md::method_signature(false, vd, {})));
  rt.on_signal = CIL_TRY(add_method(kPrivateHelperMethod, kOnSignalName, md::method_signature(false, vd, {obj})));
  rt.on_timer = CIL_TRY(add_method(kPrivateHelperMethod, "OnTimer", md::method_signature(false, vd, {obj})));
  rt.write_file = CIL_TRY(add_method(kPrivateHelperMethod, "WriteFile", md::method_signature(false, vd, {md::primitive(ElementType::String)})));
  TypeSig str = md::primitive(ElementType::String);
  rt.output_path = CIL_TRY(add_method(kPrivateHelperMethod, "OutputPath", md::method_signature(false, str, {str})));
  if (mode.live_) rt.map_live = CIL_TRY(add_method(kPrivateHelperMethod, "MapLive", md::method_signature(false, vd, {})));
  Token stream = CIL_TRY(refs.type("System.IO", "Stream"));
  TypeSig bytes = md::wrap(ElementType::SzArray, md::primitive(ElementType::U1));
  rt.write_chunk = CIL_TRY(add_method(kPrivateHelperMethod, "WriteChunk",
                                      md::method_signature(false, md::primitive(ElementType::I4),
                                                 {md::class_type(stream), bytes, md::wrap(ElementType::SzArray, md::primitive(ElementType::I4)),
                                                  md::primitive(ElementType::I4), bytes})));
  return mode;
}

Status CountMode::commit(md::MethodDefId method, std::string_view name) {
  // The method's text up to its count, and its length: WriteChunk writes the text, then the
  // count. No formatting pass here, and at exit only the numbers are formatted. The previous
  // method's closing and the separator come first, so a chunk never ends inside a method.
  // Probes address their counter as slot * 8 in an int32.
  if (slots_ >= kMaxSlots) return make_error(ErrorKind::Unsupported, "count mode", fmt::format("more than {} counters", kMaxSlots));
  static const std::string open = contract::counts_method_open(), name_piece = contract::counts_method_name(),
                           count_piece = contract::counts_method_count();
  std::string& quoted = quoted_;  // reused: coverage mode commits a piece per probe
  quoted.clear();
  md::json_quote_append(quoted, name);
  struct {
    char text[md::kTokenDigits];
    size_t size = 0;
    void push_back(char c) { text[size++] = c; }
  } digits;
  md::append_token_digits(digits, method.token());
  // The piece, once: its length and its bytes both come from this list.
  const std::string_view pieces[] = {slots_ ? contract::kCountsMethodClose : std::string_view(""),
                                     slots_ ? contract::kCountsSeparator : std::string_view(""),
                                     open, std::string_view(digits.text, digits.size), name_piece, quoted, count_piece};
  size_t line = 0;
  for (std::string_view piece : pieces) line += piece.size();
  if (table_.empty() || table_.back().bytes.size() + line > kChunkSize) {
    if (!table_.empty()) {
      TableChunk& full = table_.back();
      if (packable_) {
        if (!packer_) packer_ = CIL_TRY(SkeletonPacker::create(kChunkSize));
        CIL_TRY(packer_->add(full.bytes));
      } else {
        full.rva = CIL_TRY(editor_->place_section_data(full.bytes, kChunkAlignment));
        full.lengths_rva = CIL_TRY(editor_->place_section_data(full.lengths, kChunkAlignment));
        std::vector<uint8_t>().swap(full.lengths);
      }
      std::vector<uint8_t>().swap(full.bytes);
    }
    table_.emplace_back();
    table_.back().bytes.reserve(std::max(kChunkSize, line));
  }
  // Appended within the room reserved above: coverage mode commits a piece per probe.
  auto& bytes = table_.back().bytes;
  for (std::string_view piece : pieces) {
    const auto* text = reinterpret_cast<const uint8_t*>(piece.data());  // bytes to bytes: one copy, not a loop
    bytes.insert(bytes.end(), text, text + piece.size());
  }
  // The piece's length as a little-endian int32 (II.16.3.2: the int[] of InitializeArray).
  auto length = static_cast<uint32_t>(line);
  const uint8_t length_bytes[4] = {static_cast<uint8_t>(length), static_cast<uint8_t>(length >> 8), static_cast<uint8_t>(length >> 16),
                                   static_cast<uint8_t>(length >> 24)};
  table_.back().lengths.insert(table_.back().lengths.end(), std::begin(length_bytes), std::end(length_bytes));
  table_.back().size = static_cast<uint32_t>(bytes.size());
  ++table_.back().pieces;
  ++slots_;
  return ok();
}

Status CountMode::measure_probe(CallEffects& effects) {
  probe_max_stack_ = CIL_TRY(instrument::probe_max_stack(CounterRef{counts_field_, array_element_, 0, 0}, increment_, effects, kind_));
  return ok();
}

void CountMode::probe_ahead(BodyModel& model, uint32_t ahead, std::vector<Instr>& probe) const {
  counter_probe(model, CounterRef{counts_field_, array_element_, slots_ + ahead, 0}, increment_, probe, kind_);
}

std::span<const Instr> CountMode::next_probe() {
  CounterRef counter{counts_field_, array_element_, slots_, 0};
  if (probe_.empty()) {
    BodyModel scratch;  // only hands out instruction ids, which rewrite_body replaces
    counter_probe(scratch, counter, increment_, probe_, kind_);
  } else {
    set_counter_slot(probe_, counter, slots_);
  }
  return probe_;
}

Status CountMode::finish(std::string_view assembly, std::string_view mvid, CallEffects& effects) {
  md::ModuleEditor& editor = *editor_;
  // The method table (UTF-8, built by commit()) becomes static data, II.16.3.2: chunks of whole
  // methods' text and their lengths, each the RVA field of a value type of its size, like C#'s
  // array initializers. Each data type owns its field, so the rows go type, field, type, field...
  CountRuntimeText text;
  bool hits = file_ == CounterFile::Hits;
  std::string header_text = hits ? contract::hits_header(md::json_quote(assembly), md::json_quote(mvid))
                                 : contract::counts_header(md::json_quote(assembly), md::json_quote(mvid));
  std::string tail_text = std::string(slots_ ? contract::kCountsMethodClose : "") + std::string(contract::kCountsTail);
  {
    const md::Module& m = editor.module();
    bool field_ptr = m.tables().rows(TableId::FieldPtr) > 0;
    bool method_ptr = m.tables().rows(TableId::MethodPtr) > 0;
    Token value_type = CIL_TRY(refs_->type("System", "ValueType"));
    // Data(bytes or placed rva) -> the field of a new value type of that size.
    auto add_data = [&](std::string type_name, std::vector<uint8_t>& bytes, uint32_t rva, uint32_t size) -> Expected<Token> {
      uint32_t field_list = (field_ptr ? editor.rows(TableId::FieldPtr) : editor.rows(TableId::Field)) + 1;
      uint32_t method_list = (method_ptr ? editor.rows(TableId::MethodPtr) : editor.rows(TableId::MethodDef)) + 1;
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
      Token rva_row = CIL_TRY(editor.add(md::FieldRVARow{.rva = rva, .field = md::token_rid(field)}));
      if (!rva) CIL_TRY(editor.add_section_data(std::move(bytes), kChunkAlignment, md::token_rid(rva_row)));
      return field;
    };
    if (live_) {
      // The live file's header (runtime_contract.h); its state byte says "writing" until the
      // counters are mapped.
      uint32_t method_text = 0;
      for (const auto& chunk : table_) method_text += chunk.size;
      std::vector<uint8_t> header(contract::kLiveMagic.begin(), contract::kLiveMagic.end());
      header.push_back(static_cast<uint8_t>(contract::kLiveWriting));
      auto put = [&header](uint32_t v) {
        for (int shift = 0; shift < 32; shift += 8) header.push_back(static_cast<uint8_t>(v >> shift));
      };
      put(contract::kLiveVersion);
      put(slots_);
      put(static_cast<uint32_t>(header_text.size()));
      put(method_text);
      put(static_cast<uint32_t>(tail_text.size()));
      put(0);
      text.live_header = CIL_TRY(add_data("<CilInstrument>LiveHeader", header, 0, contract::kLiveHeaderSize));
      text.live_suffix = hits ? contract::kHitsLiveSuffix : contract::kCountsLiveSuffix;
    }
    uint64_t table_size = 0;
    for (const auto& chunk : table_) table_size += uint64_t{chunk.size} + chunk.pieces * 4;
    if (packable_ && table_size > kPackAbove) {
      // The text not yet packed (the last chunk), then every length; one stream, cut into data
      // fields under Mono's limit.
      if (!packer_) packer_ = CIL_TRY(SkeletonPacker::create(kChunkSize));
      CIL_TRY(packer_->add(table_.back().bytes));
      for (const auto& chunk : table_) {
        CIL_TRY(packer_->add(chunk.lengths));
        text.method_text += chunk.size;
      }
      std::vector<std::vector<uint8_t>> blocks = CIL_TRY(packer_->finish());
      packer_.reset();
      // Each block of the stream moves into the section as one field.
      for (std::vector<uint8_t>& block : blocks) {
        auto n = static_cast<uint32_t>(block.size());
        Token field = CIL_TRY(add_data(fmt::format("<CilInstrument>Packed{}", text.packed.size()), block, 0, n));
        text.packed.push_back({field, n, md::Token(0), 0});
      }
      table_.clear();
    }
    for (auto& chunk : table_) {
      size_t k = text.chunks.size();
      Token field = CIL_TRY(add_data(fmt::format("<CilInstrument>Methods{}", k), chunk.bytes, chunk.rva, chunk.size));
      Token lengths = CIL_TRY(add_data(fmt::format("<CilInstrument>Lengths{}", k), chunk.lengths, chunk.lengths_rva, chunk.pieces * 4));
      text.chunks.push_back({field, chunk.size, lengths, chunk.pieces});
    }
    table_.clear();
    table_.shrink_to_fit();
  }

  text.header = std::move(header_text);
  text.file_suffix = hits ? contract::kHitsFileSuffix : contract::kCountsFileSuffix;
  text.tail = std::move(tail_text);
  text.file_prefix = contract::counts_file_prefix(assembly);
  // The loads of one build in one domain share this key; another build of the same assembly
  // (another mvid) writes files that `report` keeps apart anyway.
  text.load_key = "cil-instrument.loads:" + std::string(assembly) + ":" + std::string(mvid);
  text.slots = slots_;
  return write_count_runtime(editor, *refs_, runtime_, text, effects);
}

}  // namespace cil::instrument
