// A module being rewritten: appended rows and heap entries, replaced method bodies, CLI header
// changes, and the writer that turns them into a new file. Every existing row keeps its token.
#pragma once

#include <map>
#include <unordered_map>
#include <optional>
#include <string>
#include <vector>

#include "metadata/heap_builder.h"
#include "metadata/metadata_sink.h"
#include "metadata/metadata_writer.h"
#include "metadata/module.h"

namespace cil::md {

class ModuleEditor final : public MetadataSink {
 public:
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

  /// Heap entries (find or add).
  uint32_t add_string(std::string_view text) { return strings_.add(text); }
  uint32_t add_blob(std::span<const uint8_t> blob) { return blobs_.add(blob); }

  /// Appends a row given its cells in schema order; returns its token.
  Expected<Token> add_row(TableId table, std::vector<uint32_t> cells);
  /// Rows in a table, original and appended.
  uint32_t rows(TableId table) const;
  /// A cell of an original or appended row (after changes).
  uint32_t cell(TableId table, uint32_t rid, uint8_t column) const;
  void set_cell(TableId table, uint32_t rid, uint8_t column, uint32_t value);

  /// Gives MethodDef `rid` (original or appended) a new body: complete bytes, header included.
  void set_method_body(uint32_t rid, std::vector<uint8_t> body);

  /// CLI header and image changes.
  void set_cli_flags(uint32_t flags) { cli_flags_ = flags; }
  void clear_managed_native_header() { clear_native_header_ = true; }
  void set_machine(uint16_t machine) { machine_ = machine; }

  /// Lays out the new section (bodies, then metadata) and returns the complete output file.
  Expected<std::vector<uint8_t>> write();

 private:
  /// A row's identity by value: heap cells resolved to their strings and blobs, so rows that
  /// spell the same reference through different heap indexes still match.
  struct Value {
    enum Kind { Number, String, Blob } kind;
    uint32_t number = 0;
    std::string_view bytes;
  };
  static std::string row_key(std::span<const Value> values);
  std::string original_row_key(TableId table, uint32_t rid) const;
  /// Finds a row whose values equal `values`, or appends one with `cells`.
  Expected<Token> find_or_add(TableId table, std::span<const Value> values, std::vector<uint32_t> cells);
  Expected<std::vector<uint8_t>> blob_at(uint32_t index) const;

  const Module& module_;
  StringHeapBuilder strings_;
  BlobHeapBuilder blobs_;
  UserStringHeapBuilder user_strings_;
  TableEdits edits_;
  std::map<uint32_t, std::vector<uint8_t>> bodies_;
  std::optional<uint32_t> cli_flags_;
  bool clear_native_header_ = false;
  std::optional<uint16_t> machine_;
  /// Rows by value, per table, built on first use; appended rows join as they are added.
  std::map<TableId, std::unordered_map<std::string, uint32_t>> row_index_;
  std::unordered_map<std::string, Token> added_assemblies_;
};

}  // namespace cil::md
