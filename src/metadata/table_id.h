// Metadata table ids (II.22), generated from tables.def: the one enum that schema, typed ids and
// rows all name tables by.
#pragma once

#include <cstdint>

namespace cil::md {

/// Metadata table ids (II.22), plus the portable PDB tables.
enum class TableId : uint8_t {
#define CIL_TABLE(id, Table) Table = id,
#define CIL_COLUMN(Table, Column, field, Kind, Arg)
#define CIL_TABLE_END(Table)
#include "metadata/tables.def"
#undef CIL_TABLE
#undef CIL_COLUMN
#undef CIL_TABLE_END
  Unused = 0xFF,
};

}  // namespace cil::md
