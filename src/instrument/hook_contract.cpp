// Checking the hooks assembly against the contract: names, types, staticness, visibility.
#include "instrument/hook_contract.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "metadata/printer.h"
#include "metadata/sha1.h"
#include "metadata/signature.h"
#include "metadata/text_encoding.h"

namespace cil::instrument {

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
    {"exception", HookParam::Exception}, {"elapsed", HookParam::Elapsed},
};

const char* expected_type(HookParam p) {
  switch (p) {
    case HookParam::Method: return "string";
    case HookParam::Token: return "int";
    case HookParam::Args: return "object[]";
    case HookParam::Exception: return "System.Exception";
    case HookParam::Elapsed: return "long";
    default: return "object";
  }
}

bool allowed(std::string_view hook, HookParam p) {
  if (hook == "OnEnter") return p != HookParam::State && p != HookParam::Exception && p != HookParam::Elapsed;
  if (hook == "OnException") return p != HookParam::Result && p != HookParam::Elapsed;
  return true;  // OnLeave takes everything
}

bool is_exception_class(md::Printer& printer, const md::TypeSig& t) {
  if (t.element != ElementType::Class || !t.modifiers.empty()) return false;
  std::string name = printer.type_token(t.token);
  size_t bracket = name.find(']');
  if (bracket != std::string::npos) name = name.substr(bracket + 1);
  return name == "System.Exception";
}

bool is_byref_object(const md::TypeSig& t) {
  return t.element == ElementType::ByRef && t.modifiers.empty() && t.children.size() == 1 &&
         t.children[0].element == ElementType::Object && t.children[0].modifiers.empty();
}

bool type_matches(md::Printer& printer, HookParam p, const md::TypeSig& t) {
  if (!t.modifiers.empty()) return false;
  switch (p) {
    case HookParam::Method: return t.element == ElementType::String;
    case HookParam::Token: return t.element == ElementType::I4;
    case HookParam::Args: return t.element == ElementType::SzArray && t.children.at(0).element == ElementType::Object;
    case HookParam::Exception: return is_exception_class(printer, t);
    case HookParam::Elapsed: return t.element == ElementType::I8;
    default: return t.element == ElementType::Object;
  }
}

