// A module being rewritten: appended rows and heap entries, replaced method bodies, CLI header
// changes, and the writer that turns them into a new file. Every existing row keeps its token.
#pragma once

#include <algorithm>
#include <map>
#include <unordered_map>
#include <optional>
#include <string>
#include <vector>

#include "metadata/heap_builder.h"
#include "metadata/id_table.h"
#include "metadata/metadata_sink.h"
#include "metadata/metadata_writer.h"
#include "metadata/module.h"
#include "pe/image_writer.h"
#include "pe/section_cuts.h"

namespace cil::md {

class ModuleEditor final : public MetadataSink {
 public:
  /// What a section sink gets at a time (see set_section_sink).
  static constexpr size_t kSinkChunk = size_t{1} << 20;

  explicit ModuleEditor(const Module& module);

  const Module& module() const { return module_; }

  // MetadataSink
  Expected<Token> assembly_ref(const AssemblyRefSpec& spec) override;
  Expected<Token> type_ref(Token scope, std::string_view ns, std::string_view name) override;
  Expected<Token> member_ref(Token parent, std::string_view name, std::span<const uint8_t> signature) override;
  Expected<Token> type_spec(std::span<const uint8_t> signature) override;
  Expected<Token> method_spec(Token method, std::span<const uint8_t> instantiation) override;
  Expected<Token> standalone_sig(std::span<const uint8_t> signature) override;
  Expected<Token> user_string(std::u16string_view text) override;
  Expected<std::vector<uint8_t>> signature_of(Token token) override;
  Expected<std::string> assembly_name() override;
  Expected<Token> find_assembly_ref(std::string_view name) override;
  Expected<Token> find_type_def(std::string_view ns, std::string_view name) override;
  Expected<Token> find_member_def(Token type, std::string_view name, std::span<const uint8_t> signature) override;

  /// Heap entries (find or add).
  uint32_t add_blob(std::span<const uint8_t> blob) { return blobs_.add(blob); }

  /// Appends a row (metadata/rows.h: one builder per table, fields named as the columns);
  /// returns its token. Heap fields go into their heaps and coded fields are encoded, in column
  /// order; a token a coded column cannot hold fails, naming the column.
#define CIL_TABLE(id, Table) Expected<Token> add(const Table##Row& row);
#define CIL_COLUMN(Table, Column, field, Kind, Arg)
#define CIL_TABLE_END(Table)
#include "metadata/tables.def"
#undef CIL_TABLE
#undef CIL_COLUMN
#undef CIL_TABLE_END
  /// Rows in a table, original and appended.
  uint32_t rows(TableId table) const;

  /// Gives MethodDef `rid` (original or appended) a new body: complete bytes, header included.
  /// The body goes straight into the new section, so bodies are not held twice.
  Status set_method_body(MethodDefId method, std::span<const uint8_t> body);
  /// Says that the input's bytes [rva, rva + size) are read by nothing in the output (the body a
  /// method had before set_method_body): write() leaves them out when the image allows
  /// (pe/section_cuts.h), as it does the input's metadata.
  void drop_input_range(uint32_t rva, uint32_t size) { dead_.push_back({rva, static_cast<uint32_t>(std::min<uint64_t>(uint64_t{rva} + size, UINT32_MAX))}); }
  /// Places static data in the new section, after the bodies, and writes its RVA into FieldRVA
  /// row `field_rva` (original or appended) when the layout is final.
  Status add_section_data(std::vector<uint8_t> bytes, uint32_t alignment, uint32_t field_rva);
  /// Places static data in the new section now, after the bodies so far, and returns its RVA
  /// (for data made while bodies are still being added, so that it need not wait in memory).
  Expected<uint32_t> place_section_data(std::span<const uint8_t> bytes, uint32_t alignment);
  /// Reserves room for about `bytes` of new bodies, so the section is not copied as it grows
  /// (with a sink, room for one chunk only).
  void reserve_bodies(size_t bytes) { section_.reserve(sink_ ? sink_chunk_ + 4096 : bytes); }
  /// Sends the new section's bodies and static data to `sink` as they are made, a chunk at a
  /// time, instead of keeping them until write(); write()'s output then has them as a piece in
  /// place. Set it before the first body. `chunk` is the most it buffers (tests try odd sizes).
  void set_section_sink(pe::SectionSink* sink, size_t chunk = kSinkChunk) {
    sink_ = sink;
    sink_chunk_ = std::max<size_t>(chunk, 1);
  }

  /// CLI header and image changes.
  void set_cli_flags(uint32_t flags) { cli_flags_ = flags; }
  void clear_managed_native_header() { clear_native_header_ = true; }
  void set_machine(uint16_t machine) { machine_ = machine; }
  /// Empties a data directory of the optional header.
  void clear_directory(pe::DataDirectoryIndex index) { cleared_directories_.push_back(index); }
  /// An entry of the output's debug directory: the header, and either new data (placed in the
  /// new section) or none (the entry keeps the input's data, which the header then names).
  struct DebugEntrySpec {
    pe::DebugDirectoryEdit::Entry header;
    std::optional<std::vector<uint8_t>> data;
  };
  /// Replaces the debug directory with `entries` (at most as many as the input has).
  void set_debug_directory(std::vector<DebugEntrySpec> entries) { debug_ = std::move(entries); }
  /// Gives the module a new MVID, written over the old one in the #GUID heap: Mono takes a
  /// module's MVID from the heap's first GUID rather than through the Module row.
  Status set_mvid(const Guid& mvid);
  /// The module's MVID as it will be written.
  Guid mvid() const;

