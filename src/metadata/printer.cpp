// ildasm-style rendering of names, types, member references and method headers.
#include "metadata/printer.h"

#include <fmt/format.h>

#include "metadata/text_encoding.h"
#include "metadata/token_text.h"

namespace cil::md {

namespace {

bool plain_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
         c == '@' || c == '`' || c == '?' || c == '.';
}

/// Cuts `text` to kMaxPrintedText bytes, on a UTF-8 character boundary, and marks the cut.
std::string clip(std::string text) { return clip_text(std::move(text), kMaxPrintedText); }

bool full(const std::string& text) { return text.size() > kMaxPrintedText; }

std::string bad_token(Token token) { return fmt::format("<bad token {}>", token_text(token)); }

std::string bad_blob(std::string_view what, const Error& e) {
  return fmt::format("<bad {}: {}>", what, e.message);
}

const char* primitive_name(ElementType e) {
  switch (e) {
    case ElementType::Void: return "void";
    case ElementType::Boolean: return "bool";
    case ElementType::Char: return "char";
    case ElementType::I1: return "int8";
    case ElementType::U1: return "uint8";
    case ElementType::I2: return "int16";
    case ElementType::U2: return "uint16";
    case ElementType::I4: return "int32";
    case ElementType::U4: return "uint32";
    case ElementType::I8: return "int64";
    case ElementType::U8: return "uint64";
    case ElementType::R4: return "float32";
    case ElementType::R8: return "float64";
    case ElementType::String: return "string";
    case ElementType::Object: return "object";
    case ElementType::TypedByRef: return "typedref";
    case ElementType::I: return "native int";
    case ElementType::U: return "native uint";
    default: return nullptr;
  }
}

std::string quote_dotted(std::string_view dotted) {
  // Namespaces are dotted names: quote each component on its own, as ildasm does.
  std::string out;
  size_t start = 0;
  while (true) {
    size_t dot = dotted.find('.', start);
    std::string_view part = dotted.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    out += quote_identifier(part);
    if (dot == std::string_view::npos) break;
    out += '.';
    start = dot + 1;
  }
  return out;
}

}  // namespace

std::string quote_identifier(std::string_view name) {
  bool plain = !name.empty() && !(name[0] >= '0' && name[0] <= '9');
  for (char c : name) plain = plain && plain_char(c);
  if (plain) return std::string(name);
  std::string quoted;
  for (char c : name) {
    if (c == '\'' || c == '\\') quoted += '\\';
    quoted += c;
  }
  // Control characters and bytes that are not UTF-8 as \xHH (see printable), never raw.
  return "'" + printable(quoted) + "'";
}

namespace {

void escape_unit(char16_t c, std::string& out) {
  switch (c) {
    case u'"': out += "\\\""; break;
    case u'\\': out += "\\\\"; break;
    case u'\n': out += "\\n"; break;
    case u'\r': out += "\\r"; break;
    case u'\t': out += "\\t"; break;
    default:
      if (c >= 0x20 && c < 0x7F) out += static_cast<char>(c);
      else out += fmt::format("\\u{:04X}", static_cast<unsigned>(c));
  }
}

}  // namespace

std::string escape_string(std::u16string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char16_t c : text) escape_unit(c, out);
  return out;
}

Printer::Printer(const Module& module) : module_(module) {
  type_def_names_.resize(size_t{module.tables().rows(TableId::TypeDef)} + 1);
  type_def_quoted_.resize(type_def_names_.size());
  type_ref_names_.resize(size_t{module.tables().rows(TableId::TypeRef)} + 1);
}

std::string Printer::type_def_name(TypeDefId id) {
  if (!module_.valid(id)) return bad_token(id.token());
  return cached_type_def_name(id);
}

