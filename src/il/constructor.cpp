// Finding the base/this constructor call by the owner of the called .ctor.
#include "il/constructor.h"

#include "metadata/signature.h"

namespace cil::il {

namespace {

using md::TableId;

std::string_view type_name_of(const md::Module& m, md::Token t, std::string_view* ns) {
  if (auto ref = m.find_row<TableId::TypeRef>(t)) {
    *ns = ref->type_namespace();
    return ref->type_name();
  }
  if (auto def = m.find_row<TableId::TypeDef>(t)) {
    *ns = def->type_namespace();
    return def->type_name();
  }
  return {};
}

/// The type a constructor's owner token denotes: the generic type of a TypeSpec instantiation
/// (`class G`1<!0>` names G`1 itself inside its own constructors), otherwise the token.
md::Token underlying_type(const md::Module& m, md::Token t) {
  auto spec = m.find_row<TableId::TypeSpec>(t);
  if (!spec) return t;
  auto r = spec->signature_reader("TypeSpec");
  if (!r) return t;
  auto sig = md::decode_type_spec(*r);
  if (!sig || sig->element != md::ElementType::GenericInst || sig->children.empty()) return t;
  return sig->children[0].token;
}

}  // namespace

std::optional<size_t> constructed_index(const md::Module& m, md::MethodDefId method_id, const BodyModel& body) {
  auto method = m.row(method_id);
  if (method.name() != ".ctor") return 0;
  if (md::has(method.flags(), md::MethodAttributes::Static)) return 0;
  md::TypeDefId owner = m.method_owner(method_id);
  if (owner.is_nil()) return std::nullopt;
  md::Token extends = m.row(owner).extends();
  if (md::token_rid(extends) == 0) return 0;  // System.Object itself: nothing to call
  std::string_view ns;
  std::string_view base = type_name_of(m, extends, &ns);
  if (ns == "System" && (base == "ValueType" || base == "Enum")) return 0;  // value types have no base call

  md::Token self = owner.token();
  md::Token base_type = underlying_type(m, extends);
  for (size_t i = 0; i < body.instrs.size(); ++i) {
    const Instr& in = body.instrs[i];
    if (in.op != Op::Call) continue;
    md::Token callee = static_cast<md::Token>(in.value);
    md::Token parent;
    std::string_view name;
    if (auto ref = m.find_row<TableId::MemberRef>(callee)) {
      parent = ref->class_();
      name = ref->name();
    } else if (auto def = m.find_row<TableId::MethodDef>(callee)) {
      parent = m.method_owner(def->id()).token();
      name = def->name();
    }
    if (name != ".ctor") continue;
    md::Token called = underlying_type(m, parent);
    if (parent == extends || called == base_type || called == self) return i + 1;
  }
  return std::nullopt;
}

}  // namespace cil::il
