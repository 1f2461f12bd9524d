// Finding the base/this constructor call by the owner of the called .ctor.
#include "il/constructor.h"

#include "metadata/signature.h"

namespace cil::il {

namespace {

using md::TableId;

std::string_view type_name_of(const md::Module& m, md::Token t, std::string_view* ns) {
  const auto& tables = m.tables();
  uint32_t rid = md::token_rid(t);
  if (md::token_table(t) == TableId::TypeRef && tables.valid_rid(TableId::TypeRef, rid)) {
    *ns = m.string_or_placeholder(tables.get(TableId::TypeRef, rid, md::col::TypeRef::TypeNamespace));
    return m.string_or_placeholder(tables.get(TableId::TypeRef, rid, md::col::TypeRef::TypeName));
  }
  if (md::token_table(t) == TableId::TypeDef && tables.valid_rid(TableId::TypeDef, rid)) {
    *ns = m.string_or_placeholder(tables.get(TableId::TypeDef, rid, md::col::TypeDef::TypeNamespace));
    return m.string_or_placeholder(tables.get(TableId::TypeDef, rid, md::col::TypeDef::TypeName));
  }
  return {};
}

/// The type a constructor's owner token denotes: the generic type of a TypeSpec instantiation
/// (`class G`1<!0>` names G`1 itself inside its own constructors), otherwise the token.
md::Token underlying_type(const md::Module& m, md::Token t) {
  if (md::token_table(t) != TableId::TypeSpec || !m.tables().valid_rid(TableId::TypeSpec, md::token_rid(t))) return t;
  auto r = m.blobs().reader(m.tables().get(TableId::TypeSpec, md::token_rid(t), md::col::TypeSpec::Signature), "TypeSpec");
  if (!r) return t;
  auto sig = md::decode_type_spec(*r);
  if (!sig || sig->element != md::ElementType::GenericInst || sig->children.empty()) return t;
  return sig->children[0].token;
}

}  // namespace

std::optional<size_t> constructed_index(const md::Module& m, uint32_t method_rid, const BodyModel& body) {
  const auto& t = m.tables();
  if (m.string_or_placeholder(t.get(TableId::MethodDef, method_rid, md::col::MethodDef::Name)) != ".ctor") return 0;
  uint16_t flags = static_cast<uint16_t>(t.get(TableId::MethodDef, method_rid, md::col::MethodDef::Flags));
  if (flags & 0x0010) return 0;  // static
  uint32_t owner = m.method_owner(method_rid);
  if (!owner) return std::nullopt;
  md::Token extends = t.decode(md::CodedIndex::TypeDefOrRef, t.get(TableId::TypeDef, owner, md::col::TypeDef::Extends));
  if (md::token_rid(extends) == 0) return 0;  // System.Object itself: nothing to call
  std::string_view ns;
  std::string_view base = type_name_of(m, extends, &ns);
  if (ns == "System" && (base == "ValueType" || base == "Enum")) return 0;  // value types have no base call

  md::Token self = md::make_token(TableId::TypeDef, owner);
  md::Token base_type = underlying_type(m, extends);
  for (size_t i = 0; i < body.instrs.size(); ++i) {
    const Instr& in = body.instrs[i];
    if (in.op != Op::Call) continue;
    md::Token callee = static_cast<md::Token>(in.value);
    uint32_t rid = md::token_rid(callee);
    md::Token parent = 0;
    std::string_view name;
    if (md::token_table(callee) == TableId::MemberRef && t.valid_rid(TableId::MemberRef, rid)) {
      parent = t.decode(md::CodedIndex::MemberRefParent, t.get(TableId::MemberRef, rid, md::col::MemberRef::Class));
      name = m.string_or_placeholder(t.get(TableId::MemberRef, rid, md::col::MemberRef::Name));
    } else if (md::token_table(callee) == TableId::MethodDef && t.valid_rid(TableId::MethodDef, rid)) {
      parent = md::make_token(TableId::TypeDef, m.method_owner(rid));
      name = m.string_or_placeholder(t.get(TableId::MethodDef, rid, md::col::MethodDef::Name));
    }
    if (name != ".ctor") continue;
    md::Token called = underlying_type(m, parent);
    if (parent == extends || called == base_type || called == self) return i + 1;
  }
  return std::nullopt;
}

}  // namespace cil::il
