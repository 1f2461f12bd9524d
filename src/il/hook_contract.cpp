// Checking the hooks assembly against the contract: names, types, staticness, visibility.
#include "il/hook_contract.h"

#include <fmt/format.h>

#include "metadata/printer.h"
#include "metadata/sha1.h"
#include "metadata/signature.h"

namespace cil::il {

namespace {

using md::ElementType;
using md::TableId;

Error contract_error(std::string message) { return make_error(ErrorKind::Usage, "hooks", std::move(message)); }

struct ParamRule {
  const char* name;
  HookParam param;
};
constexpr ParamRule kParams[] = {
    {"method", HookParam::Method}, {"token", HookParam::Token},   {"instance", HookParam::Instance},
    {"args", HookParam::Args},     {"state", HookParam::State},   {"result", HookParam::Result},
    {"exception", HookParam::Exception},
};

const char* expected_type(HookParam p) {
  switch (p) {
    case HookParam::Method: return "string";
    case HookParam::Token: return "int";
    case HookParam::Args: return "object[]";
    case HookParam::Exception: return "System.Exception";
    default: return "object";
  }
}

bool allowed(std::string_view hook, HookParam p) {
  if (hook == "OnEnter") return p != HookParam::State && p != HookParam::Result && p != HookParam::Exception;
  if (hook == "OnException") return p != HookParam::Result;
  return true;  // OnLeave takes everything
}

bool type_matches(const md::Module& m, HookParam p, const md::TypeSig& t) {
  if (!t.modifiers.empty()) return false;
  switch (p) {
    case HookParam::Method: return t.element == ElementType::String;
    case HookParam::Token: return t.element == ElementType::I4;
    case HookParam::Args: return t.element == ElementType::SzArray && t.children.at(0).element == ElementType::Object;
    case HookParam::Exception: {
      if (t.element != ElementType::Class) return false;
      md::Printer printer(m);
      std::string name = printer.type_token(t.token);
      size_t bracket = name.find(']');
      if (bracket != std::string::npos) name = name.substr(bracket + 1);
      return name == "System.Exception";
    }
    default: return t.element == ElementType::Object;
  }
}

std::string type_full_name(const md::Module& m, uint32_t rid) {
  md::Printer printer(m);
  return printer.type_def_name(rid);
}

Expected<HookMethod> read_hook(const md::Module& m, uint32_t type_rid, std::string_view hook) {
  HookMethod result;
  result.name = std::string(hook);
  uint32_t found = 0;
  for (uint32_t rid : m.methods_of(type_rid)) {
    if (m.row<TableId::MethodDef>(rid).name() != hook) continue;
    if (found) return contract_error(fmt::format("{} is overloaded; declare it once", hook));
    found = rid;
  }
  if (!found) return result;
  auto method = m.row<TableId::MethodDef>(found);
  using md::MethodAttributes;
  if ((method.flags() & MethodAttributes::MemberAccessMask) != MethodAttributes::Public ||
      !md::has(method.flags(), MethodAttributes::Static))
    return contract_error(fmt::format("{} must be public static", hook));
  auto r = method.signature_reader("hook signature");
  if (!r) return contract_error(fmt::format("{}: {}", hook, r.error().message));
  auto sig = md::decode_method_sig(*r);
  if (!sig) return contract_error(fmt::format("{}: {}", hook, sig.error().message));
  if (sig->generic()) return contract_error(fmt::format("{} must not be generic", hook));
  if (sig->kind() != md::kCallDefault) return contract_error(fmt::format("{} must use the default calling convention", hook));
  if (hook == "OnEnter") {
    if (sig->return_type.element == ElementType::Object && sig->return_type.modifiers.empty()) result.returns_object = true;
    else if (!sig->return_type.is_void()) return contract_error("OnEnter must return object or void");
  } else if (!sig->return_type.is_void()) {
    return contract_error(fmt::format("{} must return void", hook));
  }
  std::vector<std::string> names(sig->params.size());
  for (uint32_t p : m.params_of(found)) {
    auto param = m.row<TableId::Param>(p);
    uint32_t seq = param.sequence();
    if (seq >= 1 && seq <= names.size()) names[seq - 1] = std::string(param.name());
  }
  for (size_t i = 0; i < sig->params.size(); ++i) {
    const ParamRule* rule = nullptr;
    for (const auto& candidate : kParams)
      if (names[i] == candidate.name) rule = &candidate;
    if (!rule)
      return contract_error(fmt::format("{}: unknown parameter '{}' (known: method, token, instance, args, state, result, exception)",
                                        hook, names[i]));
    if (!allowed(hook, rule->param)) return contract_error(fmt::format("{}: parameter '{}' is not available to {}", hook, names[i], hook));
    if (!type_matches(m, rule->param, sig->params[i]))
      return contract_error(fmt::format("{}: parameter '{}' must be of type {}", hook, names[i], expected_type(rule->param)));
    for (HookParam seen : result.params)
      if (seen == rule->param) return contract_error(fmt::format("{}: parameter '{}' is declared twice", hook, names[i]));
    result.params.push_back(rule->param);
  }
  result.present = true;
  return result;
}

bool declares_hook(const md::Module& m, uint32_t type_rid) {
  for (uint32_t rid : m.methods_of(type_rid)) {
    std::string_view name = m.row<TableId::MethodDef>(rid).name();
    if (name == "OnEnter" || name == "OnLeave" || name == "OnException") return true;
  }
  return false;
}

}  // namespace

const char* hook_param_name(HookParam p) {
  for (const auto& rule : kParams)
    if (rule.param == p) return rule.name;
  return "?";
}

bool HookMethod::wants(HookParam p) const {
  if (!present) return false;
  for (HookParam x : params)
    if (x == p) return true;
  return false;
}

Expected<HookContract> read_hook_contract(const md::Module& m, const std::optional<std::string>& hook_type) {
  const auto& t = m.tables();
  HookContract c;
  if (!t.rows(TableId::Assembly)) return contract_error("the hooks module has no Assembly row: it must be an assembly");
  auto assembly = m.row<TableId::Assembly>(1);
  c.assembly = std::string(assembly.name());
  c.version[0] = assembly.major_version();
  c.version[1] = assembly.minor_version();
  c.version[2] = assembly.build_number();
  c.version[3] = assembly.revision_number();
  c.culture = std::string(assembly.culture());
  auto key = assembly.public_key();
  if (key) c.public_key_token = md::public_key_token(*key);

  using md::TypeAttributes;
  auto is_public = [](TypeAttributes flags) { return (flags & TypeAttributes::VisibilityMask) == TypeAttributes::Public; };
  uint32_t type = 0;
  if (hook_type) {
    for (uint32_t rid = 1; rid <= t.rows(TableId::TypeDef); ++rid)
      if (type_full_name(m, rid) == *hook_type) type = rid;
    if (!type) return contract_error(fmt::format("hook type {} not found in {}", *hook_type, c.assembly));
  } else {
    std::vector<uint32_t> candidates;
    for (uint32_t rid = 1; rid <= t.rows(TableId::TypeDef); ++rid) {
      if (is_public(m.row<TableId::TypeDef>(rid).flags()) && m.enclosing_type(rid) == 0 && declares_hook(m, rid))
        candidates.push_back(rid);
    }
    if (candidates.empty())
      return contract_error(fmt::format("no hook type found: {} has no public type declaring OnEnter, OnLeave or OnException", c.assembly));
    if (candidates.size() > 1) {
      std::string list;
      for (uint32_t rid : candidates) list += (list.empty() ? "" : ", ") + type_full_name(m, rid);
      return contract_error(fmt::format("several hook types ({}): choose one with --hook-type", list));
    }
    type = candidates.front();
  }
  auto type_row = m.row<TableId::TypeDef>(type);
  if (!is_public(type_row.flags()) || m.enclosing_type(type) != 0)
    return contract_error(fmt::format("hook type {} must be a public top-level type", type_full_name(m, type)));
  c.type_namespace = std::string(type_row.type_namespace());
  c.type_name = std::string(type_row.type_name());
  c.on_enter = CIL_TRY(read_hook(m, type, "OnEnter"));
  c.on_leave = CIL_TRY(read_hook(m, type, "OnLeave"));
  c.on_exception = CIL_TRY(read_hook(m, type, "OnException"));
  if (!c.on_enter.present && !c.on_leave.present && !c.on_exception.present)
    return contract_error(fmt::format("hook type {} declares none of OnEnter, OnLeave, OnException", type_full_name(m, type)));
  return c;
}

}  // namespace cil::il
