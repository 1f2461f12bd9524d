// Find-or-add of references, row storage, and the two-phase write (plan, then emit).
#include "metadata/module_editor.h"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "metadata/signature.h"

namespace cil::md {

namespace {

Error edit_error(std::string message) { return make_error(ErrorKind::Unsupported, "metadata", std::move(message)); }

size_t column_count(TableId t) { return table_schema(t).columns.size(); }

}  // namespace

ModuleEditor::ModuleEditor(const Module& module)
    : module_(module),
      strings_(module.metadata().strings().data()),
      blobs_(module.metadata().blobs().data()),
      user_strings_(module.metadata().user_strings().data()) {}

uint32_t ModuleEditor::rows(TableId table) const { return module_.tables().rows(table) + edits_.added_rows(table); }

uint32_t ModuleEditor::cell(TableId table, uint32_t rid, uint8_t column) const {
  uint32_t original = module_.tables().rows(table);
  if (rid <= original) {
    const uint32_t* changed = edits_.changed_value(table, rid, column);
    return changed ? *changed : module_.tables().get(table, rid, column);
  }
  return edits_.added[static_cast<uint8_t>(table)][(rid - original - 1) * column_count(table) + column];
}

void ModuleEditor::set_cell(TableId table, uint32_t rid, uint8_t column, uint32_t value) {
  uint32_t original = module_.tables().rows(table);
  if (rid <= original) edits_.change(table, original, rid, column, value);
  else edits_.added[static_cast<uint8_t>(table)][(rid - original - 1) * column_count(table) + column] = value;
}

Expected<uint32_t> ModuleEditor::coded_cell(CodedIndex kind, Token token, TableId table, uint8_t column) const {
  if (token_rid(token) == 0) return 0;
  auto coded = encode_coded_index(kind, token);
  if (!coded)
    return edit_error(fmt::format("{}.{} cannot hold 0x{:08X} (a {} coded index)", table_schema(table).name,
                                  table_schema(table).columns[column].name, token, coded_index_schema(kind).name));
  return *coded;
}

// One add() per table, from its builder: cells in schema order, heap entries added in that
// order (so the heaps grow exactly as they would for the same cells given by hand).
#define CIL_CELL_U16(Table, Column, value, Arg) static_cast<uint32_t>(value)
#define CIL_CELL_U32(Table, Column, value, Arg) static_cast<uint32_t>(value)
#define CIL_CELL_String(Table, Column, value, Arg) strings_.add(value)
#define CIL_CELL_Blob(Table, Column, value, Arg) blobs_.add(value)
#define CIL_CELL_Guid(Table, Column, value, Arg) value
#define CIL_CELL_Table(Table, Column, value, Arg) value
#define CIL_CELL_Coded(Table, Column, value, Arg) \
  CIL_TRY(coded_cell(CodedIndex::Arg, value, TableId::Table, col::Table::Column))
#define CIL_TABLE(id, Table)                              \
  Expected<Token> ModuleEditor::add(const Table##Row& row) { \
    std::vector<uint32_t> cells;                           \
    cells.reserve(col::Table::kColumnCount);
#define CIL_COLUMN(Table, Column, field, Kind, Arg) cells.push_back(CIL_CELL_##Kind(Table, Column, row.field, Arg));
#define CIL_TABLE_END(Table)                      \
    return add_row(Table##Row::kTable, std::move(cells)); \
  }
#include "metadata/tables.def"
#undef CIL_TABLE
#undef CIL_COLUMN
#undef CIL_TABLE_END
#undef CIL_CELL_U16
#undef CIL_CELL_U32
#undef CIL_CELL_String
#undef CIL_CELL_Blob
#undef CIL_CELL_Guid
#undef CIL_CELL_Table
#undef CIL_CELL_Coded

Expected<Token> ModuleEditor::add_row(TableId table, std::vector<uint32_t> cells) {
  if (cells.size() != column_count(table)) return edit_error(fmt::format("a {} row needs {} cells", table_schema(table).name, column_count(table)));
  if (rows(table) >= kMaxRows) return edit_error(fmt::format("table {} is full", table_schema(table).name));
  auto& added = edits_.added[static_cast<uint8_t>(table)];
  added.insert(added.end(), cells.begin(), cells.end());
  return make_token(table, rows(table));
}

std::string ModuleEditor::row_key(std::span<const Value> values) {
  std::string key;
  for (const auto& v : values) {
    key += static_cast<char>(v.kind);
    if (v.kind == Value::Number) {
      key.append(reinterpret_cast<const char*>(&v.number), 4);
    } else {
      uint32_t length = static_cast<uint32_t>(v.bytes.size());
      key.append(reinterpret_cast<const char*>(&length), 4);
      key.append(v.bytes);
    }
  }
  return key;
}

namespace {

/// One column's share of a row's hash: numbers by value, heap cells by what they spell.
size_t mix_cell(size_t h, uint32_t kind, uint32_t number, std::string_view bytes, bool is_number) {
  size_t cell = is_number ? std::hash<uint32_t>{}(number) : std::hash<std::string_view>{}(bytes);
  return (h ^ (cell + kind)) * 0x100000001b3ULL;
}

/// Whether a table's rows hash their blob cells: only when they have nothing else (TypeSpec,
/// StandAloneSig). A MemberRef's parent and name already tell most rows apart, and reading its
/// signature blob would cost more than comparing the few overloads that share them.
bool hashes_blobs(const TableSchema& schema) {
  for (const auto& column : schema.columns)
    if (column.kind != ColumnKind::Blob) return false;
  return true;
}

}  // namespace

size_t ModuleEditor::row_hash(std::span<const Value> values, bool blobs) {
  size_t h = 0xcbf29ce484222325ULL;
  for (const auto& v : values)
    if (v.kind != Value::Blob || blobs) h = mix_cell(h, v.kind, v.number, v.bytes, v.kind == Value::Number);
  return h;
}

std::optional<size_t> ModuleEditor::original_row_hash(TableId table, uint32_t rid, bool blobs) const {
  const TableSchema& schema = table_schema(table);
  size_t h = 0xcbf29ce484222325ULL;
  for (uint8_t c = 0; c < schema.columns.size(); ++c) {
    uint32_t raw = module_.tables().get(table, rid, c);
    switch (schema.columns[c].kind) {
      case ColumnKind::String: {
        auto s = module_.strings().get(raw);
        if (!s) return std::nullopt;
        h = mix_cell(h, Value::String, 0, *s, false);
        break;
      }
      case ColumnKind::Blob: {
        if (!blobs) break;  // compared, not hashed (the loader checked that it reads)
        auto b = module_.blobs().get(raw);
        if (!b) return std::nullopt;
        h = mix_cell(h, Value::Blob, 0, std::string_view(reinterpret_cast<const char*>(b->data()), b->size()), false);
        break;
      }
      default: h = mix_cell(h, Value::Number, raw, {}, true);
    }
  }
  return h;
}

bool ModuleEditor::original_row_is(TableId table, uint32_t rid, std::span<const Value> values) const {
  const TableSchema& schema = table_schema(table);
  if (values.size() != schema.columns.size()) return false;
  for (uint8_t c = 0; c < schema.columns.size(); ++c) {
    uint32_t raw = module_.tables().get(table, rid, c);
    const Value& v = values[c];
    switch (schema.columns[c].kind) {
      case ColumnKind::String: {
        if (v.kind != Value::String) return false;
        auto s = module_.strings().get(raw);
        if (!s || *s != v.bytes) return false;
        break;
      }
      case ColumnKind::Blob: {
        if (v.kind != Value::Blob) return false;
        auto b = module_.blobs().get(raw);
        if (!b || std::string_view(reinterpret_cast<const char*>(b->data()), b->size()) != v.bytes) return false;
        break;
      }
      default:
        if (v.kind != Value::Number || v.number != raw) return false;
    }
  }
  return true;
}

Expected<Token> ModuleEditor::find_or_add(TableId table, std::span<const Value> values, std::vector<uint32_t> cells) {
  auto it = row_index_.find(table);
  if (it == row_index_.end()) {
    // Rows are added in ascending order, and of equal rows the first added is found: the first
    // row with these values wins.
    RowIndex index;
    index.hashes_blobs = hashes_blobs(table_schema(table));
    uint32_t rows = module_.tables().rows(table);
    index.rows.reset(rows);
    for (uint32_t rid = 1; rid <= rows; ++rid) {
      std::optional<size_t> h = original_row_hash(table, rid, index.hashes_blobs);
      if (h) index.rows.add(*h, rid);  // a heap index that does not resolve never matches anything
    }
    it = row_index_.emplace(table, std::move(index)).first;
  }
  RowIndex& index = it->second;
  uint32_t found_rid = index.rows.find(row_hash(values, index.hashes_blobs),
                                       [&](uint32_t rid) { return original_row_is(table, rid, values); });
  if (found_rid) return make_token(table, found_rid);
  std::string key = row_key(values);
  auto found = index.added.find(key);
  if (found != index.added.end()) return make_token(table, found->second);
  Token token = CIL_TRY(add_row(table, std::move(cells)));
  index.added.emplace(std::move(key), token_rid(token));
  return token;
}

namespace {

std::string_view as_chars(std::span<const uint8_t> bytes) {
  return std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

}  // namespace

Expected<Token> ModuleEditor::assembly_ref(const AssemblyRefSpec& spec) {
  // An existing reference with the same name serves, whatever its version: the runtime binds by
  // name and accepts any version at least as high as the reference.
  if (Token found = CIL_TRY(find_assembly_ref(spec.name))) return found;
  auto it = added_assemblies_.find(spec.name);
  if (it != added_assemblies_.end()) return it->second;
  Token token = CIL_TRY(add(AssemblyRefRow{.major_version = spec.version[0],
                                           .minor_version = spec.version[1],
                                           .build_number = spec.version[2],
                                           .revision_number = spec.version[3],
                                           .public_key_or_token = spec.public_key_token,
                                           .name = spec.name,
                                           .culture = spec.culture}));
  added_assemblies_.emplace(spec.name, token);
  return token;
}

Expected<std::string> ModuleEditor::assembly_name() {
  if (!module_.tables().rows(TableId::Assembly)) return std::string();
  return std::string(module_.row<TableId::Assembly>(1).name());
}

Expected<Token> ModuleEditor::find_assembly_ref(std::string_view name) {
  for (uint32_t rid = 1; rid <= module_.tables().rows(TableId::AssemblyRef); ++rid)
    if (module_.row<TableId::AssemblyRef>(rid).name() == name) return make_token(TableId::AssemblyRef, rid);
  return Token{0};
}

Expected<Token> ModuleEditor::find_type_def(std::string_view ns, std::string_view name) {
  for (uint32_t rid = 1; rid <= module_.tables().rows(TableId::TypeDef); ++rid) {
    auto type = module_.row<TableId::TypeDef>(rid);
    if (module_.enclosing_type(TypeDefId(rid)).is_nil() && type.type_name() == name && type.type_namespace() == ns)
      return make_token(TableId::TypeDef, rid);
  }
  return Token{0};
}

Expected<Token> ModuleEditor::find_member_def(Token type, std::string_view name, std::span<const uint8_t> signature) {
  auto same = [&](const Expected<std::span<const uint8_t>>& blob) {
    return blob && std::equal(blob->begin(), blob->end(), signature.begin(), signature.end());
  };
  if (token_table(type) != TableId::TypeDef) return Token{0};
  if (!signature.empty() && signature[0] == kSigField) {
    for (uint32_t rid = 1; rid <= module_.tables().rows(TableId::Field); ++rid) {
      if (module_.field_owner(FieldId(rid)).token() != type) continue;
      auto field = module_.row<TableId::Field>(rid);
      if (field.name() == name && same(field.signature())) return make_token(TableId::Field, rid);
    }
  } else {
    for (MethodDefId id : module_.methods_of(TypeDefId(token_rid(type)))) {
      auto method = module_.row(id);
      if (method.name() == name && same(method.signature())) return id.token();
    }
  }
  return Token{0};
}

Expected<Token> ModuleEditor::type_ref(Token scope, std::string_view ns, std::string_view name) {
  auto coded = encode_coded_index(CodedIndex::ResolutionScope, scope);
  if (!coded) return edit_error(fmt::format("0x{:08X} cannot be a resolution scope", scope));
  Value values[] = {{Value::Number, *coded, {}}, {Value::String, 0, name}, {Value::String, 0, ns}};
  return find_or_add(TableId::TypeRef, values, {*coded, strings_.add(name), strings_.add(ns)});
}

Expected<Token> ModuleEditor::member_ref(Token parent, std::string_view name, std::span<const uint8_t> signature) {
  auto coded = encode_coded_index(CodedIndex::MemberRefParent, parent);
  if (!coded) return edit_error(fmt::format("0x{:08X} cannot be a MemberRef parent", parent));
  Value values[] = {{Value::Number, *coded, {}}, {Value::String, 0, name}, {Value::Blob, 0, as_chars(signature)}};
  return find_or_add(TableId::MemberRef, values, {*coded, strings_.add(name), blobs_.add(signature)});
}

Expected<Token> ModuleEditor::type_spec(std::span<const uint8_t> signature) {
  Value values[] = {{Value::Blob, 0, as_chars(signature)}};
  return find_or_add(TableId::TypeSpec, values, {blobs_.add(signature)});
}

Expected<Token> ModuleEditor::method_spec(Token method, std::span<const uint8_t> instantiation) {
  auto coded = encode_coded_index(CodedIndex::MethodDefOrRef, method);
  if (!coded) return edit_error(fmt::format("0x{:08X} cannot be instantiated", method));
  Value values[] = {{Value::Number, *coded, {}}, {Value::Blob, 0, as_chars(instantiation)}};
  return find_or_add(TableId::MethodSpec, values, {*coded, blobs_.add(instantiation)});
}

Expected<Token> ModuleEditor::standalone_sig(std::span<const uint8_t> signature) {
  Value values[] = {{Value::Blob, 0, as_chars(signature)}};
  return find_or_add(TableId::StandAloneSig, values, {blobs_.add(signature)});
}

Expected<Token> ModuleEditor::user_string(std::u16string_view text) {
  uint32_t index = user_strings_.add(text);
  if (index > kMaxRid) return edit_error("the #US heap would exceed 16 MiB");
  return Token((uint32_t{kUserStringTokenType} << 24) | index);
}

Expected<std::vector<uint8_t>> ModuleEditor::blob_at(uint32_t index) const {
  uint32_t original = module_.metadata().blobs().size();
  if (index < original || index == 0) {
    auto blob = module_.blobs().get(index);
    if (!blob) return blob.error();
    return std::vector<uint8_t>(blob->begin(), blob->end());
  }
  auto bytes = blobs_.added(index);
  if (!bytes) return make_error(ErrorKind::Format, "#Blob heap", fmt::format("no blob at index {:#x}", index));
  return std::vector<uint8_t>(bytes->begin(), bytes->end());
}

Expected<std::vector<uint8_t>> ModuleEditor::signature_of(Token token) {
  TableId t = token_table(token);
  uint32_t rid = token_rid(token);
  if (token_type(token) >= kTableSlots || rid == 0 || rid > rows(t))
    return make_error(ErrorKind::Format, "metadata", fmt::format("token 0x{:08X} names no row", token));
  switch (t) {
    case TableId::MethodDef: return blob_at(cell(t, rid, col::MethodDef::Signature));
    case TableId::MemberRef: return blob_at(cell(t, rid, col::MemberRef::Signature));
    case TableId::Field: return blob_at(cell(t, rid, col::Field::Signature));
    case TableId::StandAloneSig: return blob_at(cell(t, rid, col::StandAloneSig::Signature));
    case TableId::TypeSpec: return blob_at(cell(t, rid, col::TypeSpec::Signature));
    case TableId::MethodSpec: {
      uint32_t coded = cell(t, rid, col::MethodSpec::Method);
      Token method = module_.tables().decode(CodedIndex::MethodDefOrRef, coded);
      if (token_table(method) == TableId::MethodSpec || !method)
        return make_error(ErrorKind::Format, "metadata", fmt::format("MethodSpec 0x{:08X} names no method", token));
      return signature_of(method);
    }
    default:
      return make_error(ErrorKind::Format, "metadata", fmt::format("token 0x{:08X} has no signature", token));
  }
}

Status ModuleEditor::append_through_sink(std::span<const uint8_t> bytes) {
  while (!bytes.empty()) {
    size_t room = std::max<size_t>(sink_chunk_ - std::min(sink_chunk_, section_.size()), 1);
    size_t take = std::min(room, bytes.size());
    section_.insert(section_.end(), bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(take));
    bytes = bytes.subspan(take);
    if (section_.size() >= sink_chunk_) CIL_TRY(flush_section(false));
  }
  return ok();
}

Status ModuleEditor::align_through_sink(uint32_t alignment) {
  static constexpr uint8_t kZeros[16] = {};
  while (section_size() % alignment) {
    size_t pad = static_cast<size_t>(alignment - section_size() % alignment);
    CIL_TRY(append_section(std::span<const uint8_t>(kZeros, std::min(pad, sizeof kZeros))));
  }
  return ok();
}

Status ModuleEditor::flush_section(bool all) {
  if (!sink_) return ok();
  // Word sums add up only over pieces that start at even offsets: an odd last byte waits.
  size_t size = all ? section_.size() : section_.size() & ~size_t{1};
  if (size == 0) return ok();
  std::span<const uint8_t> chunk(section_.data(), size);
  CIL_TRY(sink_->write(plan_->raw_offset + streamed_, chunk));
  streamed_sum_ += pe::word_sum(chunk);
  streamed_ += size;
  section_.erase(section_.begin(), section_.begin() + static_cast<std::ptrdiff_t>(size));
  return ok();
}

Expected<uint32_t> ModuleEditor::append_aligned(std::span<const uint8_t> bytes, uint32_t alignment, const char* too_far) {
  if (alignment == 0 || (alignment & (alignment - 1))) return edit_error("data alignment must be a power of two");
  if (!plan_) plan_ = CIL_TRY(pe::plan_section(module_.image()));
  CIL_TRY(align_section(alignment));
  uint64_t rva = uint64_t{plan_->rva} + section_size();
  if (rva + bytes.size() > 0xFFFFFFFF) return edit_error(too_far);
  CIL_TRY(append_section(bytes));
  return static_cast<uint32_t>(rva);
}

Status ModuleEditor::set_method_body(MethodDefId method, std::span<const uint8_t> body) {
  uint32_t rid = method.value();
  // Fat headers are 4-byte aligned (II.25.4.5).
  uint32_t rva = CIL_TRY(append_aligned(body, 4, "method bodies exceed the address space"));
  set_cell(TableId::MethodDef, rid, col::MethodDef::Rva, rva);
  return ok();
}

Status ModuleEditor::set_mvid(const Guid& mvid) {
  if (module_.tables().rows(TableId::Module) == 0) return edit_error("the module has no Module row");
  mvid_ = mvid;
  return ok();
}

Guid ModuleEditor::mvid() const {
  if (mvid_) return *mvid_;
  if (module_.tables().rows(TableId::Module) == 0) return Guid{};
  auto found = module_.row<TableId::Module>(1).mvid();
  return found ? *found : Guid{};
}

Expected<uint32_t> ModuleEditor::place_section_data(std::span<const uint8_t> bytes, uint32_t alignment) {
  return append_aligned(bytes, alignment, "static data exceeds the address space");
}

Status ModuleEditor::add_section_data(std::vector<uint8_t> bytes, uint32_t alignment, uint32_t field_rva) {
  if (alignment == 0 || (alignment & (alignment - 1))) return edit_error("data alignment must be a power of two");
  if (field_rva == 0 || field_rva > rows(TableId::FieldRVA)) return edit_error(fmt::format("no FieldRVA row {}", field_rva));
  data_.push_back({std::move(bytes), alignment, field_rva});
  return ok();
}

pe::SectionCuts ModuleEditor::plan_cuts() {
  // Dead: the input's metadata (written anew below) and the bodies replaced. Live: every RVA a
  // MethodDef or FieldRVA row keeps.
  std::vector<pe::RvaRange> dead = std::move(dead_);
  dead_.clear();
  const pe::CliHeader& cli = module_.cli();
  dead.push_back({cli.metadata.rva, static_cast<uint32_t>(std::min<uint64_t>(uint64_t{cli.metadata.rva} + cli.metadata.size, UINT32_MAX))});
  std::vector<uint32_t> live;
  live.reserve(rows(TableId::MethodDef) + rows(TableId::FieldRVA));
  for (uint32_t rid = 1; rid <= rows(TableId::MethodDef); ++rid)
    if (uint32_t rva = cell(TableId::MethodDef, rid, col::MethodDef::Rva)) live.push_back(rva);
  for (uint32_t rid = 1; rid <= rows(TableId::FieldRVA); ++rid)
    if (uint32_t rva = cell(TableId::FieldRVA, rid, col::FieldRVA::Rva)) live.push_back(rva);
  pe::DroppedPointers dropped{cleared_directories_, clear_native_header_};
  pe::SectionCuts cuts = pe::plan_cuts(module_.image(), cli, std::move(dead), live, dropped);
  if (cuts.empty()) return cuts;
  for (uint32_t rid = 1; rid <= rows(TableId::MethodDef); ++rid) {
    uint32_t rva = cell(TableId::MethodDef, rid, col::MethodDef::Rva);
    if (rva && cuts.rva(rva) != rva) set_cell(TableId::MethodDef, rid, col::MethodDef::Rva, cuts.rva(rva));
  }
  for (uint32_t rid = 1; rid <= rows(TableId::FieldRVA); ++rid) {
    uint32_t rva = cell(TableId::FieldRVA, rid, col::FieldRVA::Rva);
    if (rva && cuts.rva(rva) != rva) set_cell(TableId::FieldRVA, rid, col::FieldRVA::Rva, cuts.rva(rva));
  }
  return cuts;
}

Expected<pe::OutputImage> ModuleEditor::write() {
  const pe::PeImage& image = module_.image();
  if (!plan_) plan_ = CIL_TRY(pe::plan_section(image));
  // The new section starts lower by what is cut; what already went to the sink moves with it.
  pe::SectionCuts cuts = plan_cuts();
  if (!cuts.empty()) {
    uint64_t lower = plan_->raw_offset - cuts.total();
    if (sink_ && streamed_) CIL_TRY(sink_->move_down(plan_->raw_offset, lower, streamed_));
    plan_->raw_offset = lower;
  }

  // Metadata last, now that every cell is final.
  HeapContents heaps;
  heaps.strings = strings_.take();
  heaps.user_strings = user_strings_.take();
  heaps.blobs = blobs_.take();
  heaps.guids = {module_.metadata().guids().data(), {}};
  if (mvid_) {
    // Overwrite the MVID where the Module row points, or append it when the index is bad.
    std::vector<uint8_t> guids(heaps.guids.original.begin(), heaps.guids.original.end());
    uint64_t index = cell(TableId::Module, 1, col::Module::Mvid);
    if (index == 0 || (index - 1) * 16 + 16 > guids.size()) {
      while (guids.size() % 16) guids.push_back(0);
      index = guids.size() / 16 + 1;
      set_cell(TableId::Module, 1, col::Module::Mvid, static_cast<uint32_t>(index));
      guids.resize(guids.size() + 16);
    }
    std::copy(mvid_->begin(), mvid_->end(), guids.begin() + static_cast<std::ptrdiff_t>((index - 1) * 16));
    heaps.guids = {{}, std::move(guids)};
  }
  // Static data after the bodies (from a multiple of 4, then each piece at its alignment); with a
  // sink, all of it through the sink. The metadata (views of the input, mostly) stays a list of
  // pieces for the caller to write.
  CIL_TRY(align_section(4));
  for (auto& piece : data_) {
    uint32_t rva = CIL_TRY(append_aligned(piece.bytes, piece.alignment, "static data exceeds the address space"));
    set_cell(TableId::FieldRVA, piece.field_rva, col::FieldRVA::Rva, rva);
    std::vector<uint8_t>().swap(piece.bytes);
  }
  data_.clear();
  // New debug directory data (a CodeView record, a PDB checksum, an embedded PDB) after it.
  std::optional<pe::DebugDirectoryEdit> debug;
  if (debug_) {
    debug.emplace();
    for (auto& entry : *debug_) {
      pe::DebugDirectoryEdit::Entry header = entry.header;
      if (entry.data) {
        uint32_t rva = CIL_TRY(append_aligned(*entry.data, 4, "debug data exceeds the address space"));
        header.data_size = static_cast<uint32_t>(entry.data->size());
        header.data_rva = rva;
        header.data_file_offset = static_cast<uint32_t>(plan_->raw_offset + (rva - plan_->rva));
        header.input_data = false;
        std::vector<uint8_t>().swap(*entry.data);
      }
      debug->entries.push_back(header);
    }
  }
  CIL_TRY(align_section(4));
  pe::OutputImage data;
  if (sink_) {
    CIL_TRY(flush_section(true));
    data.append_in_place(streamed_, streamed_sum_);
  } else {
    data.append_owned(std::move(section_));
  }
  uint64_t metadata_offset = data.size();
  uint32_t metadata_rva = plan_->rva + static_cast<uint32_t>(metadata_offset);
  uint32_t metadata_size = static_cast<uint32_t>(CIL_TRY(write_metadata(module_.metadata(), edits_, std::move(heaps), data)));

  const pe::CliHeader& cli = module_.cli();
  std::vector<pe::Patch> patches;
  patches.push_back(pe::patch_u32(cli.file_offset + pe::cli_field::kMetadata, metadata_rva));
  patches.push_back(pe::patch_u32(cli.file_offset + pe::cli_field::kMetadata + 4, metadata_size));
  if (cli_flags_) patches.push_back(pe::patch_u32(cli.file_offset + pe::cli_field::kFlags, *cli_flags_));
  if (clear_native_header_) {
    patches.push_back(pe::patch_u32(cli.file_offset + pe::cli_field::kManagedNativeHeader, 0));
    patches.push_back(pe::patch_u32(cli.file_offset + pe::cli_field::kManagedNativeHeader + 4, 0));
  }
  if (machine_) patches.push_back(pe::patch_u16(image.headers().coff_offset, *machine_));
  for (auto index : cleared_directories_) {
    if (index >= image.headers().directory_count) continue;
    patches.push_back(pe::patch_u32(image.headers().directories_offset + index * 8, 0));
    patches.push_back(pe::patch_u32(image.headers().directories_offset + index * 8 + 4, 0));
  }
  return pe::write_image(image, *plan_, pe::SectionSpec{}, std::move(data), std::move(patches), debug ? &*debug : nullptr, &cuts);
}

}  // namespace cil::md
