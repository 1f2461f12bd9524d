// Fuzz target: the metadata root, stream headers, heaps and tables stream, then the module's
// owner and nesting maps and every name the printer makes. The input is a metadata root; a
// fixed PE32 shell around it lets Module::parse read it. The printer must never fail.
#include <algorithm>
#include <string>
#include <type_traits>

#include <fmt/format.h>

#include "fuzz_check.h"
#include "support/synthetic_image.h"
#include "metadata/module.h"
#include "metadata/printer.h"

namespace {

using namespace cil;
using namespace cil::md;

/// Reads every cell of every table and resolves each heap index and coded index.
void walk_tables(const Module& m) {
  const TablesStream& t = m.tables();
  for (uint8_t id = 0; id < kTableSlots; ++id) {
    const TableSchema& schema = table_schema(id);
    auto table = static_cast<TableId>(id);
    uint32_t rows = t.rows(table);
    if (rows) CIL_FUZZ_CHECK(schema.defined(), "rows in an unknown table");
    CIL_FUZZ_CHECK(rows <= kMaxRows, "more rows than the cap");
    for (uint32_t rid = 1; rid <= rows; ++rid) {
      for (uint8_t c = 0; c < schema.columns.size(); ++c) {
        uint32_t v = t.get(table, rid, c);
        switch (schema.columns[c].kind) {
          case ColumnKind::String: (void)m.strings().get(v); break;
          case ColumnKind::Blob: (void)m.blobs().get(v); break;
          case ColumnKind::Guid: (void)m.metadata().guids().get(v); break;
          case ColumnKind::Coded: (void)t.decode(static_cast<CodedIndex>(schema.columns[c].target), v); break;
          default: break;
        }
      }
    }
  }
}

/// Calls every typed accessor (metadata/rows.h) on every row, as engine code reads them: heap
/// columns through their heaps, coded columns decoded. The results feed a sink the optimizer
/// must keep.
template <class V>
uint64_t weigh(const V& value) {
  if constexpr (std::is_enum_v<V>) return raw(value);
  else if constexpr (std::is_integral_v<V>) return value;
  else if constexpr (std::is_same_v<V, std::string_view>) return value.size();
  else return value ? 1 : 0;  // Expected<...>
}

void walk_typed_rows(const Module& m) {
  const TablesStream& t = m.tables();
  uint64_t sum = 0;
#define CIL_TABLE(id, Table) \
  for (uint32_t rid = 1; rid <= t.rows(TableId::Table); ++rid) { \
    auto row = m.row<TableId::Table>(rid);
#define CIL_COLUMN(Table, Column, field, Kind, Arg) sum += weigh(row.field());
#define CIL_TABLE_END(Table) }
#include "metadata/tables.def"
#undef CIL_TABLE
#undef CIL_COLUMN
#undef CIL_TABLE_END
  volatile uint64_t sink = sum;
  (void)sink;
}

/// Rows of each table whose text is printed: enough for chains and cycles between rows, few
/// enough that an input with thousands of rows still runs fast.
constexpr uint32_t kPrintedRows = 16;

/// Prints what info and dump print about each row. Every text must be within the printer's cap
/// (kMaxPrintedText, plus a word such as "method "); sanitizers and timeouts check the rest.
void print_everything(const Module& m) {
  const TablesStream& t = m.tables();
  Printer p(m);
  auto rows = [&](TableId table) { return std::min(t.rows(table), kPrintedRows); };
  auto check = [](const std::string& text) {
    CIL_FUZZ_CHECK(text.size() <= kMaxPrintedText + 16, fmt::format("printed {} bytes", text.size()));
  };
  for (uint32_t rid = 1; rid <= rows(TableId::TypeDef); ++rid) {
    check(p.type_def_name(TypeDefId(rid)));
    check(p.type_token(make_token(TableId::TypeDef, rid)));
    (void)m.methods_of(TypeDefId(rid));
  }
  for (uint32_t rid = 1; rid <= rows(TableId::TypeRef); ++rid) check(p.type_token(make_token(TableId::TypeRef, rid)));
  for (uint32_t rid = 1; rid <= rows(TableId::TypeSpec); ++rid) check(p.type_token(make_token(TableId::TypeSpec, rid)));
  for (uint32_t rid = 1; rid <= rows(TableId::MethodDef); ++rid) {
    check(p.method_name(MethodDefId(rid)));
    check(p.method_header(MethodDefId(rid)));
    check(p.method_token(make_token(TableId::MethodDef, rid)));
  }
  for (uint32_t rid = 1; rid <= rows(TableId::Field); ++rid) check(p.any_token(make_token(TableId::Field, rid)));
  for (uint32_t rid = 1; rid <= rows(TableId::MemberRef); ++rid) check(p.any_token(make_token(TableId::MemberRef, rid)));
  for (uint32_t rid = 1; rid <= rows(TableId::MethodSpec); ++rid) check(p.any_token(make_token(TableId::MethodSpec, rid)));
  for (uint32_t rid = 1; rid <= rows(TableId::StandAloneSig); ++rid) {
    Token token = make_token(TableId::StandAloneSig, rid);
    check(p.standalone_method_sig(token));
    check(p.locals(token, true));
  }
  // #US: walk the heap entry by entry, as ldstr tokens would name them.
  const UserStringHeap& us = m.metadata().user_strings();
  for (uint32_t index = 1, n = 0; index < us.size() && index <= kMaxRid && n < kPrintedRows; ++n) {
    check(p.user_string(make_token(static_cast<TableId>(kUserStringTokenType), index)));
    ByteReader r(us.data(), 0, "#US");
    if (!r.seek(index)) break;
    auto length = r.compressed_u32();
    if (!length) break;
    index = static_cast<uint32_t>(r.position()) + *length;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<uint8_t> image = testing::pe_image({data, size});
  auto module = Module::parse(std::move(image));
  if (!module) return 0;
  walk_tables(**module);
  walk_typed_rows(**module);
  print_everything(**module);
  return 0;
}