const std::string& Printer::cached_type_def_name(TypeDefId id) {
  uint32_t rid = id.value();
  if (!type_def_names_[rid].empty()) return type_def_names_[rid];
  // Collect the chain of enclosing types, outermost last; a cycle stops at the depth cap.
  std::vector<uint32_t> chain{rid};
  while (chain.size() <= kMaxNestingDepth) {
    uint32_t outer = module_.enclosing_type(TypeDefId(chain.back())).value();
    if (!outer) break;
    chain.push_back(outer);
  }
  bool truncated = chain.size() > kMaxNestingDepth;
  std::string name = truncated ? "<nesting too deep>/" : "";
  for (size_t i = chain.size(); i-- > 0;) {
    uint32_t r = chain[i];
    auto type = module_.row<TableId::TypeDef>(r);
    std::string_view ns = type.type_namespace();
    std::string_view n = type.type_name();
    if (i + 1 < chain.size()) name += '/';
    if (!ns.empty()) {
      name += ns;
      name += '.';
    }
    name += n;
  }
  type_def_names_[rid] = clip(std::move(name));
  return type_def_names_[rid];
}

std::string Printer::type_def_ref(TypeDefId id) {
  if (!module_.valid(id)) return bad_token(id.token());
  uint32_t rid = id.value();
  if (!type_def_quoted_[rid].empty()) return type_def_quoted_[rid];
  std::string out;
  uint32_t outer = module_.enclosing_type(TypeDefId(rid)).value();
  std::vector<uint32_t> chain{rid};
  while (outer && chain.size() <= kMaxNestingDepth) {
    chain.push_back(outer);
    outer = module_.enclosing_type(TypeDefId(outer)).value();
  }
  for (size_t i = chain.size(); i-- > 0;) {
    uint32_t r = chain[i];
    auto type = module_.row<TableId::TypeDef>(r);
    std::string_view ns = type.type_namespace();
    std::string_view n = type.type_name();
    if (i + 1 < chain.size()) out += '/';
    if (!ns.empty()) {
      out += quote_dotted(ns);
      out += '.';
    }
    out += quote_identifier(n);
  }
  type_def_quoted_[rid] = clip(std::move(out));
  return type_def_quoted_[rid];
}

std::string Printer::scope_prefix(Token scope, unsigned depth) {
  const TablesStream& t = module_.tables();
  uint32_t rid = token_rid(scope);
  switch (token_table(scope)) {
    case TableId::AssemblyRef:
      if (!t.valid_rid(TableId::AssemblyRef, rid)) return bad_token(scope);
      return "[" + quote_dotted(module_.row<TableId::AssemblyRef>(rid).name()) + "]";
    case TableId::ModuleRef:
      if (!t.valid_rid(TableId::ModuleRef, rid)) return bad_token(scope);
      return "[.module " + quote_dotted(module_.row<TableId::ModuleRef>(rid).name()) + "]";
    case TableId::TypeRef:
      if (!t.valid_rid(TableId::TypeRef, rid)) return bad_token(scope);
      return type_ref_name(TypeRefId(rid), depth + 1) + "/";
    default:
      return "";  // this module, or a null scope resolved through ExportedType
  }
}

std::string Printer::type_ref_name(TypeRefId id, unsigned depth) {
  if (!module_.valid(id)) return bad_token(id.token());
  uint32_t rid = id.value();
  if (!type_ref_names_[rid].empty()) return type_ref_names_[rid];
  if (depth > kMaxNestingDepth) return "<nesting too deep>";
  auto ref = module_.row<TableId::TypeRef>(rid);
  std::string name = scope_prefix(ref.resolution_scope(), depth);
  std::string_view ns = ref.type_namespace();
  std::string_view n = ref.type_name();
  if (!ns.empty()) {
    name += quote_dotted(ns);
    name += '.';
  }
  name += quote_identifier(n);
  name = clip(std::move(name));
  if (depth == 0) type_ref_names_[rid] = name;
  return name;
}