  /// Finishes the new section (bodies, then metadata) and returns the output file, which refers
  /// to the module's bytes.
  Expected<pe::OutputImage> write();

 private:
  /// A row's identity by value: heap cells resolved to their strings and blobs, so rows that
  /// spell the same reference through different heap indexes still match.
  struct Value {
    enum Kind { Number, String, Blob } kind;
    uint32_t number = 0;
    std::string_view bytes;
  };
  /// Plans the cuts of the input's dead bytes and moves the MethodDef and FieldRVA cells that
  /// point past them (write(), before the metadata is written).
  pe::SectionCuts plan_cuts();
  /// Appends a row given its cells in schema order; returns its token.
  Expected<Token> add_row(TableId table, std::vector<uint32_t> cells);
  /// A cell of an original or appended row (after changes).
  uint32_t cell(TableId table, uint32_t rid, uint8_t column) const;
  void set_cell(TableId table, uint32_t rid, uint8_t column, uint32_t value);
  /// A coded index cell for `token` (0 for a nil token), or an error naming the column.
  Expected<uint32_t> coded_cell(CodedIndex kind, Token token, TableId table, uint8_t column) const;

  static std::string row_key(std::span<const Value> values);
  /// The values' hash, the same as original_row_hash's for a row that holds them; blob cells
  /// count only with `blobs` (RowIndex::hashes_blobs).
  static size_t row_hash(std::span<const Value> values, bool blobs);
  /// An original row's hash by value; nullopt when a heap cell does not resolve (such a row
  /// never matches).
  std::optional<size_t> original_row_hash(TableId table, uint32_t rid, bool blobs) const;
  /// Whether original row `rid` holds `values`.
  bool original_row_is(TableId table, uint32_t rid, std::span<const Value> values) const;
  /// Finds a row whose values equal `values`, or appends one with `cells`.
  Expected<Token> find_or_add(TableId table, std::span<const Value> values, std::vector<uint32_t> cells);
  Expected<std::vector<uint8_t>> blob_at(uint32_t index) const;
  /// Appends `bytes` to the new section at the next multiple of `alignment`; their RVA, or the
  /// error `too_far` when they would end past 4 GiB.
  Expected<uint32_t> append_aligned(std::span<const uint8_t> bytes, uint32_t alignment, const char* too_far);
  /// Offset in the new section of the next byte appended.
  uint64_t section_size() const { return streamed_ + section_.size(); }
  /// Whether `more` bytes appended to the section would fill a chunk for the sink.
  bool reaches_sink(size_t more) const { return sink_ && section_.size() + more >= sink_chunk_; }
  /// Appends to the new section; with a sink, passes on what fills a chunk. Inline where nothing
  /// reaches the sink (every method body).
  Status append_section(std::span<const uint8_t> bytes) {
    if (reaches_sink(bytes.size())) return append_through_sink(bytes);
    section_.insert(section_.end(), bytes.begin(), bytes.end());
    return ok();
  }
  Status append_through_sink(std::span<const uint8_t> bytes);
  /// Zero bytes up to a multiple of `alignment` (a power of two).
  Status align_section(uint32_t alignment) {
    size_t pad = static_cast<size_t>((alignment - section_size() % alignment) % alignment);
    if (reaches_sink(pad)) return align_through_sink(alignment);
    section_.resize(section_.size() + pad);
    return ok();
  }
  Status align_through_sink(uint32_t alignment);
  /// Passes the buffered bytes to the sink (all of them, or all but an odd last byte).
  Status flush_section(bool all);

  const Module& module_;
  StringHeapBuilder strings_;
  BlobHeapBuilder blobs_;
  UserStringHeapBuilder user_strings_;
  TableEdits edits_;
  std::optional<pe::SectionPlan> plan_;
  std::vector<uint8_t> section_;  ///< the new section (what has not gone to the sink): bodies, data, then metadata
  pe::SectionSink* sink_ = nullptr;
  size_t sink_chunk_ = kSinkChunk;
  uint64_t streamed_ = 0;      ///< bytes of the section already given to the sink
  uint64_t streamed_sum_ = 0;  ///< their pe::word_sum
  struct DataPiece {
    std::vector<uint8_t> bytes;
    uint32_t alignment;
    uint32_t field_rva;  ///< the FieldRVA row that gets the data's RVA
  };
  std::vector<DataPiece> data_;
  std::optional<uint32_t> cli_flags_;
  bool clear_native_header_ = false;
  std::optional<uint16_t> machine_;
  std::vector<pe::DataDirectoryIndex> cleared_directories_;
  std::optional<Guid> mvid_;
  std::vector<pe::RvaRange> dead_;  ///< input ranges nothing reads (drop_input_range)
  std::optional<std::vector<DebugEntrySpec>> debug_;
  /// Rows by value, per table, built on first use. The original rows' numbers are in an IdTable
  /// (the values read from the tables when compared: an index of a thousand MemberRefs is built
  /// in tens of microseconds, without an allocation per row); appended rows are keyed by
  /// row_key as they are added.
  struct RowIndex {
    IdTable rows;
    bool hashes_blobs = false;    ///< the table has only blob columns, so they are hashed
    std::unordered_map<std::string, uint32_t> added;
  };
  std::map<TableId, RowIndex> row_index_;
  std::unordered_map<std::string, Token> added_assemblies_;
};

}  // namespace cil::md
