// Count files: shape checks with messages that name the member at fault, and the merge.
#include "cli/results/count_file.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>

#include <fmt/format.h>

#include "cli/output/json_reader.h"
#include "cli/output/json_writer.h"
#include "cli/results/live_file.h"
#include "instrument/runtime_contract.h"
#include "metadata/schema.h"
#include "metadata/text_encoding.h"
#include "metadata/token_text.h"
#include "support/file_io.h"

namespace cil::cli {

namespace {

Error shape_error(std::string message) { return make_error(ErrorKind::Format, "count file", std::move(message)); }

/// A value for a message: strings quoted (and cut at 40 bytes), numbers as written, otherwise
/// the kind.
std::string describe(const JsonValue& v) {
  if (v.is_string()) return v.text().size() > 40 ? md::json_quote(v.text().substr(0, 40)) + "..." : md::json_quote(v.text());
  if (v.is_number()) return v.text().size() > 40 ? v.text().substr(0, 40) + "..." : v.text();
  return JsonValue::kind_name(v.kind());
}

Expected<const JsonValue*> member(const JsonValue& object, std::string_view key, JsonValue::Kind kind, const std::string& where) {
  const JsonValue* v = object.find(key);
  if (!v) return shape_error(fmt::format("{}missing \"{}\"", where, key));
  if (v->kind() != kind)
    return shape_error(fmt::format("{}\"{}\" must be {}, not {}", where, key, JsonValue::kind_name(kind), JsonValue::kind_name(v->kind())));
  return v;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// The contract's token text (any case) naming a MethodDef with a non-zero row (II.22.26).
std::optional<md::Token> parse_method_token(const std::string& text) {
  const std::string_view prefix = md::kTokenPrefix;
  if (text.size() != prefix.size() + md::kTokenDigits) return std::nullopt;
  for (size_t i = 0; i < prefix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(text[i])) != prefix[i]) return std::nullopt;
  uint32_t token = 0;
  for (size_t i = prefix.size(); i < text.size(); ++i) {
    int d = hex_value(text[i]);
    if (d < 0) return std::nullopt;
    token = token << 4 | static_cast<uint32_t>(d);
  }
  md::Token method(token);
  if (method.table() != md::TableId::MethodDef || method.row() == 0) return std::nullopt;
  return method;
}

/// 8-4-4-4-12 hexadecimal digits, as .NET formats a Guid; returned in lower case.
std::optional<std::string> parse_mvid(const std::string& text) {
  if (text.size() != 36) return std::nullopt;
  std::string out = text;
  for (size_t i = 0; i < out.size(); ++i) {
    bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? out[i] != '-' : hex_value(out[i]) < 0) return std::nullopt;
    if (!dash) out[i] = static_cast<char>(std::tolower(static_cast<unsigned char>(out[i])));
  }
  return out;
}

}  // namespace

Expected<CountFile> parse_count_file(std::string_view text) {
  JsonValue root = CIL_TRY(parse_json(text));
  if (!root.is_object()) return shape_error(fmt::format("the top level must be an object, not {}", JsonValue::kind_name(root.kind())));
  CountFile out;
  out.assembly = CIL_TRY(member(root, contract::kCountsKeyAssembly, JsonValue::Kind::String, ""))->text();
  if (out.assembly.empty()) return shape_error(fmt::format("\"{}\" is empty", contract::kCountsKeyAssembly));
  const JsonValue* mvid = CIL_TRY(member(root, contract::kCountsKeyMvid, JsonValue::Kind::String, ""));
  auto parsed_mvid = parse_mvid(mvid->text());
  if (!parsed_mvid)
    return shape_error(fmt::format("\"{}\" must be a GUID like 01234567-89ab-cdef-0123-456789abcdef, not {}",
                                   contract::kCountsKeyMvid, describe(*mvid)));
  out.mvid = *parsed_mvid;
  if (root.find(contract::kCountsKeyKind)) {
    out.kind = CIL_TRY(member(root, contract::kCountsKeyKind, JsonValue::Kind::String, ""))->text();
    if (out.kind != contract::kHitsKind)
      return shape_error(fmt::format("\"{}\" must be \"{}\", not {}", contract::kCountsKeyKind, contract::kHitsKind,
                                     md::json_quote(out.kind)));
  }
  const JsonValue* methods = CIL_TRY(member(root, contract::kCountsKeyMethods, JsonValue::Kind::Array, ""));

  std::unordered_map<md::Token, size_t> seen;
  out.methods.reserve(methods->items().size());
  for (size_t i = 0; i < methods->items().size(); ++i) {
    const JsonValue& m = methods->items()[i];
    std::string where = fmt::format("{}[{}]", contract::kCountsKeyMethods, i);
    if (!m.is_object()) return shape_error(fmt::format("{} must be an object, not {}", where, JsonValue::kind_name(m.kind())));
    where += ": ";
    const JsonValue* token = CIL_TRY(member(m, contract::kCountsKeyToken, JsonValue::Kind::String, where));
    const JsonValue* name = CIL_TRY(member(m, contract::kCountsKeyName, JsonValue::Kind::String, where));
    const JsonValue* count = CIL_TRY(member(m, contract::kCountsKeyCount, JsonValue::Kind::Number, where));
    MethodCount mc;
    auto parsed_token = parse_method_token(token->text());
    if (!parsed_token)
      return shape_error(fmt::format("{}\"{}\" must be a MethodDef token like \"{}\", not {}", where, contract::kCountsKeyToken,
                                     md::token_text(md::make_token(md::TableId::MethodDef, 1)), describe(*token)));
    mc.token = *parsed_token;
    auto value = count->as_uint64();
    if (!value)
      return shape_error(fmt::format("{}\"{}\" must be an integer from 0 to 18446744073709551615, not {}", where,
                                     contract::kCountsKeyCount, describe(*count)));
    mc.count = *value;
    mc.name = name->text();
    auto [it, added] = out.kind.empty() ? seen.emplace(mc.token, i) : std::make_pair(seen.end(), true);
    if (!added)
      return shape_error(fmt::format("{}{} {} is listed twice (also {}[{}])", where, contract::kCountsKeyToken,
                                     md::token_text(mc.token), contract::kCountsKeyMethods, it->second));
    out.methods.push_back(std::move(mc));
  }
  return out;
}

