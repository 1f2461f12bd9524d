// The signature type model (ECMA-335 II.23.2): types, method, field, property, locals, TypeSpec
// and MethodSpec signatures, decoded from blobs and encoded back.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "metadata/schema.h"
#include "support/byte_reader.h"
#include "support/error.h"

namespace cil::md {

/// Recursion cap for nested signature types.
inline constexpr unsigned kMaxSignatureDepth = 64;

enum class ElementType : uint8_t {
  End = 0x00, Void = 0x01, Boolean = 0x02, Char = 0x03, I1 = 0x04, U1 = 0x05, I2 = 0x06, U2 = 0x07,
  I4 = 0x08, U4 = 0x09, I8 = 0x0A, U8 = 0x0B, R4 = 0x0C, R8 = 0x0D, String = 0x0E, Ptr = 0x0F,
  ByRef = 0x10, ValueType = 0x11, Class = 0x12, Var = 0x13, Array = 0x14, GenericInst = 0x15,
  TypedByRef = 0x16, I = 0x18, U = 0x19, FnPtr = 0x1B, Object = 0x1C, SzArray = 0x1D, MVar = 0x1E,
  CModReqd = 0x1F, CModOpt = 0x20, Internal = 0x21, Sentinel = 0x41, Pinned = 0x45,
};

// Calling convention byte (II.23.2.1-3)
inline constexpr uint8_t kCallConvMask = 0x0F;
inline constexpr uint8_t kCallDefault = 0x0, kCallC = 0x1, kCallStdCall = 0x2, kCallThisCall = 0x3,
                         kCallFastCall = 0x4, kCallVarArg = 0x5, kCallUnmanaged = 0x9, kSigField = 0x6,
                         kSigLocals = 0x7, kSigProperty = 0x8, kSigGenericInst = 0x0A;
inline constexpr uint8_t kCallGeneric = 0x10, kCallHasThis = 0x20, kCallExplicitThis = 0x40;

struct MethodSig;

struct CustomModifier {
  bool required = false;
  Token type;  ///< TypeDef, TypeRef or TypeSpec
};

struct ArrayShape {
  uint32_t rank = 0;
  std::vector<uint32_t> sizes;
  std::vector<int32_t> lower_bounds;
};

/// One type in a signature. Wrapping kinds (Ptr, ByRef, SzArray, Array, Pinned) hold their
/// element in children[0]; GenericInst holds the generic type then its arguments.
struct TypeSig {
  ElementType element = ElementType::End;
  Token token;          ///< Class, ValueType: the TypeDefOrRef token
  uint32_t number = 0;      ///< Var, MVar: the parameter index
  uint64_t handle = 0;      ///< Internal: the runtime handle, kept so that the blob re-encodes
  std::vector<CustomModifier> modifiers;  ///< modifiers that precede this type, in order
  std::vector<TypeSig> children;
  std::shared_ptr<const ArrayShape> shape;  ///< Array
  std::shared_ptr<const MethodSig> method;  ///< FnPtr

  bool is_void() const { return element == ElementType::Void && modifiers.empty(); }
};

struct MethodSig {
  uint8_t convention = 0;  ///< the first byte: kind in the low nibble, flags above
  uint32_t generic_count = 0;
  TypeSig return_type;
  std::vector<TypeSig> params;
  int32_t sentinel = -1;   ///< index in params where the variable part of a vararg call starts