std::string Printer::type_spec(TypeSpecId id) {
  Token token = id.token();
  if (!module_.valid(id)) return bad_token(token);
  uint32_t rid = id.value();
  if (auto it = type_spec_names_.find(rid); it != type_spec_names_.end()) return it->second;
  // A TypeSpec may name itself, or a long chain of others, through class tokens: mark it as in
  // progress, and cap the depth of TypeSpecs being printed inside one another.
  if (spec_depth_ >= kMaxSignatureDepth) return fmt::format("<TypeSpec {} nested too deep>", token_text(token));
  type_spec_names_[rid] = fmt::format("<recursive TypeSpec {}>", token_text(token));
  ++spec_depth_;
  std::string text;
  auto r = module_.row<TableId::TypeSpec>(rid).signature_reader("TypeSpec signature");
  if (!r) {
    text = bad_blob("TypeSpec signature", r.error());
  } else {
    auto sig = decode_type_spec(*r);
    text = sig ? type(*sig) : bad_blob("TypeSpec signature", sig.error());
  }
  --spec_depth_;
  text = clip(std::move(text));
  type_spec_names_[rid] = text;
  return text;
}

std::string Printer::type_token(Token token) {
  switch (token_table(token)) {
    case TableId::TypeDef: return type_def_ref(TypeDefId(token.row()));
    case TableId::TypeRef: return type_ref_name(TypeRefId(token.row()), 0);
    case TableId::TypeSpec: return type_spec(TypeSpecId(token.row()));
    default: return bad_token(token);
  }
}

std::string Printer::type(const TypeSig& t) {
  std::string out;
  if (const char* name = primitive_name(t.element)) {
    out = name;
  } else {
    switch (t.element) {
      case ElementType::Class:
      case ElementType::ValueType:
        out = t.element == ElementType::Class ? "class " : "valuetype ";
        out += type_token(t.token);
        break;
      case ElementType::Var: out = fmt::format("!{}", t.number); break;
      case ElementType::MVar: out = fmt::format("!!{}", t.number); break;
      case ElementType::Ptr: out = type(t.children.at(0)) + "*"; break;
      case ElementType::ByRef: out = type(t.children.at(0)) + "&"; break;
      case ElementType::SzArray: out = type(t.children.at(0)) + "[]"; break;
      case ElementType::Pinned: out = type(t.children.at(0)) + " pinned"; break;
      case ElementType::Array: {
        out = type(t.children.at(0)) + "[";
        const ArrayShape& s = *t.shape;
        for (uint32_t d = 0; d < s.rank && d < 256; ++d) {
          if (d) out += ',';
          bool has_lo = d < s.lower_bounds.size(), has_size = d < s.sizes.size();
          if (has_lo && has_size && s.sizes[d] != 0) out += fmt::format("{}...{}", s.lower_bounds[d], int64_t{s.lower_bounds[d]} + s.sizes[d] - 1);
          else if (has_lo) out += fmt::format("{}...", s.lower_bounds[d]);
          else if (has_size) out += fmt::format("{}", s.sizes[d]);
        }
        out += "]";
        break;
      }
      case ElementType::GenericInst: {
        out = type(t.children.at(0)) + "<";
        for (size_t i = 1; i < t.children.size() && !full(out); ++i) {
          if (i > 1) out += ',';
          out += type(t.children[i]);
        }
        out += ">";
        break;
      }
      case ElementType::FnPtr: {
        const MethodSig& m = *t.method;
        out = "method " + call_convention(m) + type(m.return_type) + " *(";
        for (size_t i = 0; i < m.params.size() && !full(out); ++i) {
          if (i) out += ", ";
          if (m.sentinel == static_cast<int32_t>(i)) out += "..., ";
          out += type(m.params[i]);
        }
        out += ")";
        break;
      }
      case ElementType::Internal: out = "<internal>"; break;
      default: out = fmt::format("<element type {:#04x}>", static_cast<unsigned>(t.element)); break;
    }
  }
  for (const auto& mod : t.modifiers) {
    if (full(out)) break;
    out += mod.required ? " modreq(" : " modopt(";
    out += type_token(mod.type);
    out += ")";
  }
  return clip(std::move(out));
}