Expected<CountFile> read_count_file(const std::string& path) {
  std::error_code ec;
  uintmax_t size = std::filesystem::file_size(path, ec);
  if (!ec && size > kMaxCountFileSize)
    return make_error(ErrorKind::Limit, "", fmt::format("file is {} bytes, larger than the {} byte limit of a count file", size, kMaxCountFileSize));
  std::vector<uint8_t> bytes = CIL_TRY(read_file(path));
  if (is_live_file(bytes)) return parse_count_file(CIL_TRY(live_file_text(bytes)));
  return parse_count_file(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

Expected<std::vector<std::string>> CountMerger::add(const std::string& file, const CountFile& counts) {
  std::vector<std::string> warnings;
  size_t file_index = files_.size();
  auto key = std::make_pair(counts.assembly, counts.mvid);
  auto found = builds_.find(key);
  if (found == builds_.end()) {
    // The same assembly from another build: its tokens mean other methods, so keep it apart.
    for (const auto& [other, build] : builds_)
      if (other.first == counts.assembly) {
        warnings.push_back(fmt::format("assembly {} has mvid {} here but {} in {}: a different build, reported separately",
                                       md::json_quote(counts.assembly), counts.mvid, other.second, files_[build.first_file]));
        break;
      }
    found = builds_.emplace(key, Build{}).first;
    found->second.first_file = file_index;
  }
  Build& build = found->second;
  // Check every sum before changing anything, so a failed add leaves the merger as it was.
  for (const MethodCount& mc : counts.methods) {
    auto it = build.by_token.find(mc.token);
    if (it != build.by_token.end() && build.methods[it->second].count > UINT64_MAX - mc.count)
      return shape_error(fmt::format("the counts of {} {} add up to more than 18446744073709551615 with the earlier files",
                                     md::token_text(mc.token), md::json_quote(mc.name)));
  }
  files_.push_back(file);
  ++build.files;
  for (const MethodCount& mc : counts.methods) {
    auto [it, added] = build.by_token.emplace(mc.token, build.methods.size());
    if (added) {
      build.methods.push_back(mc);
      build.named_by.push_back(file_index);
      continue;
    }
    MethodCount& merged = build.methods[it->second];
    merged.count += mc.count;
    if (merged.name != mc.name)
      warnings.push_back(fmt::format("{} is named {} here but {} in {}; keeping the first name", md::token_text(mc.token),
                                     md::json_quote(mc.name), md::json_quote(merged.name), files_[build.named_by[it->second]]));
  }
  return warnings;
}

std::vector<AssemblyCounts> CountMerger::result() const {
  std::vector<AssemblyCounts> out;
  for (const auto& [key, build] : builds_) {
    AssemblyCounts& a = out.emplace_back();
    a.assembly = key.first;
    a.mvid = key.second;
    a.files = build.files;
    a.methods = build.methods;
    std::sort(a.methods.begin(), a.methods.end(), [](const MethodCount& x, const MethodCount& y) {
      if (x.count != y.count) return x.count > y.count;
      if (x.name != y.name) return x.name < y.name;
      return x.token < y.token;
    });
    for (const MethodCount& mc : a.methods) {
      if (mc.count) ++a.called;
      a.total_calls = a.total_calls > UINT64_MAX - mc.count ? UINT64_MAX : a.total_calls + mc.count;
    }
  }
  return out;
}

}  // namespace cil::cli
