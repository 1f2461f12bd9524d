// `tail.` calls in a wrapped body (see tail_calls.h).
#include "il/tail_calls.h"

#include <fmt/format.h>

#include "metadata/signature.h"

namespace cil::il {

namespace {

using md::ElementType;
using md::TableId;
using md::Token;
using md::TypeSig;

Error tail_error(std::string message) {
  return make_error(ErrorKind::Unsupported, "tail call", std::move(message) + " (left as is)");
}

/// The callee's generic arguments, where its token gives them.
struct GenericArgs {
  const std::vector<TypeSig>* type = nullptr;
  const std::vector<TypeSig>* method = nullptr;
};

Expected<TypeSig> substitute(const TypeSig& t, const GenericArgs& args) {
  if (t.element == ElementType::Var && args.type) {
    if (t.number >= args.type->size()) return tail_error(fmt::format("the callee's signature names !{} of {} type arguments", t.number, args.type->size()));
    return (*args.type)[t.number];
  }
  if (t.element == ElementType::MVar && args.method) {
    if (t.number >= args.method->size()) return tail_error(fmt::format("the callee's signature names !!{} of {} method arguments", t.number, args.method->size()));
    return (*args.method)[t.number];
  }
  TypeSig out = t;
  for (auto& child : out.children) child = CIL_TRY(substitute(child, args));
  return out;
}

/// The callee: its signature, generic arguments, and how its `this` is passed.
struct Callee {
  md::MethodSig sig;
  std::vector<TypeSig> type_args, method_args;
  bool has_type_args = false, has_method_args = false;
  std::optional<TypeSig> this_type;  ///< the local type of `this` (for an instance call)
};

/// `this` of an instance method of `parent` (TypeDef, TypeRef or TypeSpec) called with `call`.
Status this_of(const md::Module& m, Token parent, Callee& c, bool virtual_call) {
  if (virtual_call) {
    c.this_type = md::primitive(ElementType::Object);
    return ok();
  }
  if (m.find_row<TableId::TypeDef>(parent)) {
    c.this_type = m.is_value_type(md::TypeDefId(md::token_rid(parent))) ? md::wrap(ElementType::ByRef, md::value_type(parent))
                                                           : md::primitive(ElementType::Object);
    return ok();
  }
  if (auto spec = m.find_row<TableId::TypeSpec>(parent)) {
    auto r = spec->signature_reader("type specification");
    if (!r) return r.error();
    TypeSig t = CIL_TRY(md::decode_type_spec(*r));
    bool value = t.element == ElementType::ValueType ||
                 (t.element == ElementType::GenericInst && !t.children.empty() && t.children[0].element == ElementType::ValueType);
    c.this_type = value ? md::wrap(ElementType::ByRef, t) : md::primitive(ElementType::Object);
    return ok();
  }
  return tail_error("a tail call with `call` to an instance method of another module's type (whether `this` is a reference or a managed pointer is not known here)");
}

Expected<Callee> callee_of(const md::Module& m, Op op, Token token) {
  Callee c;
  if (op == Op::Calli) {
    auto sig = m.find_row<TableId::StandAloneSig>(token);
    if (!sig) return tail_error(fmt::format("calli names 0x{:08X}, not a StandAloneSig", token));
    auto r = sig->signature_reader("call site signature");
    if (!r) return r.error();
    c.sig = CIL_TRY(md::decode_method_sig(*r));
    if (c.sig.has_this()) return tail_error("an instance tail calli");
    return c;
  }
  Token method = token;
  if (auto spec = m.find_row<TableId::MethodSpec>(token)) {
    auto r = spec->instantiation_reader("method instantiation");
    if (!r) return r.error();
    c.method_args = CIL_TRY(md::decode_method_spec_sig(*r));
    c.has_method_args = true;
    method = spec->method();
  }
  Token parent;
  if (auto def = m.find_row<TableId::MethodDef>(method)) {
    auto r = def->signature_reader("method signature");
    if (!r) return r.error();
    c.sig = CIL_TRY(md::decode_method_sig(*r));
    parent = m.method_owner(def->id()).token();
  } else if (auto ref = m.find_row<TableId::MemberRef>(method)) {
    auto r = ref->signature_reader("member signature");
    if (!r) return r.error();
    c.sig = CIL_TRY(md::decode_method_sig(*r));
    parent = ref->class_();
    if (auto spec = m.find_row<TableId::TypeSpec>(parent)) {
      auto tr = spec->signature_reader("type specification");
      if (!tr) return tr.error();
      TypeSig t = CIL_TRY(md::decode_type_spec(*tr));
      if (t.element == ElementType::GenericInst) {
        c.type_args.assign(t.children.begin() + 1, t.children.end());
        c.has_type_args = true;
      }
    }
  } else {
    return tail_error(fmt::format("a tail call to 0x{:08X}, not a method", token));
  }
  if (c.sig.has_this() && !c.sig.explicit_this()) CIL_TRY(this_of(m, parent, c, op == Op::Callvirt));
  return c;
}

}  // namespace

Expected<std::vector<TailSite>> plan_tail_sites(const md::Module& m, const BodyModel& body, size_t from, LocalsBuilder& locals) {
  std::vector<TailSite> sites;
  const auto& instrs = body.instrs;
  for (size_t i = from; i < instrs.size(); ++i) {
    if (instrs[i].op != Op::Tail) continue;
    if (i + 2 >= instrs.size() || (instrs[i + 1].op != Op::Call && instrs[i + 1].op != Op::Callvirt && instrs[i + 1].op != Op::Calli) ||
        instrs[i + 2].op != Op::Ret)
      return tail_error("a tail. prefix not on a call followed by ret");
    // `constrained. tail. callvirt`: `this` is a managed pointer the stub would have to
    // re-derive, and the prefix would be left behind in the region.
    if (i > from && instrs[i - 1].op == Op::Constrained) return tail_error("a constrained. tail call");
    Callee c = CIL_TRY(callee_of(m, instrs[i + 1].op, static_cast<Token>(instrs[i + 1].value)));
    if (c.sig.kind() == md::kCallVarArg || c.sig.sentinel >= 0) return tail_error("a vararg tail call");
    GenericArgs args{c.has_type_args ? &c.type_args : nullptr, c.has_method_args ? &c.method_args : nullptr};
    TailSite site;
    site.prefix_id = instrs[i].id;
    auto add = [&](const TypeSig& t) {
      TypeSig local = t;
      local.modifiers.clear();
      std::vector<uint8_t> encoded;
      md::encode_type(encoded, local);
      site.operands.push_back(locals.add(encoded));
    };
    if (c.this_type) add(*c.this_type);
    for (const auto& p : c.sig.params) add(CIL_TRY(substitute(p, args)));
    if (instrs[i + 1].op == Op::Calli) add(md::primitive(ElementType::I));
    sites.push_back(std::move(site));
  }
  return sites;
}

}  // namespace cil::il