std::string Printer::call_convention(const MethodSig& sig) {
  std::string out;
  if (sig.has_this()) out += "instance ";
  if (sig.explicit_this()) out += "explicit ";
  switch (sig.kind()) {
    case kCallVarArg: out += "vararg "; break;
    case kCallC: out += "unmanaged cdecl "; break;
    case kCallStdCall: out += "unmanaged stdcall "; break;
    case kCallThisCall: out += "unmanaged thiscall "; break;
    case kCallFastCall: out += "unmanaged fastcall "; break;
    case kCallUnmanaged: out += "unmanaged "; break;
    default: break;
  }
  return out;
}

std::string Printer::method_sig_text(const MethodSig& sig, std::string_view name,
                                     const std::vector<std::string>* param_names) {
  std::string out = call_convention(sig) + type(sig.return_type) + " " + std::string(name) + "(";
  for (size_t i = 0; i < sig.params.size() && !full(out); ++i) {
    if (i) out += ", ";
    if (sig.sentinel == static_cast<int32_t>(i)) out += "..., ";
    out += type(sig.params[i]);
    if (param_names && i < param_names->size() && !(*param_names)[i].empty()) {
      out += ' ';
      out += quote_identifier((*param_names)[i]);
    }
  }
  if (sig.sentinel == static_cast<int32_t>(sig.params.size())) out += sig.params.empty() ? "..." : ", ...";
  out += ")";
  return clip(std::move(out));
}

std::string Printer::owner_text(Token parent) {
  switch (token_table(parent)) {
    case TableId::TypeDef:
    case TableId::TypeRef:
    case TableId::TypeSpec: return type_token(parent);
    case TableId::ModuleRef: return scope_prefix(parent, 0);
    case TableId::MethodDef: {
      TypeDefId owner = module_.method_owner(MethodDefId(parent.row()));
      return !owner.is_nil() ? type_def_ref(owner) : bad_token(parent);
    }
    default: return bad_token(parent);
  }
}

std::string Printer::method_name(MethodDefId method) {
  std::string out;
  method_name_into(out, method);
  return out;
}

void Printer::method_name_into(std::string& out, MethodDefId method) {
  out.clear();
  if (!module_.valid(method)) {
    out = bad_token(method.token());
    return;
  }
  TypeDefId owner = module_.method_owner(method);
  if (owner.is_nil()) out += '?';
  else if (module_.valid(owner)) out += cached_type_def_name(owner);
  else out += bad_token(owner.token());
  out += std::string_view("::");  // its length known here, not measured at every call
  out += module_.row(method).name();
  if (out.size() > kMaxPrintedText) out = clip(std::move(out));
}

std::string Printer::field_name(FieldId field) {
  if (!module_.valid(field)) return bad_token(field.token());
  TypeDefId owner = module_.field_owner(field);
  std::string out = !owner.is_nil() ? type_def_name(owner) : "?";
  out += "::";
  out += module_.row(field).name();
  return clip(std::move(out));
}

