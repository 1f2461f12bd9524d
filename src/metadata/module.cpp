// Loading a module and building the owner and nesting maps.
#include "metadata/module.h"

#include <algorithm>

#include "support/file_io.h"

namespace cil::md {

Expected<std::unique_ptr<Module>> Module::load(const std::string& path) {
  // Mapped, a large image costs memory only for the pages the job touches; what cannot be
  // mapped (an empty file, a pipe) is read instead, and fails or parses the same way.
  auto mapped = MappedFile::open(path);
  if (!mapped) {
    std::vector<uint8_t> bytes = CIL_TRY(read_file(path));
    return parse(std::move(bytes));
  }
  std::unique_ptr<Module> module(new Module());
  module->mapped_ = std::move(*mapped);
  module->bytes_ = module->mapped_->bytes();
  CIL_TRY(module->init());
  return module;
}

Expected<std::unique_ptr<Module>> Module::parse(std::vector<uint8_t> bytes) {
  std::unique_ptr<Module> module(new Module());
  module->owned_ = std::move(bytes);
  module->bytes_ = module->owned_;
  CIL_TRY(module->init());
  return module;
}

Expected<std::unique_ptr<Module>> Module::parse_view(std::span<const uint8_t> bytes) {
  std::unique_ptr<Module> module(new Module());
  module->bytes_ = bytes;
  CIL_TRY(module->init());
  return module;
}

Status Module::init() {
  image_ = CIL_TRY(pe::PeImage::parse(bytes_));
  cli_ = CIL_TRY(pe::read_cli_header(image_));
  ByteReader root = CIL_TRY(image_.reader_at(cli_.metadata.rva, cli_.metadata.size, "metadata root"));
  metadata_ = CIL_TRY(Metadata::parse(root));

  const TablesStream& t = tables();
  uint32_t types = t.rows(TableId::TypeDef);
  method_lists_ = list_starts(types, [this](uint32_t rid) { return row<TableId::TypeDef>(rid).method_list(); });
  field_lists_ = list_starts(types, [this](uint32_t rid) { return row<TableId::TypeDef>(rid).field_list(); });
  param_lists_ = list_starts(t.rows(TableId::MethodDef), [this](uint32_t rid) { return row<TableId::MethodDef>(rid).param_list(); });
  method_owner_.assign(size_t{t.rows(TableId::MethodDef)} + 1, 0);
  field_owner_.assign(size_t{t.rows(TableId::Field)} + 1, 0);
  for (uint32_t type = 1; type <= types; ++type) {
    auto [mfirst, mlast] = list_range(method_lists_, type, t.rows(TableId::MethodPtr) ? TableId::MethodPtr : TableId::MethodDef);
    for (uint32_t i = mfirst; i < mlast; ++i) {
      uint32_t method = list_entry(TableId::MethodPtr, TableId::MethodDef, i);
      if (method && method < method_owner_.size() && !method_owner_[method]) method_owner_[method] = type;
    }
    auto [ffirst, flast] = list_range(field_lists_, type, t.rows(TableId::FieldPtr) ? TableId::FieldPtr : TableId::Field);
    for (uint32_t i = ffirst; i < flast; ++i) {
      uint32_t field = list_entry(TableId::FieldPtr, TableId::Field, i);
      if (field && field < field_owner_.size() && !field_owner_[field]) field_owner_[field] = type;
    }
  }
  enclosing_.assign(size_t{types} + 1, 0);
  for (uint32_t rid = 1; rid <= t.rows(TableId::NestedClass); ++rid) {
    auto nesting = row<TableId::NestedClass>(rid);
    uint32_t nested = nesting.nested_class();
    uint32_t enclosing = nesting.enclosing_class();
    if (nested >= 1 && nested <= types && enclosing <= types && nested != enclosing) enclosing_[nested] = enclosing;
  }
  return ok();
}

template <class ListColumn>
std::vector<uint32_t> Module::list_starts(uint32_t rows, ListColumn column) const {
  std::vector<uint32_t> starts(size_t{rows} + 1, 0);
  uint32_t high = 0;
  for (uint32_t rid = 1; rid <= rows; ++rid) starts[rid] = high = std::max(high, column(rid));
  return starts;
}

std::pair<uint32_t, uint32_t> Module::list_range(const std::vector<uint32_t>& starts, uint32_t rid, TableId list) const {
  uint32_t list_end = tables().rows(list) + 1;
  uint32_t first = starts[rid];
  uint32_t last = rid + 1 < starts.size() ? starts[rid + 1] : list_end;
  if (first == 0 || first >= list_end) return {0, 0};
  if (last > list_end) last = list_end;
  return {first, last};
}

uint32_t Module::list_entry(TableId ptr_table, TableId target, uint32_t index) const {
  const TablesStream& t = tables();
  if (t.rows(ptr_table) == 0) return index;
  uint32_t rid = t.get_checked(ptr_table, index, 0);
  return t.valid_rid(target, rid) ? rid : 0;
}

Module::TypeName Module::type_name(Token type) const {
  if (auto ref = find_row<TableId::TypeRef>(type)) return {ref->type_namespace(), ref->type_name()};
  if (auto def = find_row<TableId::TypeDef>(type)) return {def->type_namespace(), def->type_name()};
  return {};
}

bool Module::is_value_type(TypeDefId type) const {
  if (!valid(type)) return false;
  TypeName base = type_name(row(type).extends());
  return base.ns == "System" && (base.name == "ValueType" || base.name == "Enum");
}

Module::TypeName Module::attribute_type(CustomAttributeId attribute) const {
  Token ctor = row(attribute).type();
  Token owner;
  if (auto ref = find_row<TableId::MemberRef>(ctor)) owner = ref->class_();
  else if (token_table(ctor) == TableId::MethodDef) owner = method_owner(MethodDefId(token_rid(ctor))).token();
  return type_name(owner);
}

std::vector<MethodDefId> Module::methods_of(TypeDefId type) const {
  std::vector<MethodDefId> out;
  const TablesStream& t = tables();
  if (!valid(type)) return out;
  auto [first, last] = list_range(method_lists_, type.value(), t.rows(TableId::MethodPtr) ? TableId::MethodPtr : TableId::MethodDef);
  for (uint32_t i = first; i < last; ++i) {
    if (uint32_t m = list_entry(TableId::MethodPtr, TableId::MethodDef, i)) out.push_back(MethodDefId(m));
  }
  return out;
}

std::vector<ParamId> Module::params_of(MethodDefId method) const {
  std::vector<ParamId> out;
  const TablesStream& t = tables();
  if (!valid(method)) return out;
  auto [first, last] = list_range(param_lists_, method.value(), t.rows(TableId::ParamPtr) ? TableId::ParamPtr : TableId::Param);
  for (uint32_t i = first; i < last; ++i) {
    if (uint32_t p = list_entry(TableId::ParamPtr, TableId::Param, i)) out.push_back(ParamId(p));
  }
  return out;
}

}  // namespace cil::md