  uint8_t kind() const { return convention & kCallConvMask; }
  bool has_this() const { return convention & kCallHasThis; }
  bool explicit_this() const { return convention & kCallExplicitThis; }
  bool generic() const { return convention & kCallGeneric; }
};

struct PropertySig {
  bool has_this = false;
  TypeSig type;
  std::vector<TypeSig> params;
};

/// Decoders take a reader over exactly the blob and fail on malformed or over-deep input.
Expected<TypeSig> decode_type(ByteReader& r, unsigned depth = 0);
Expected<MethodSig> decode_method_sig(ByteReader r);
Expected<TypeSig> decode_field_sig(ByteReader r);
Expected<PropertySig> decode_property_sig(ByteReader r);
Expected<std::vector<TypeSig>> decode_locals_sig(ByteReader r);
Expected<std::vector<TypeSig>> decode_method_spec_sig(ByteReader r);
Expected<TypeSig> decode_type_spec(ByteReader r);

/// Encoders (II.23.2) append to `out`.
void encode_compressed_u32(std::vector<uint8_t>& out, uint32_t value);
void encode_compressed_i32(std::vector<uint8_t>& out, int32_t value);
/// How many bytes the shortest form of a compressed value takes (II.23.2): what the encoders
/// write, and what a reader that wants that form compares against.
constexpr size_t compressed_u32_size(uint32_t value) { return value < 0x80 ? 1 : value < 0x4000 ? 2 : 4; }
constexpr size_t compressed_i32_size(int32_t value) {
  return value >= -64 && value <= 63 ? 1 : value >= -8192 && value <= 8191 ? 2 : 4;
}
/// The same written at `at`, which has room for 4 bytes; returns the end of what was written
/// (for encoders that size their buffer for the worst case first, such as sequence points').
inline uint8_t* put_compressed_u32(uint8_t* at, uint32_t value) {
  switch (compressed_u32_size(value)) {
    case 1: *at++ = static_cast<uint8_t>(value); break;
    case 2:
      *at++ = static_cast<uint8_t>(0x80 | (value >> 8));
      *at++ = static_cast<uint8_t>(value);
      break;
    default:
      *at++ = static_cast<uint8_t>(0xC0 | ((value >> 24) & 0x1F));
      *at++ = static_cast<uint8_t>(value >> 16);
      *at++ = static_cast<uint8_t>(value >> 8);
      *at++ = static_cast<uint8_t>(value);
  }
  return at;
}
inline uint8_t* put_compressed_i32(uint8_t* at, int32_t value) {
  // II.23.2: rotate the two's-complement value left by one within the chosen width, and write it
  // in that width: the rotated bits may be small enough for a shorter form, but the reader sign-
  // extends by the width it finds, so the width must be the value's own.
  switch (compressed_i32_size(value)) {
    case 1: {
      uint32_t v = static_cast<uint32_t>(value) & 0x7F;
      *at++ = static_cast<uint8_t>(((v << 1) | (v >> 6)) & 0x7F);
      break;
    }
    case 2: {
      uint32_t v = static_cast<uint32_t>(value) & 0x3FFF;
      uint32_t raw = ((v << 1) | (v >> 13)) & 0x3FFF;
      *at++ = static_cast<uint8_t>(0x80 | (raw >> 8));
      *at++ = static_cast<uint8_t>(raw);
      break;
    }
    default: {
      uint32_t v = static_cast<uint32_t>(value) & 0x1FFFFFFF;
      uint32_t raw = ((v << 1) | (v >> 28)) & 0x1FFFFFFF;
      *at++ = static_cast<uint8_t>(0xC0 | (raw >> 24));
      *at++ = static_cast<uint8_t>(raw >> 16);
      *at++ = static_cast<uint8_t>(raw >> 8);
      *at++ = static_cast<uint8_t>(raw);
    }
  }
  return at;
}
void encode_type(std::vector<uint8_t>& out, const TypeSig& type);
void encode_method_sig(std::vector<uint8_t>& out, const MethodSig& sig);
/// TypeDefOrRefOrSpecEncoded (II.23.2.8).
void encode_type_def_or_ref(std::vector<uint8_t>& out, Token token);

/// The blob of a default (or instance, with `has_this`) method signature.
std::vector<uint8_t> method_signature(bool has_this, const TypeSig& return_type, const std::vector<TypeSig>& params);

/// Shorthands for building types.
TypeSig primitive(ElementType element);
TypeSig class_type(Token token);
TypeSig value_type(Token token);
TypeSig wrap(ElementType element, TypeSig inner);

}  // namespace cil::md