std::string Printer::method_token(Token token) {
  switch (token_table(token)) {
    case TableId::MethodDef: {
      auto def = module_.find_row<TableId::MethodDef>(token);
      if (!def) return bad_token(token);
      auto r = def->signature_reader("method signature");
      if (!r) return bad_blob("method signature", r.error());
      auto sig = decode_method_sig(*r);
      if (!sig) return bad_blob("method signature", sig.error());
      TypeDefId owner = module_.method_owner(def->id());
      std::string name = (!owner.is_nil() ? type_def_ref(owner) : std::string("?")) + "::" + quote_identifier(def->name());
      return method_sig_text(*sig, name, nullptr);
    }
    case TableId::MemberRef: {
      auto ref = module_.find_row<TableId::MemberRef>(token);
      if (!ref) return bad_token(token);
      auto r = ref->signature_reader("MemberRef signature");
      if (!r) return bad_blob("MemberRef signature", r.error());
      auto sig = decode_method_sig(*r);
      if (!sig) return bad_blob("MemberRef signature", sig.error());
      std::string name = owner_text(ref->class_()) + "::" + quote_identifier(ref->name());
      return method_sig_text(*sig, name, nullptr);
    }
    case TableId::MethodSpec: {
      auto spec = module_.find_row<TableId::MethodSpec>(token);
      if (!spec) return bad_token(token);
      Token method = spec->method();
      auto r = spec->instantiation_reader("MethodSpec signature");
      if (!r) return bad_blob("MethodSpec signature", r.error());
      auto args = decode_method_spec_sig(*r);
      if (!args) return bad_blob("MethodSpec signature", args.error());
      std::string inst = "<";
      for (size_t i = 0; i < args->size() && !full(inst); ++i) {
        if (i) inst += ',';
        inst += type((*args)[i]);
      }
      inst += ">";
      std::string base = token_table(method) == TableId::MethodSpec ? bad_token(method) : method_token(method);
      // Insert the instantiation after the method name, before the parameter list.
      size_t paren = base.find('(');
      if (paren == std::string::npos || base[0] == '<') return clip(base + inst);
      return clip(base.substr(0, paren) + inst + base.substr(paren));
    }
    default:
      return bad_token(token);
  }
}

std::string Printer::field_token(Token token) {
  uint32_t sig_index = 0;
  std::string name;
  if (token_table(token) == TableId::Field) {
    auto field = module_.find_row<TableId::Field>(token);
    if (!field) return bad_token(token);
    TypeDefId owner = module_.field_owner(field->id());
    name = (!owner.is_nil() ? type_def_ref(owner) : std::string("?")) + "::" + quote_identifier(field->name());
    sig_index = field->signature_index();
  } else if (token_table(token) == TableId::MemberRef) {
    auto ref = module_.find_row<TableId::MemberRef>(token);
    if (!ref) return bad_token(token);
    name = owner_text(ref->class_()) + "::" + quote_identifier(ref->name());
    sig_index = ref->signature_index();
  } else {
    return bad_token(token);
  }
  auto r = module_.blobs().reader(sig_index, "field signature");
  if (!r) return bad_blob("field signature", r.error());
  auto sig = decode_field_sig(*r);
  if (!sig) return bad_blob("field signature", sig.error());
  return clip(type(*sig) + " " + name);
}

std::string Printer::any_token(Token token) {
  switch (token_table(token)) {
    case TableId::MethodDef:
    case TableId::MethodSpec: return "method " + method_token(token);
    case TableId::Field: return "field " + field_token(token);
    case TableId::MemberRef: {
      auto ref = module_.find_row<TableId::MemberRef>(token);
      if (!ref) return bad_token(token);
      auto blob = ref->signature();
      bool is_field = blob && !blob->empty() && ((*blob)[0] & kCallConvMask) == kSigField;
      return is_field ? "field " + field_token(token) : "method " + method_token(token);
    }
    default: return type_token(token);
  }
}

std::string Printer::standalone_method_sig(Token token) {
  auto standalone = module_.find_row<TableId::StandAloneSig>(token);
  if (!standalone) return bad_token(token);
  auto r = standalone->signature_reader("call site signature");
  if (!r) return bad_blob("call site signature", r.error());
  auto sig = decode_method_sig(*r);
  if (!sig) return bad_blob("call site signature", sig.error());
  std::string out = call_convention(*sig) + type(sig->return_type) + "(";
  for (size_t i = 0; i < sig->params.size() && !full(out); ++i) {
    if (i) out += ", ";
    if (sig->sentinel == static_cast<int32_t>(i)) out += "..., ";
    out += type(sig->params[i]);
  }
  out += ")";
  return clip(std::move(out));
}

