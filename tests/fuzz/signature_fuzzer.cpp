// Fuzz target: the signature decoders (II.23.2), fed the blob directly; the first byte picks
// the decoder. What decodes must re-encode to bytes that decode to the same encoding again
// (the encoders are canonical, the decoders accept non-canonical compressed integers).
#include <string>

#include "fuzz_check.h"
#include "metadata/signature.h"

namespace {

using namespace cil;
using namespace cil::md;

ByteReader reader(std::span<const uint8_t> blob) { return ByteReader(blob, 0, "signature"); }

unsigned depth_of(const TypeSig& t) {
  unsigned d = 0;
  for (const auto& c : t.children) d = std::max(d, depth_of(c) + 1);
  if (t.method) {
    d = std::max(d, depth_of(t.method->return_type) + 1);
    for (const auto& p : t.method->params) d = std::max(d, depth_of(p) + 1);
  }
  return d;
}

void check_type(std::span<const uint8_t> blob) {
  ByteReader r = reader(blob);
  auto type = decode_type(r, 0);
  if (!type) return;
  CIL_FUZZ_CHECK(depth_of(*type) <= kMaxSignatureDepth + 1, "a type nests deeper than the cap");
  std::vector<uint8_t> once;
  encode_type(once, *type);
  ByteReader again = reader(once);
  auto decoded = decode_type(again, 0);
  CIL_FUZZ_CHECK(decoded, "an encoded type does not decode: " + decoded.error().to_string());
  CIL_FUZZ_CHECK(again.at_end(), "an encoded type has bytes left over");
  std::vector<uint8_t> twice;
  encode_type(twice, *decoded);
  CIL_FUZZ_CHECK(once == twice, "type round trip differs");
}

void check_method(std::span<const uint8_t> blob) {
  auto sig = decode_method_sig(reader(blob));
  if (!sig) return;
  std::vector<uint8_t> once;
  encode_method_sig(once, *sig);
  auto decoded = decode_method_sig(reader(once));
  CIL_FUZZ_CHECK(decoded, "an encoded method signature does not decode: " + decoded.error().to_string());
  std::vector<uint8_t> twice;
  encode_method_sig(twice, *decoded);
  CIL_FUZZ_CHECK(once == twice, "method signature round trip differs");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  std::span<const uint8_t> blob(data + 1, size - 1);
  switch (data[0] % 7) {
    case 0: check_method(blob); break;
    case 1: (void)decode_field_sig(reader(blob)); break;
    case 2: (void)decode_property_sig(reader(blob)); break;
    case 3: (void)decode_locals_sig(reader(blob)); break;
    case 4: (void)decode_method_spec_sig(reader(blob)); break;
    case 5: (void)decode_type_spec(reader(blob)); break;
    case 6: check_type(blob); break;
  }
  return 0;
}
