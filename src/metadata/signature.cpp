// Decoding and encoding of signature blobs (II.23.2), with a depth cap against hostile input.
#include "metadata/signature.h"

#include <fmt/format.h>

namespace cil::md {

namespace {

Expected<Token> decode_type_def_or_ref(ByteReader& r) {
  size_t at = r.position();
  uint32_t coded = CIL_TRY(r.compressed_u32());
  static constexpr TableId kTables[] = {TableId::TypeDef, TableId::TypeRef, TableId::TypeSpec};
  uint32_t tag = coded & 3;
  if (tag == 3) return r.error_at(at, fmt::format("TypeDefOrRefOrSpecEncoded has invalid tag 3 ({:#x})", coded));
  return make_token(kTables[tag], coded >> 2);
}

Expected<MethodSig> decode_method_sig_body(ByteReader& r, uint8_t convention, unsigned depth);

bool is_modifier(uint8_t b) {
  return b == static_cast<uint8_t>(ElementType::CModReqd) || b == static_cast<uint8_t>(ElementType::CModOpt);
}

}  // namespace

Expected<TypeSig> decode_type(ByteReader& r, unsigned depth) {
  if (depth > kMaxSignatureDepth)
    return make_error(ErrorKind::Limit, std::string(r.structure()),
                      fmt::format("types nest deeper than {}", kMaxSignatureDepth), r.file_offset());
  TypeSig t;
  uint8_t b = CIL_TRY(r.peek_at<uint8_t>(r.position()));
  while (is_modifier(b)) {
    CIL_TRY(r.u8());
    CustomModifier mod;
    mod.required = b == static_cast<uint8_t>(ElementType::CModReqd);
    mod.type = CIL_TRY(decode_type_def_or_ref(r));
    t.modifiers.push_back(mod);
    b = CIL_TRY(r.peek_at<uint8_t>(r.position()));
  }
  size_t at = r.position();
  b = CIL_TRY(r.u8());
  t.element = static_cast<ElementType>(b);
  switch (t.element) {
    case ElementType::Void: case ElementType::Boolean: case ElementType::Char: case ElementType::I1:
    case ElementType::U1: case ElementType::I2: case ElementType::U2: case ElementType::I4:
    case ElementType::U4: case ElementType::I8: case ElementType::U8: case ElementType::R4:
    case ElementType::R8: case ElementType::String: case ElementType::TypedByRef: case ElementType::I:
    case ElementType::U: case ElementType::Object:
      break;
    case ElementType::Ptr: case ElementType::ByRef: case ElementType::SzArray: case ElementType::Pinned:
      t.children.push_back(CIL_TRY(decode_type(r, depth + 1)));
      break;
    case ElementType::ValueType: case ElementType::Class:
      t.token = CIL_TRY(decode_type_def_or_ref(r));
      break;
    case ElementType::Var: case ElementType::MVar:
      t.number = CIL_TRY(r.compressed_u32());
      break;
    case ElementType::Array: {
      t.children.push_back(CIL_TRY(decode_type(r, depth + 1)));
      auto shape = std::make_shared<ArrayShape>();
      shape->rank = CIL_TRY(r.compressed_u32());
      uint32_t num_sizes = CIL_TRY(r.compressed_u32());
      if (num_sizes > r.remaining()) return r.error_here(fmt::format("array shape claims {} sizes", num_sizes));
      for (uint32_t i = 0; i < num_sizes; ++i) shape->sizes.push_back(CIL_TRY(r.compressed_u32()));
      uint32_t num_lo = CIL_TRY(r.compressed_u32());
      if (num_lo > r.remaining()) return r.error_here(fmt::format("array shape claims {} lower bounds", num_lo));
      for (uint32_t i = 0; i < num_lo; ++i) shape->lower_bounds.push_back(CIL_TRY(r.compressed_i32()));
      t.shape = std::move(shape);
      break;
    }
    case ElementType::GenericInst: {
      uint8_t kind = CIL_TRY(r.u8());
      if (kind != static_cast<uint8_t>(ElementType::Class) && kind != static_cast<uint8_t>(ElementType::ValueType))
        return r.error_at(at + 1, fmt::format("GENERICINST of element type {:#04x}", kind));
      TypeSig generic;
      generic.element = static_cast<ElementType>(kind);
      generic.token = CIL_TRY(decode_type_def_or_ref(r));
      t.children.push_back(std::move(generic));
      uint32_t count = CIL_TRY(r.compressed_u32());
      if (count > r.remaining()) return r.error_here(fmt::format("generic instantiation claims {} arguments", count));
      for (uint32_t i = 0; i < count; ++i) t.children.push_back(CIL_TRY(decode_type(r, depth + 1)));
      break;
    }
    case ElementType::FnPtr: {
      uint8_t convention = CIL_TRY(r.u8());
      t.method = std::make_shared<MethodSig>(CIL_TRY(decode_method_sig_body(r, convention, depth + 1)));
      break;
    }
    case ElementType::Internal:
      // ELEMENT_TYPE_INTERNAL carries a pointer-sized runtime handle; only in runtime-made blobs.
      t.handle = CIL_TRY(r.u64());
      break;
    default:
      return r.error_at(at, fmt::format("unknown element type {:#04x}", b));
  }
  return t;
}

namespace {

Expected<MethodSig> decode_method_sig_body(ByteReader& r, uint8_t convention, unsigned depth) {
  MethodSig sig;
  sig.convention = convention;
  uint8_t kind = convention & kCallConvMask;
  if (kind > kCallVarArg && kind != kCallUnmanaged)
    return r.error_at(r.position() - 1, fmt::format("calling convention {:#04x} is not a method signature", convention));
  if (sig.generic()) sig.generic_count = CIL_TRY(r.compressed_u32());
  uint32_t count = CIL_TRY(r.compressed_u32());
  if (count > r.remaining()) return r.error_here(fmt::format("signature claims {} parameters", count));
  sig.return_type = CIL_TRY(decode_type(r, depth));
  for (uint32_t i = 0; i < count; ++i) {
    if (!r.at_end() && CIL_TRY(r.peek_at<uint8_t>(r.position())) == static_cast<uint8_t>(ElementType::Sentinel)) {
      CIL_TRY(r.u8());
      if (sig.sentinel >= 0) return r.error_at(r.position() - 1, "more than one sentinel");
      sig.sentinel = static_cast<int32_t>(i);
    }
    sig.params.push_back(CIL_TRY(decode_type(r, depth)));
  }
  return sig;
}

}  // namespace

Expected<MethodSig> decode_method_sig(ByteReader r) {
  uint8_t convention = CIL_TRY(r.u8());
  return decode_method_sig_body(r, convention, 0);
}

Expected<TypeSig> decode_field_sig(ByteReader r) {
  uint8_t kind = CIL_TRY(r.u8());
  if ((kind & kCallConvMask) != kSigField) return r.error_at(0, fmt::format("field signature starts with {:#04x}", kind));
  return decode_type(r, 0);
}

Expected<PropertySig> decode_property_sig(ByteReader r) {
  uint8_t kind = CIL_TRY(r.u8());
  if ((kind & kCallConvMask) != kSigProperty)
    return r.error_at(0, fmt::format("property signature starts with {:#04x}", kind));
  PropertySig sig;
  sig.has_this = kind & kCallHasThis;
  uint32_t count = CIL_TRY(r.compressed_u32());
  if (count > r.remaining()) return r.error_here(fmt::format("signature claims {} parameters", count));
  sig.type = CIL_TRY(decode_type(r, 0));
  for (uint32_t i = 0; i < count; ++i) sig.params.push_back(CIL_TRY(decode_type(r, 0)));
  return sig;
}

Expected<std::vector<TypeSig>> decode_locals_sig(ByteReader r) {
  uint8_t kind = CIL_TRY(r.u8());
  if (kind != kSigLocals) return r.error_at(0, fmt::format("local variable signature starts with {:#04x}", kind));
  uint32_t count = CIL_TRY(r.compressed_u32());
  if (count > r.remaining()) return r.error_here(fmt::format("signature claims {} locals", count));
  std::vector<TypeSig> locals;
  locals.reserve(count);
  for (uint32_t i = 0; i < count; ++i) locals.push_back(CIL_TRY(decode_type(r, 0)));
  return locals;
}

Expected<std::vector<TypeSig>> decode_method_spec_sig(ByteReader r) {
  uint8_t kind = CIL_TRY(r.u8());
  if (kind != kSigGenericInst) return r.error_at(0, fmt::format("MethodSpec signature starts with {:#04x}", kind));
  uint32_t count = CIL_TRY(r.compressed_u32());
  if (count > r.remaining()) return r.error_here(fmt::format("signature claims {} arguments", count));
  std::vector<TypeSig> args;
  for (uint32_t i = 0; i < count; ++i) args.push_back(CIL_TRY(decode_type(r, 0)));
  return args;
}

Expected<TypeSig> decode_type_spec(ByteReader r) { return decode_type(r, 0); }

void encode_compressed_u32(std::vector<uint8_t>& out, uint32_t value) {
  uint8_t bytes[4];
  out.insert(out.end(), bytes, put_compressed_u32(bytes, value));
}

void encode_compressed_i32(std::vector<uint8_t>& out, int32_t value) {
  uint8_t bytes[4];
  out.insert(out.end(), bytes, put_compressed_i32(bytes, value));
}

void encode_type_def_or_ref(std::vector<uint8_t>& out, Token token) {
  uint32_t tag = token_table(token) == TableId::TypeDef ? 0 : token_table(token) == TableId::TypeRef ? 1 : 2;
  encode_compressed_u32(out, (token_rid(token) << 2) | tag);
}

void encode_type(std::vector<uint8_t>& out, const TypeSig& t) {
  for (const auto& mod : t.modifiers) {
    out.push_back(static_cast<uint8_t>(mod.required ? ElementType::CModReqd : ElementType::CModOpt));
    encode_type_def_or_ref(out, mod.type);
  }
  out.push_back(static_cast<uint8_t>(t.element));
  switch (t.element) {
    case ElementType::Ptr: case ElementType::ByRef: case ElementType::SzArray: case ElementType::Pinned:
      encode_type(out, t.children.at(0));
      break;
    case ElementType::ValueType: case ElementType::Class:
      encode_type_def_or_ref(out, t.token);
      break;
    case ElementType::Var: case ElementType::MVar:
      encode_compressed_u32(out, t.number);
      break;
    case ElementType::Array:
      encode_type(out, t.children.at(0));
      encode_compressed_u32(out, t.shape->rank);
      encode_compressed_u32(out, static_cast<uint32_t>(t.shape->sizes.size()));
      for (uint32_t s : t.shape->sizes) encode_compressed_u32(out, s);
      encode_compressed_u32(out, static_cast<uint32_t>(t.shape->lower_bounds.size()));
      for (int32_t lo : t.shape->lower_bounds) encode_compressed_i32(out, lo);
      break;
    case ElementType::GenericInst:
      out.push_back(static_cast<uint8_t>(t.children.at(0).element));
      encode_type_def_or_ref(out, t.children.at(0).token);
      encode_compressed_u32(out, static_cast<uint32_t>(t.children.size() - 1));
      for (size_t i = 1; i < t.children.size(); ++i) encode_type(out, t.children[i]);
      break;
    case ElementType::FnPtr:
      encode_method_sig(out, *t.method);
      break;
    case ElementType::Internal: {
      uint8_t handle[8];
      store_le(handle, t.handle);
      out.insert(out.end(), handle, handle + 8);
      break;
    }
    default:
      break;
  }
}

void encode_method_sig(std::vector<uint8_t>& out, const MethodSig& sig) {
  out.push_back(sig.convention);
  if (sig.generic()) encode_compressed_u32(out, sig.generic_count);
  encode_compressed_u32(out, static_cast<uint32_t>(sig.params.size()));
  encode_type(out, sig.return_type);
  for (size_t i = 0; i < sig.params.size(); ++i) {
    if (sig.sentinel == static_cast<int32_t>(i)) out.push_back(static_cast<uint8_t>(ElementType::Sentinel));
    encode_type(out, sig.params[i]);
  }
}

std::vector<uint8_t> method_signature(bool has_this, const TypeSig& return_type, const std::vector<TypeSig>& params) {
  MethodSig sig;
  sig.convention = has_this ? kCallHasThis : kCallDefault;
  sig.return_type = return_type;
  sig.params = params;
  std::vector<uint8_t> out;
  encode_method_sig(out, sig);
  return out;
}

TypeSig primitive(ElementType element) {
  TypeSig t;
  t.element = element;
  return t;
}

TypeSig class_type(Token token) {
  TypeSig t;
  t.element = ElementType::Class;
  t.token = token;
  return t;
}

TypeSig value_type(Token token) {
  TypeSig t;
  t.element = ElementType::ValueType;
  t.token = token;
  return t;
}

TypeSig wrap(ElementType element, TypeSig inner) {
  TypeSig t;
  t.element = element;
  t.children.push_back(std::move(inner));
  return t;
}

}  // namespace cil::md