std::string Printer::user_string(Token token) {
  if (token_type(token) != kUserStringTokenType) return bad_token(token);
  // Read no more than can be printed: many ldstr may name one huge string.
  auto text = module_.metadata().user_strings().get(token_rid(token), kMaxPrintedText + 1);
  if (!text) return bad_blob("user string", text.error());
  std::string out = "\"";
  size_t used = 0;
  while (used < text->size() && !full(out)) escape_unit((*text)[used++], out);
  out += '"';
  if (used < text->size()) out += "...";
  return out;
}

std::string Printer::method_header(MethodDefId method_id) {
  if (!module_.valid(method_id)) return bad_token(method_id.token());
  uint32_t rid = method_id.value();
  using MA = MethodAttributes;
  using MI = MethodImplAttributes;
  auto method = module_.row<TableId::MethodDef>(rid);
  MA flags = method.flags();
  MI impl = method.impl_flags();
  static constexpr const char* kAccess[] = {"privatescope", "private", "famandassem", "assembly",
                                            "family", "famorassem", "public", "<access 7>"};
  std::string out = ".method ";
  out += kAccess[raw(flags & MA::MemberAccessMask)];
  static constexpr std::pair<MA, const char*> kFlags[] = {
      {MA::HideBySig, "hidebysig"}, {MA::NewSlot, "newslot"}, {MA::Strict, "strict"}, {MA::SpecialName, "specialname"},
      {MA::RTSpecialName, "rtspecialname"}, {MA::Abstract, "abstract"}, {MA::Virtual, "virtual"}, {MA::Final, "final"},
      {MA::Static, "static"}, {MA::PInvokeImpl, "pinvokeimpl"}, {MA::HasSecurity, "hassecurity"},
      {MA::RequireSecObject, "reqsecobj"}, {MA::UnmanagedExport, "unmanagedexp"}};
  for (auto [bit, word] : kFlags) {
    if (has(flags, bit)) {
      out += ' ';
      out += word;
    }
  }
  out += ' ';
  TypeDefId owner = module_.method_owner(method_id);
  std::string name = (!owner.is_nil() ? type_def_ref(owner) : std::string("?")) + "::" + quote_identifier(method.name());
  auto r = method.signature_reader("method signature");
  Expected<MethodSig> sig = r ? decode_method_sig(*r) : Expected<MethodSig>(r.error());
  // Only names of parameters the signature has: a Sequence from the file (up to 0xFFFF) must
  // not size the list, or every method sharing a hostile Param list costs 64K strings.
  std::vector<std::string> names;
  size_t param_count = sig ? sig->params.size() : 0;
  for (ParamId p : module_.params_of(method_id)) {
    auto param = module_.row(p);
    uint32_t seq = param.sequence();
    if (seq == 0 || seq > param_count) continue;
    if (names.size() < seq) names.resize(seq);
    names[seq - 1] = std::string(param.name());
  }
  if (!sig) out += name + "(" + bad_blob("method signature", sig.error()) + ")";
  else {
    if (sig->generic()) name += generic_parameter_list(method_id.token(), sig->generic_count);
    out += method_sig_text(*sig, name, &names);
  }
  static constexpr const char* kCodeType[] = {"cil", "native", "optil", "runtime"};
  out += ' ';
  out += kCodeType[raw(impl & MI::CodeTypeMask)];
  out += (impl & MI::ManagedMask) == MI::Unmanaged ? " unmanaged" : " managed";
  static constexpr std::pair<MI, const char*> kImpl[] = {
      {MI::ForwardRef, "forwardref"}, {MI::PreserveSig, "preservesig"}, {MI::InternalCall, "internalcall"},
      {MI::Synchronized, "synchronized"}, {MI::NoInlining, "noinlining"}, {MI::AggressiveInlining, "aggressiveinlining"},
      {MI::NoOptimization, "nooptimization"}, {MI::AggressiveOptimization, "aggressiveoptimization"}};
  for (auto [bit, word] : kImpl) {
    if (has(impl, bit)) {
      out += ' ';
      out += word;
    }
  }
  return clip(std::move(out));
}

