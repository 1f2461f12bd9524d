// Little-endian appenders for the byte vectors the unit tests build by hand (method bodies,
// headers, tables).
#pragma once

#include <cstdint>
#include <vector>

namespace cil::testing {

inline void put16(std::vector<uint8_t>& b, uint16_t v) {
  b.push_back(static_cast<uint8_t>(v));
  b.push_back(static_cast<uint8_t>(v >> 8));
}

inline void put32(std::vector<uint8_t>& b, uint32_t v) {
  for (int i = 0; i < 4; ++i) b.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

}  // namespace cil::testing
