// A loaded managed module: the file bytes, its PE view, CLI header, metadata, and the derived
// maps (member owners, enclosing types) that naming and rewriting need.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "metadata/metadata.h"
#include "metadata/rows.h"
#include "pe/cli_header.h"
#include "support/error.h"
#include "support/file_io.h"
#include "pe/pe_image.h"

namespace cil::md {

/// Cap on nesting when walking enclosing types, so a NestedClass cycle cannot loop.
inline constexpr unsigned kMaxNestingDepth = 64;

class Module {
 public:
  /// Reads and parses `path`. Errors name the structure and offset, not the file.
  static Expected<std::unique_ptr<Module>> load(const std::string& path);
  /// Parses bytes already in memory.
  static Expected<std::unique_ptr<Module>> parse(std::vector<uint8_t> bytes);
  /// Parses bytes the caller keeps alive and unchanged while the module lives (an output read
  /// back without a copy).
  static Expected<std::unique_ptr<Module>> parse_view(std::span<const uint8_t> bytes);

  std::span<const uint8_t> bytes() const { return bytes_; }
  /// The file the bytes are mapped from, when load() could map it (for copies in the kernel).
  CopySource copy_source() const { return mapped_ ? CopySource{mapped_->fd(), mapped_->bytes()} : CopySource{}; }
  /// When the bytes are mapped from the file: lets the kernel take back the pages read so far
  /// (MappedFile::release_pages). The module reads on as before; what it reads next is read
  /// from the file again.
  void release_pages() const {
    if (mapped_) mapped_->release_pages();
  }
  const pe::PeImage& image() const { return image_; }
  const pe::CliHeader& cli() const { return cli_; }
  const Metadata& metadata() const { return metadata_; }
  const TablesStream& tables() const { return metadata_.tables(); }
  const StringHeap& strings() const { return metadata_.strings(); }
  const BlobHeap& blobs() const { return metadata_.blobs(); }

  /// Row `id` as a typed view: row(method).flags() for a MethodDefId. `id` must be valid (1 to
  /// tables().rows(T)), as for TablesStream::get.
  template <TableId T>
  RowViewOf<T> row(RowId<T> id) const { return RowViewOf<T>(metadata_, id.value()); }
  /// Row `rid` of table T by its number, for walks over a whole table: row<TableId::MethodDef>(rid).
  template <TableId T>
  RowViewOf<T> row(uint32_t rid) const { return RowViewOf<T>(metadata_, rid); }
  /// Every row of table T as a typed id, 1 to tables().rows(T).
  template <TableId T>
  RowRange<T> ids() const { return RowRange<T>(tables().rows(T)); }
  /// True when `id` is a row of its table (1 to tables().rows(T)).
  template <TableId T>
  bool valid(RowId<T> id) const { return tables().valid_rid(T, id.value()); }
  /// The row `token` names when it is a valid row of table T; nullopt otherwise.
  template <TableId T>
  std::optional<RowViewOf<T>> find_row(Token token) const {
    if (token_table(token) != T || !tables().valid_rid(T, token_rid(token))) return std::nullopt;
    return RowViewOf<T>(metadata_, token_rid(token));
  }

  /// The type that owns `method`, or nil when no type lists it.
  TypeDefId method_owner(MethodDefId method) const { return TypeDefId(at(method_owner_, method.value())); }
  /// The type that owns `field`, or nil.
  TypeDefId field_owner(FieldId field) const { return TypeDefId(at(field_owner_, field.value())); }
  /// The type that encloses `type`, or nil for a top-level type.
  TypeDefId enclosing_type(TypeDefId type) const { return TypeDefId(at(enclosing_, type.value())); }
  /// The methods of `type`, in list order, through MethodPtr when present.
  std::vector<MethodDefId> methods_of(TypeDefId type) const;
  /// The namespace and name of a type.
  struct TypeName {
    std::string_view ns, name;
  };
  /// The attribute type of CustomAttribute row `rid` (a valid rid): the TypeRef or TypeDef that
  /// declares its constructor (a MemberRef's class, or a MethodDef's owner). Empty when that is
  /// neither (a TypeSpec, a token out of range). ECMA-335 II.22.10.
  TypeName attribute_type(CustomAttributeId attribute) const;
  /// The namespace and name of a TypeRef or TypeDef token; empty for anything else.
  TypeName type_name(Token type) const;
  /// True when `type` extends System.ValueType or System.Enum: a value type.
  bool is_value_type(TypeDefId type) const;
  /// The params of `method`, through ParamPtr when present.
  std::vector<ParamId> params_of(MethodDefId method) const;

  /// A string from #Strings, or a placeholder naming the bad index (for display only).
  std::string_view string_or_placeholder(uint32_t index) const { return strings().get_or_placeholder(index); }

 private:
  Module() = default;
  static uint32_t at(const std::vector<uint32_t>& map, uint32_t rid) { return rid < map.size() ? map[rid] : 0; }
  Status init();
  /// A list column (`column(rid)` for rows 1 to `rows` of its table) as a running maximum, index
  /// 0 unused. ECMA-335 lists are sorted (II.22.37); an unsorted hostile column would otherwise
  /// let every row own most of the list, costing rows x list entries. Sorted columns are unchanged.
  template <class ListColumn>
  std::vector<uint32_t> list_starts(uint32_t rows, ListColumn column) const;
  /// [first, last) list range of row `rid` of `owner` from its list starts, clamped to the list.
  std::pair<uint32_t, uint32_t> list_range(const std::vector<uint32_t>& starts, uint32_t rid, TableId list) const;
  uint32_t list_entry(TableId ptr_table, TableId target, uint32_t index) const;

  std::vector<uint8_t> owned_;         ///< the bytes, when parsed from memory or read
  std::optional<MappedFile> mapped_;   ///< the bytes, when mapped from the file
  std::span<const uint8_t> bytes_;
  pe::PeImage image_;
  pe::CliHeader cli_;
  Metadata metadata_;
  std::vector<uint32_t> method_owner_;
  std::vector<uint32_t> field_owner_;
  std::vector<uint32_t> enclosing_;
  std::vector<uint32_t> method_lists_;  ///< TypeDef.MethodList starts
  std::vector<uint32_t> field_lists_;   ///< TypeDef.FieldList starts
  std::vector<uint32_t> param_lists_;   ///< MethodDef.ParamList starts
};

}  // namespace cil::md
