// Reading and writing the #Pdb stream.
#include "metadata/pdb_stream.h"

#include <fmt/format.h>

#include "metadata/tables_stream.h"

namespace cil::md {

void PdbStream::set_rows(TableId table, uint32_t count) {
  referenced |= uint64_t{1} << static_cast<uint8_t>(table);
  rows[static_cast<uint8_t>(table)] = count;
}

Expected<PdbStream> PdbStream::parse(ByteReader r) {
  PdbStream s;
  s.file_offset = r.base_offset();
  auto id = CIL_TRY(r.bytes(s.id.size()));
  std::copy(id.begin(), id.end(), s.id.begin());
  s.entry_point = CIL_TRY(r.u32());
  s.referenced = CIL_TRY(r.u64());
  for (unsigned id = 0; id < kTableSlots; ++id) {
    if (!((s.referenced >> id) & 1)) continue;
    size_t at = r.position();
    uint32_t rows = CIL_TRY(r.u32());
    if (id >= kFirstDebugTable || !table_schema(static_cast<uint8_t>(id)).defined())
      return r.error_at(at, fmt::format("table {:#04x} is referenced but is not a type-system table", id));
    if (rows > kMaxRows)
      return make_error(ErrorKind::Limit, std::string(r.structure()),
                        fmt::format("{} has {} rows, more than a token can address", table_schema(static_cast<uint8_t>(id)).name, rows),
                        r.base_offset() + at);
    s.rows[id] = rows;
  }
  return s;
}

std::vector<uint8_t> PdbStream::encode() const {
  std::vector<uint8_t> out(id.begin(), id.end());
  auto put = [&](uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<uint8_t>(value >> (8 * i)));
  };
  put(entry_point, 4);
  put(referenced, 8);
  for (unsigned id = 0; id < kTableSlots; ++id)
    if ((referenced >> id) & 1) put(rows[id], 4);
  return out;
}

}  // namespace cil::md
