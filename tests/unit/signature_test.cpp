// Signature decoding, encoding round trips, and the depth cap.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "metadata/signature.h"

namespace cil::md {
namespace {

ByteReader blob(const std::vector<uint8_t>& b) { return ByteReader(b, 0, "signature"); }

TEST(Signature, MethodSigRoundTrip) {
  // instance !!0 M<1>(int32[], class TypeRef#2, valuetype TypeDef#3&, ..., string)
  std::vector<uint8_t> b{0x20 | 0x10 | 0x05, 1, 4, 0x1E, 0, 0x1D, 0x08, 0x12, 0x09, 0x10, 0x11, 0x0C, 0x41, 0x0E};
  auto sig = decode_method_sig(blob(b));
  ASSERT_TRUE(sig) << sig.error().to_string();
  EXPECT_TRUE(sig->has_this());
  EXPECT_TRUE(sig->generic());
  EXPECT_EQ(sig->generic_count, 1u);
  EXPECT_EQ(sig->return_type.element, ElementType::MVar);
  ASSERT_EQ(sig->params.size(), 4u);
  EXPECT_EQ(sig->params[1].token, make_token(TableId::TypeRef, 2));
  EXPECT_EQ(sig->params[2].children[0].token, make_token(TableId::TypeDef, 3));
  EXPECT_EQ(sig->sentinel, 3);
  std::vector<uint8_t> again;
  encode_method_sig(again, *sig);
  EXPECT_EQ(again, b);
}

TEST(Signature, ArrayGenericModifiersFnPtr) {
  std::vector<uint8_t> b{
      0x07, 4,
      0x14, 0x08, 2, 1, 3, 2, 0, 0x7F,            // int32[0...2,-1...]
      0x15, 0x12, 0x05, 2, 0x0E, 0x13, 0,        // class TypeRef#1<string, !0>
      0x20, 0x06, 0x10, 0x08,                    // modopt(TypeDef#1) int32&  (modifier first)
      0x1B, 0x00, 1, 0x01, 0x08,                 // method void *(int32)
  };
  auto locals = decode_locals_sig(blob(b));
  ASSERT_TRUE(locals) << locals.error().to_string();
  ASSERT_EQ(locals->size(), 4u);
  EXPECT_EQ((*locals)[0].shape->rank, 2u);
  EXPECT_EQ((*locals)[0].shape->lower_bounds[1], -1);
  EXPECT_EQ((*locals)[1].children.size(), 3u);
  EXPECT_EQ((*locals)[2].modifiers.size(), 1u);
  EXPECT_FALSE((*locals)[2].modifiers[0].required);
  EXPECT_EQ((*locals)[3].method->params.size(), 1u);
  std::vector<uint8_t> again{0x07, 4};
  for (const auto& t : *locals) encode_type(again, t);
  EXPECT_EQ(again, b);
}

TEST(Signature, DepthCap) {
  std::vector<uint8_t> b{0x06};
  b.insert(b.end(), 10000, 0x0F);  // pointer to pointer to ...
  b.push_back(0x08);
  auto t = decode_field_sig(blob(b));
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().kind, ErrorKind::Limit);
}

TEST(Signature, Malformed) {
  EXPECT_FALSE(decode_field_sig(blob({0x06})));                 // truncated
  EXPECT_FALSE(decode_field_sig(blob({0x06, 0x42})));           // unknown element type
  EXPECT_FALSE(decode_field_sig(blob({0x06, 0x12, 0x03})));     // TypeDefOrRef tag 3
  EXPECT_FALSE(decode_method_sig(blob({0x00, 0x7F, 0x01})));    // 127 params, none present
  EXPECT_FALSE(decode_locals_sig(blob({0x06, 0x00})));          // wrong kind
  EXPECT_FALSE(decode_type_spec(blob({0x15, 0x08, 0x01, 0x00})));  // GENERICINST of int32
  EXPECT_FALSE(decode_method_sig(blob({0x00, 0x02, 0x01, 0x41, 0x08, 0x41, 0x08})));  // two sentinels
}

// Regression (tests/fuzz/regressions/signature-internal-handle-dropped): the 8-byte handle after
// ELEMENT_TYPE_INTERNAL was skipped when decoding and not written back, so the re-encoded blob
// lost it and the rest of the signature was read from the wrong bytes.
TEST(Signature, InternalHandleRoundTrip) {
  std::vector<uint8_t> b{0x00, 2, 0x01, 0x21, 1, 2, 3, 4, 5, 6, 7, 8, 0x08};  // void (<internal>, int32)
  auto sig = decode_method_sig(blob(b));
  ASSERT_TRUE(sig) << sig.error().to_string();
  ASSERT_EQ(sig->params.size(), 2u);
  EXPECT_EQ(sig->params[0].element, ElementType::Internal);
  EXPECT_EQ(sig->params[0].handle, 0x0807060504030201u);
  std::vector<uint8_t> again;
  encode_method_sig(again, *sig);
  EXPECT_EQ(again, b);
}

// Array lower bounds are compressed signed integers: the width belongs to the value, and the
// rotated bits of a wide value may look small (fuzzer find: -268427317 was written in 2 bytes and
// read back as -53; -8192 in 1 byte, read back as -64).
TEST(Signature, LowerBoundsKeepTheirWidth) {
  const std::vector<int32_t> bounds = {0, 63, -64, 64, -65, 8191, -8192, 8192, -8193,
                                       268435455, -268435456, -268427317};
  TypeSig element;
  element.element = ElementType::I4;
  TypeSig array;
  array.element = ElementType::Array;
  array.children.push_back(element);
  array.shape = std::make_shared<ArrayShape>(ArrayShape{static_cast<uint32_t>(bounds.size()), {}, bounds});
  std::vector<uint8_t> bytes;
  encode_type(bytes, array);
  ByteReader r(bytes, 0, "signature");
  auto decoded = decode_type(r, 0);
  ASSERT_TRUE(decoded) << decoded.error().to_string();
  EXPECT_TRUE(r.at_end());
  ASSERT_TRUE(decoded->shape);
  EXPECT_EQ(decoded->shape->lower_bounds, bounds);
  // The widths ECMA-335 II.23.2 gives: 1 byte for [-64, 63], 2 for [-8192, 8191], else 4.
  std::vector<uint8_t> one;
  TypeSig single = array;
  single.shape = std::make_shared<ArrayShape>(ArrayShape{1, {}, {-8192}});
  encode_type(one, single);
  EXPECT_EQ(one, (std::vector<uint8_t>{0x14, 0x08, 1, 0, 1, 0x80, 0x01}));
}

}  // namespace
}  // namespace cil::md