std::string Printer::generic_parameter_list(Token owner, uint32_t count) {
  if (!generic_params_built_) {
    // One pass over GenericParam (sorted by owner) gives every owner's parameters; one pass over
    // GenericParamConstraint adds their constraints.
    generic_params_built_ = true;
    const TablesStream& t = module_.tables();
    std::vector<std::pair<Token, uint32_t>> where(t.rows(TableId::GenericParam) + 1, {Token{0}, 0});
    for (uint32_t row = 1; row <= t.rows(TableId::GenericParam); ++row) {
      auto param = module_.row<TableId::GenericParam>(row);
      Token o = param.owner();
      uint32_t number = param.number();  // 2 bytes: at most 64K parameters an owner
      auto& params = generic_params_[o];
      if (params.size() <= number) params.resize(number + 1);
      params[number].name = std::string(param.name());
      params[number].flags = param.flags();
      where[row] = {o, number};
    }
    for (uint32_t row = 1; row <= t.rows(TableId::GenericParamConstraint); ++row) {
      auto constraint = module_.row<TableId::GenericParamConstraint>(row);
      uint32_t param = constraint.owner();
      if (param == 0 || param >= where.size() || where[param].first == Token{0}) continue;
      auto& params = generic_params_[where[param].first];
      if (where[param].second >= params.size()) continue;
      auto& constraints = params[where[param].second].constraints;
      if (constraints.size() < kMaxShownConstraints) constraints.push_back(constraint.constraint());
    }
  }
  // As ildasm: variance, special constraints, (type constraints), name.
  using GA = GenericParamAttributes;
  static constexpr std::pair<GA, const char*> kFlags[] = {
      {GA::Covariant, "+ "}, {GA::Contravariant, "- "}, {GA::ReferenceTypeConstraint, "class "},
      {GA::NotNullableValueTypeConstraint, "valuetype "}, {GA::DefaultConstructorConstraint, ".ctor "},
      {GA::AllowByRefLike, "byreflike "}};
  std::string out = "<";
  auto it = generic_params_.find(owner);
  for (uint32_t i = 0; i < count && i < 0x10000 && !full(out); ++i) {
    if (i) out += ',';
    const GenericParamText* p = it != generic_params_.end() && i < it->second.size() ? &it->second[i] : nullptr;
    if (p) {
      for (auto [bit, word] : kFlags)
        if (has(p->flags, bit)) out += word;
      if (!p->constraints.empty()) {
        out += '(';
        for (size_t c = 0; c < p->constraints.size() && !full(out); ++c) {
          if (c) out += ", ";
          TableId table = token_table(p->constraints[c]);
          if (table == TableId::TypeDef || table == TableId::TypeRef) out += "class ";
          out += type_token(p->constraints[c]);
        }
        out += ") ";
      }
    }
    out += p && !p->name.empty() ? quote_identifier(p->name) : fmt::format("T{}", i);
  }
  return clip(out + ">");
}

std::string Printer::locals(Token sig_token, bool init) {
  if (!sig_token) return "";
  const TablesStream& t = module_.tables();
  std::string out = init ? ".locals init (" : ".locals (";
  if (token_table(sig_token) != TableId::StandAloneSig || !t.valid_rid(TableId::StandAloneSig, token_rid(sig_token))) {
    out += bad_token(sig_token);
  } else {
    auto r = module_.row<TableId::StandAloneSig>(token_rid(sig_token)).signature_reader("local variable signature");
    auto sig = r ? decode_locals_sig(*r) : Expected<std::vector<TypeSig>>(r.error());
    if (!sig) {
      out += bad_blob("local variable signature", sig.error());
    } else {
      for (size_t i = 0; i < sig->size() && !full(out); ++i) {
        if (i) out += ", ";
        out += fmt::format("{} V_{}", type((*sig)[i]), i);
      }
    }
  }
  out += ")";
  return clip(std::move(out));
}

}  // namespace cil::md
