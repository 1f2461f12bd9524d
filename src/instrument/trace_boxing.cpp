// Trace mode: which values the hooks can receive boxed, and which are ref structs (passed as null).
#include <string_view>
#include <utility>

#include "instrument/trace_context.h"

namespace cil::instrument {

namespace {

using md::ElementType;
using md::TableId;
using md::Token;
using md::TypeSig;

/// Value types of the base libraries that are byref-like (ref structs): boxing one is invalid IL.
/// Types defined in the module itself are recognised by their IsByRefLikeAttribute instead.
bool known_byref_like(std::string_view ns, std::string_view name) {
  static constexpr std::pair<std::string_view, std::string_view> kKnown[] = {
      {"System", "Span`1"},
      {"System", "ReadOnlySpan`1"},
      {"System", "TypedReference"},
      {"System", "ArgIterator"},
      {"System", "RuntimeArgumentHandle"},
      {"System.Runtime.CompilerServices", "DefaultInterpolatedStringHandler"},
      {"System.Text.Json", "Utf8JsonReader"},
      {"System.Buffers", "SequenceReader`1"},
      {"System.Text", "SpanRuneEnumerator"},
      {"System", "MemoryExtensions/SpanSplitEnumerator`1"},
  };
  for (auto [n, t] : kKnown)
    if (n == ns && t == name) return true;
  return false;
}

}  // namespace

bool TraceMode::is_byref_like(Token type) {
  const md::Module& m = *file_;
  const auto& t = m.tables();
  if (!byref_like_scanned_) {
    byref_like_scanned_ = true;
    // TypeDefs carrying System.Runtime.CompilerServices.IsByRefLikeAttribute.
    for (uint32_t row = 1; row <= t.rows(TableId::CustomAttribute); ++row) {
      auto attribute = m.row<TableId::CustomAttribute>(row);
      Token parent = attribute.parent();
      if (md::token_table(parent) != TableId::TypeDef) continue;
      if (m.attribute_type(md::CustomAttributeId(row)).name == "IsByRefLikeAttribute") byref_like_defs_.insert(md::token_rid(parent));
    }
  }
  if (md::token_table(type) == TableId::TypeDef) return byref_like_defs_.count(md::token_rid(type)) != 0;
  if (auto ref = m.find_row<TableId::TypeRef>(type)) return known_byref_like(ref->type_namespace(), ref->type_name());
  return false;
}

const std::vector<TraceMode::GenericParamFlags>* TraceMode::generic_params_of(Token owner) {
  if (!generic_params_indexed_) {
    // Once per module: at JIT time every traced method of a value type or with a generic
    // parameter asks, and a scan of the table each time would cost as much as the rewrite.
    generic_params_indexed_ = true;
    const md::Module& m = *file_;
    for (uint32_t row = 1; row <= m.tables().rows(TableId::GenericParam); ++row) {
      auto param = m.row<TableId::GenericParam>(row);
      generic_params_[param.owner().value()].push_back(
          {param.number(), md::has(param.flags(), md::GenericParamAttributes::AllowByRefLike)});
    }
  }
  auto it = generic_params_.find(owner.value());
  return it == generic_params_.end() ? nullptr : &it->second;
}

bool TraceMode::generic_allows_byref_like(Token owner, uint32_t number) {
  if (const auto* params = generic_params_of(owner))
    for (const GenericParamFlags& p : *params)
      if (p.number == number) return p.allows_byref_like;
  return false;
}

Expected<TraceMode::Box> TraceMode::boxing(const TypeSig& original) {
  TypeSig type = original;
  type.modifiers.clear();
  Box b;
  switch (type.element) {
    case ElementType::String: case ElementType::Object: case ElementType::Class: case ElementType::SzArray:
    case ElementType::Array:
      b.kind = Boxing::Reference;
      return b;
    case ElementType::Boolean: case ElementType::Char: case ElementType::I1: case ElementType::U1: case ElementType::I2:
    case ElementType::U2: case ElementType::I4: case ElementType::U4: case ElementType::I8: case ElementType::U8:
    case ElementType::R4: case ElementType::R8: case ElementType::I: case ElementType::U:
      b.kind = Boxing::Value;
      b.token = CIL_TRY(sink_->type_spec(encoded_type(type)));
      return b;
    case ElementType::ValueType:
      if (is_byref_like(type.token)) {
        b.kind = Boxing::Unboxable;
        return b;
      }
      b.kind = Boxing::Value;
      b.token = type.token;
      return b;
    case ElementType::GenericInst:
      if (type.children.at(0).element == ElementType::Class) {
        b.kind = Boxing::Reference;
        return b;
      }
      if (is_byref_like(type.children.at(0).token)) {
        b.kind = Boxing::Unboxable;
        return b;
      }
      b.kind = Boxing::Value;
      b.token = CIL_TRY(sink_->type_spec(encoded_type(type)));
      return b;
    case ElementType::Var: case ElementType::MVar: {
      // `box` of a generic parameter is a no-op for reference types; but a parameter that
      // allows ref structs (C# `allows ref struct`) may not be boxed at all.
      if (generic_allows_byref_like(type.element == ElementType::Var ? generic_owner_type_ : generic_owner_method_, type.number)) {
        b.kind = Boxing::Unboxable;
        return b;
      }
      b.kind = Boxing::Value;
      b.token = CIL_TRY(sink_->type_spec(encoded_type(type)));
      return b;
    }
    default:  // pointers, function pointers, typedref, byrefs of byrefs
      b.kind = Boxing::Unboxable;
      return b;
  }
}

Expected<TraceMode::Box> TraceMode::self_boxing(md::TypeDefId owner) {
  const md::Module& m = *file_;
  Box self;
  if (!m.is_value_type(owner)) return self;
  Token type = owner.token();
  if (is_byref_like(type)) {
    self.kind = Boxing::Unboxable;
    return self;
  }
  const auto* params = generic_params_of(type);
  auto generic_count = static_cast<uint32_t>(params ? params->size() : 0);
  self.kind = Boxing::Value;
  if (!generic_count) {
    self.token = type;
    return self;
  }
  // A generic value type's `this` is boxed as the type instantiated over its own parameters.
  TypeSig inst;
  inst.element = ElementType::GenericInst;
  inst.children.push_back(md::value_type(type));
  for (uint32_t i = 0; i < generic_count; ++i) {
    TypeSig var;
    var.element = ElementType::Var;
    var.number = i;
    inst.children.push_back(var);
  }
  self.token = CIL_TRY(sink_->type_spec(encoded_type(inst)));
  return self;
}

}  // namespace cil::instrument
