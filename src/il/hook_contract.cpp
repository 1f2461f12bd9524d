// Checking the hooks assembly against the contract: names, types, staticness, visibility.
#include "il/hook_contract.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "metadata/printer.h"
#include "metadata/sha1.h"
#include "metadata/signature.h"
#include "metadata/text_encoding.h"

namespace cil::il {

namespace {

using md::ElementType;
using md::TableId;

Error contract_error(std::string message) { return make_error(ErrorKind::Usage, "hooks", std::move(message)); }

/// A name from the hooks file or the command line, as an error quotes it.
std::string quoted(std::string_view name) { return md::clip_text(std::string(name), md::kMaxQuotedText); }

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

bool type_matches(md::Printer& printer, HookParam p, const md::TypeSig& t) {
  if (!t.modifiers.empty()) return false;
  switch (p) {
    case HookParam::Method: return t.element == ElementType::String;
    case HookParam::Token: return t.element == ElementType::I4;
    case HookParam::Args: return t.element == ElementType::SzArray && t.children.at(0).element == ElementType::Object;
    case HookParam::Exception: {
      if (t.element != ElementType::Class) return false;
      std::string name = printer.type_token(t.token);
      size_t bracket = name.find(']');
      if (bracket != std::string::npos) name = name.substr(bracket + 1);
      return name == "System.Exception";
    }
    default: return t.element == ElementType::Object;
  }
}

Expected<HookMethod> read_hook(const md::Module& m, md::Printer& printer, uint32_t type_rid, std::string_view hook) {
  const auto& t = m.tables();
  HookMethod result;
  result.name = std::string(hook);
  uint32_t found = 0;
  for (uint32_t rid : m.methods_of(type_rid)) {
    if (m.string_or_placeholder(t.get(TableId::MethodDef, rid, md::col::MethodDef::Name)) != hook) continue;
    if (found) return contract_error(fmt::format("{} is overloaded; declare it once", hook));
    found = rid;
  }
  if (!found) return result;
  uint32_t flags = t.get(TableId::MethodDef, found, md::col::MethodDef::Flags);
  if ((flags & 0x7) != 6 || !(flags & 0x10))
    return contract_error(fmt::format("{} must be public static", hook));
  auto r = m.blobs().reader(t.get(TableId::MethodDef, found, md::col::MethodDef::Signature), "hook signature");
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
    uint32_t seq = t.get(TableId::Param, p, md::col::Param::Sequence);
    if (seq >= 1 && seq <= names.size())
      names[seq - 1] = std::string(m.string_or_placeholder(t.get(TableId::Param, p, md::col::Param::Name)));
  }
  for (size_t i = 0; i < sig->params.size(); ++i) {
    const ParamRule* rule = nullptr;
    for (const auto& candidate : kParams)
      if (names[i] == candidate.name) rule = &candidate;
    if (!rule)
      return contract_error(fmt::format("{}: unknown parameter '{}' (known: method, token, instance, args, state, result, exception)",
                                        hook, quoted(names[i])));
    if (!allowed(hook, rule->param)) return contract_error(fmt::format("{}: parameter '{}' is not available to {}", hook, names[i], hook));
    if (!type_matches(printer, rule->param, sig->params[i]))
      return contract_error(fmt::format("{}: parameter '{}' must be of type {}", hook, names[i], expected_type(rule->param)));
    for (HookParam seen : result.params)
      if (seen == rule->param) return contract_error(fmt::format("{}: parameter '{}' is declared twice", hook, names[i]));
    result.params.push_back(rule->param);
  }
  result.present = true;
  return result;
}

bool declares_hook(const md::Module& m, uint32_t type_rid) {
  const auto& t = m.tables();
  for (uint32_t rid : m.methods_of(type_rid)) {
    std::string_view name = m.string_or_placeholder(t.get(TableId::MethodDef, rid, md::col::MethodDef::Name));
    if (name == "OnEnter" || name == "OnLeave" || name == "OnException") return true;
  }
  return false;
}

/// The generic TypeDefs, from one pass over GenericParam: a generic hook type cannot be called
/// without type arguments, and the runtime refuses the reference (TypeLoadException).
std::vector<bool> generic_types(const md::Module& m) {
  const auto& t = m.tables();
  std::vector<bool> generic(size_t{t.rows(TableId::TypeDef)} + 1);
  for (uint32_t rid = 1; rid <= t.rows(TableId::GenericParam); ++rid) {
    md::Token owner = t.decode(md::CodedIndex::TypeOrMethodDef, t.get(TableId::GenericParam, rid, md::col::GenericParam::Owner));
    if (md::token_table(owner) == TableId::TypeDef && md::token_rid(owner) < generic.size()) generic[md::token_rid(owner)] = true;
  }
  return generic;
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

/// Whether the runtime binds a reference to an assembly of this name to its framework's own
/// assembly before it looks beside the application: CoreLib and mscorlib always, the rest of a
/// shared framework when its version is higher (it is, against a hooks assembly's own), Mono's
/// class libraries by its remapping. The names are the installed frameworks' (see
/// scripts/framework_assemblies.sh); names compare without case, as the loaders do.
bool framework_assembly_name(std::string_view name) {
  static constexpr std::string_view kNames[] = {
#define CIL_FRAMEWORK_ASSEMBLY(n) n,
#include "il/framework_assemblies.def"
#undef CIL_FRAMEWORK_ASSEMBLY
  };
  for (std::string_view n : kNames)
    if (equals_ignoring_case(name, n)) return true;
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
  c.assembly = std::string(m.string_or_placeholder(t.get(TableId::Assembly, 1, md::col::Assembly::Name)));
  c.version[0] = static_cast<uint16_t>(t.get(TableId::Assembly, 1, md::col::Assembly::MajorVersion));
  c.version[1] = static_cast<uint16_t>(t.get(TableId::Assembly, 1, md::col::Assembly::MinorVersion));
  c.version[2] = static_cast<uint16_t>(t.get(TableId::Assembly, 1, md::col::Assembly::BuildNumber));
  c.version[3] = static_cast<uint16_t>(t.get(TableId::Assembly, 1, md::col::Assembly::RevisionNumber));
  c.culture = std::string(m.string_or_placeholder(t.get(TableId::Assembly, 1, md::col::Assembly::Culture)));
  auto key = m.blobs().get(t.get(TableId::Assembly, 1, md::col::Assembly::PublicKey));
  if (key) c.public_key_token = md::public_key_token(*key);
  if (framework_assembly_name(c.assembly))
    return contract_error(fmt::format("the hooks assembly is named {}, a name the runtime resolves to the framework's own "
                                      "assembly: the hook type would not be found (TypeLoadException); give it a name of its own",
                                      quoted(c.assembly)));

  // One printer for every name: it caches names by type, and each type is named once, so this
  // stays linear in the number of types.
  md::Printer printer(m);
  uint32_t type = 0;
  if (hook_type) {
    for (uint32_t rid = 1; rid <= t.rows(TableId::TypeDef); ++rid)
      if (printer.type_def_name(rid) == *hook_type) type = rid;
    if (!type) return contract_error(fmt::format("hook type {} not found in {}", quoted(*hook_type), quoted(c.assembly)));
  } else {
    std::vector<uint32_t> candidates;
    for (uint32_t rid = 1; rid <= t.rows(TableId::TypeDef); ++rid) {
      uint32_t flags = t.get(TableId::TypeDef, rid, md::col::TypeDef::Flags);
      if ((flags & 0x7) == 1 && m.enclosing_type(rid) == 0 && declares_hook(m, rid)) candidates.push_back(rid);
    }
    if (candidates.empty())
      return contract_error(fmt::format("no hook type found: {} has no public type declaring OnEnter, OnLeave or OnException",
                                        quoted(c.assembly)));
    if (candidates.size() > 1) {
      std::vector<std::string> names;
      for (uint32_t rid : candidates) names.push_back(printer.type_def_name(rid));
      std::string list = md::clip_list(names);
      return contract_error(fmt::format("several hook types ({}): choose one with --hook-type", list));
    }
    type = candidates.front();
  }
  std::string type_name = quoted(printer.type_def_name(type));
  uint32_t flags = t.get(TableId::TypeDef, type, md::col::TypeDef::Flags);
  if ((flags & 0x7) != 1 || m.enclosing_type(type) != 0)
    return contract_error(fmt::format("hook type {} must be a public top-level type", type_name));
  if (generic_types(m)[type])
    return contract_error(fmt::format("hook type {} must not be generic: the instrumented code calls it without type arguments",
                                      type_name));
  c.type_namespace = std::string(m.string_or_placeholder(t.get(TableId::TypeDef, type, md::col::TypeDef::TypeNamespace)));
  c.type_name = std::string(m.string_or_placeholder(t.get(TableId::TypeDef, type, md::col::TypeDef::TypeName)));
  c.on_enter = CIL_TRY(read_hook(m, printer, type, "OnEnter"));
  c.on_leave = CIL_TRY(read_hook(m, printer, type, "OnLeave"));
  c.on_exception = CIL_TRY(read_hook(m, printer, type, "OnException"));
  if (!c.on_enter.present && !c.on_leave.present && !c.on_exception.present)
    return contract_error(fmt::format("hook type {} declares none of OnEnter, OnLeave, OnException", type_name));
  return c;
}

}  // namespace cil::il