Expected<HookMethod> read_hook(const md::Module& m, md::Printer& printer, uint32_t type_rid, std::string_view hook) {
  HookMethod result;
  result.name = std::string(hook);
  uint32_t found = 0;
  for (md::MethodDefId method : m.methods_of(md::TypeDefId(type_rid))) {
    if (m.row(method).name() != hook) continue;
    if (found) return contract_error(fmt::format("{} is overloaded; declare it once", hook));
    found = method.value();
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
  const md::TypeSig& ret = sig->return_type;
  bool plain = ret.modifiers.empty();
  if (hook == "OnEnter") {
    if (ret.element == ElementType::Object && plain) result.returns = HookReturn::Object;
    else if (ret.element == ElementType::Boolean && plain) result.returns = HookReturn::Bool;
    else if (!ret.is_void()) return contract_error("OnEnter must return object (the state), bool (false skips the body) or void");
  } else if (hook == "OnException") {
    if (ret.element == ElementType::Boolean && plain) result.returns = HookReturn::Bool;
    else if (is_exception_class(printer, ret)) result.returns = HookReturn::Exception;
    else if (!ret.is_void())
      return contract_error("OnException must return void, bool (true suppresses the exception) or System.Exception (thrown instead)");
  } else if (!ret.is_void()) {
    return contract_error(fmt::format("{} must return void", hook));
  }
  result.returns_object = result.returns == HookReturn::Object;
  std::vector<std::string> names(sig->params.size());
  for (md::ParamId p : m.params_of(md::MethodDefId(found))) {
    auto param = m.row(p);
    uint32_t seq = param.sequence();
    if (seq >= 1 && seq <= names.size()) names[seq - 1] = std::string(param.name());
  }
  for (size_t i = 0; i < sig->params.size(); ++i) {
    const ParamRule* rule = nullptr;
    for (const auto& candidate : kParams)
      if (names[i] == candidate.name) rule = &candidate;
    if (!rule)
      return contract_error(fmt::format("{}: unknown parameter '{}' (known: method, token, instance, args, state, result, exception, elapsed)",
                                        hook, quoted(names[i])));
    if (!allowed(hook, rule->param)) return contract_error(fmt::format("{}: parameter '{}' is not available to {}", hook, names[i], hook));
    if (rule->param == HookParam::Result && hook == "OnEnter") {
      // Only an intercepting OnEnter has a result: the one the skipped body returns.
      if (result.returns != HookReturn::Bool || !is_byref_object(sig->params[i]))
        return contract_error("OnEnter: parameter 'result' must be 'out object', with OnEnter returning bool");
      result.result_by_ref = true;
    } else if (rule->param == HookParam::Result && is_byref_object(sig->params[i])) {
      result.result_by_ref = true;  // OnLeave: ref object result replaces the return value
    } else if (!type_matches(printer, rule->param, sig->params[i])) {
      std::string expected = expected_type(rule->param);
      if (rule->param == HookParam::Result) expected = "object or ref object";
      return contract_error(fmt::format("{}: parameter '{}' must be of type {}", hook, names[i], expected));
    }
    for (HookParam seen : result.params)
      if (seen == rule->param) return contract_error(fmt::format("{}: parameter '{}' is declared twice", hook, names[i]));
    result.params.push_back(rule->param);
  }
  result.present = true;
  return result;
}

bool declares_hook(const md::Module& m, uint32_t type_rid) {
  for (md::MethodDefId method : m.methods_of(md::TypeDefId(type_rid))) {
    std::string_view name = m.row(method).name();
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
    md::Token owner = m.row<TableId::GenericParam>(rid).owner();
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
#include "instrument/framework_assemblies.def"
#undef CIL_FRAMEWORK_ASSEMBLY
  };
  for (std::string_view n : kNames)
    if (equals_ignoring_case(name, n)) return true;
  return false;
}

}  // namespace

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
  if (framework_assembly_name(c.assembly))
    return contract_error(fmt::format("the hooks assembly is named {}, a name the runtime resolves to the framework's own "
                                      "assembly: the hook type would not be found (TypeLoadException); give it a name of its own",
                                      quoted(c.assembly)));

  // One printer for every name: it caches names by type, and each type is named once, so this
  // stays linear in the number of types.
  md::Printer printer(m);
  using md::TypeAttributes;
  auto is_public = [](TypeAttributes flags) { return (flags & TypeAttributes::VisibilityMask) == TypeAttributes::Public; };
  uint32_t type = 0;
  if (hook_type) {
    for (uint32_t rid = 1; rid <= t.rows(TableId::TypeDef); ++rid)
      if (printer.type_def_name(md::TypeDefId(rid)) == *hook_type) type = rid;
    if (!type) return contract_error(fmt::format("hook type {} not found in {}", quoted(*hook_type), quoted(c.assembly)));
  } else {
    std::vector<uint32_t> candidates;
    for (uint32_t rid = 1; rid <= t.rows(TableId::TypeDef); ++rid) {
      if (is_public(m.row<TableId::TypeDef>(rid).flags()) && m.enclosing_type(md::TypeDefId(rid)).is_nil() && declares_hook(m, rid))
        candidates.push_back(rid);
    }
    if (candidates.empty())
      return contract_error(fmt::format("no hook type found: {} has no public type declaring OnEnter, OnLeave or OnException",
                                        quoted(c.assembly)));
    if (candidates.size() > 1) {
      std::vector<std::string> names;
      for (uint32_t rid : candidates) names.push_back(printer.type_def_name(md::TypeDefId(rid)));
      std::string list = md::clip_list(names);
      return contract_error(fmt::format("several hook types ({}): choose one with --hook-type", list));
    }
    type = candidates.front();
  }
  std::string type_name = quoted(printer.type_def_name(md::TypeDefId(type)));
  auto type_row = m.row<TableId::TypeDef>(type);
  if (!is_public(type_row.flags()) || !m.enclosing_type(md::TypeDefId(type)).is_nil())
    return contract_error(fmt::format("hook type {} must be a public top-level type", type_name));
  if (generic_types(m)[type])
    return contract_error(fmt::format("hook type {} must not be generic: the instrumented code calls it without type arguments",
                                      type_name));
  c.type_namespace = std::string(type_row.type_namespace());
  c.type_name = std::string(type_row.type_name());
  c.on_enter = CIL_TRY(read_hook(m, printer, type, "OnEnter"));
  c.on_leave = CIL_TRY(read_hook(m, printer, type, "OnLeave"));
  c.on_exception = CIL_TRY(read_hook(m, printer, type, "OnException"));
  if (!c.on_enter.present && !c.on_leave.present && !c.on_exception.present)
    return contract_error(fmt::format("hook type {} declares none of OnEnter, OnLeave, OnException", type_name));
  return c;
}

}  // namespace cil::instrument
