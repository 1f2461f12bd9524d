// An app's deps.json given the hooks assembly of trace mode (see deps_file.h).
#include "cli/deps_file.h"

#include <algorithm>
#include <filesystem>
#include <string_view>

#include <fmt/format.h>

#include "cli/json_reader.h"
#include "cli/json_writer.h"
#include "support/file_io.h"

namespace cil::cli {

namespace {

namespace fs = std::filesystem;

/// deps.json files are a few hundred KiB at most; this leaves room and bounds the work.
constexpr uint64_t kMaxDepsSize = 64ull << 20;

Error deps_error(const std::string& path, std::string message) {
  return in_file(make_error(ErrorKind::Format, "deps.json", std::move(message)), path);
}

std::string_view file_part(std::string_view path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

/// Whether any library of any target lists `file_name` as a runtime asset.
bool lists_runtime_file(const JsonValue& deps, std::string_view file_name) {
  const JsonValue* targets = deps.find("targets");
  if (!targets || !targets->is_object()) return false;
  for (const auto& [target_name, target] : targets->members())
    for (const auto& [library_name, library] : target.members())
      if (const JsonValue* runtime = library.find("runtime"); runtime && runtime->is_object())
        for (const auto& [asset, properties] : runtime->members())
          if (file_part(asset) == file_name) return true;
  return false;
}

/// Writes `value` as it was read; `extra(path, writer)` adds members at the end of the object
/// at `path` (keys from the root).
template <class Extra>
void write_value(JsonWriter& out, const JsonValue& value, std::vector<std::string_view>& path, const Extra& extra) {
  switch (value.kind()) {
    case JsonValue::Kind::Null: out.null(); break;
    case JsonValue::Kind::Bool: out.value(value.boolean()); break;
    case JsonValue::Kind::Number: out.raw(value.text()); break;
    case JsonValue::Kind::String: out.value(value.text()); break;
    case JsonValue::Kind::Array:
      out.begin_array();
      for (const auto& item : value.items()) write_value(out, item, path, extra);
      out.end_array();
      break;
    case JsonValue::Kind::Object:
      out.begin_object();
      for (const auto& [key, member] : value.members()) {
        out.key(key);
        path.push_back(key);
        write_value(out, member, path, extra);
        path.pop_back();
      }
      extra(path, out);
      out.end_object();
      break;
  }
}

Expected<DepsUpdate> update(const std::string& path, const JsonValue& deps, const DepsLibrary& library) {
  DepsUpdate result{path, {}};
  const JsonValue* libraries = deps.find("libraries");
  const JsonValue* targets = deps.find("targets");
  const JsonValue* runtime_target = deps.find("runtimeTarget");
  const JsonValue* target_name = runtime_target ? runtime_target->find("name") : nullptr;
  if (!libraries || !libraries->is_object() || !targets || !targets->is_object())
    return deps_error(path, "has no \"targets\" and \"libraries\" objects");
  if (!target_name || !target_name->is_string())
    return deps_error(path, "has no runtime target (\"runtimeTarget\": {\"name\": ...})");
  const JsonValue* target = targets->find(target_name->text());
  if (!target || !target->is_object())
    return deps_error(path, fmt::format("its runtime target '{}' is not among its targets", target_name->text()));
  std::string prefix = library.name + "/";
  for (const auto& [name, entry] : libraries->members())
    if (name.size() > prefix.size() && std::equal(prefix.begin(), prefix.end(), name.begin())) return result;  // listed already

  std::string key = library.name + "/" + library.version;
  auto extra = [&](const std::vector<std::string_view>& at, JsonWriter& out) {
    if (at.size() == 2 && at[0] == "targets" && at[1] == target_name->text()) {
      out.key(key).begin_object();
      out.key("runtime").begin_object();
      out.key(library.file_name).begin_object();
      out.key("assemblyVersion").value(library.version);
      out.end_object();
      out.end_object();
      out.end_object();
    } else if (at.size() == 1 && at[0] == "libraries") {
      out.key(key).begin_object();
      out.key("type").value("project");
      out.key("serviceable").value(false);
      out.key("sha512").value("");
      out.end_object();
    }
  };
  JsonWriter out;
  std::vector<std::string_view> at;
  write_value(out, deps, at, extra);
  for (const auto& piece : out.text().pieces()) result.text += piece;
  return result;
}

Expected<JsonValue> read_deps(const std::string& path) {
  auto bytes = read_file(path, kMaxDepsSize);
  if (!bytes) return in_file(std::move(bytes).error(), path);
  auto parsed = parse_json(std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size()));
  if (!parsed) return in_file(std::move(parsed).error(), path);
  if (!parsed->is_object()) return deps_error(path, "is not a JSON object");
  return std::move(*parsed);
}

}  // namespace

Expected<std::vector<DepsUpdate>> plan_deps_updates(const std::string& output, const std::string& explicit_path,
                                                    const DepsLibrary& library) {
  std::vector<DepsUpdate> updates;
  if (!explicit_path.empty()) {
    auto deps = read_deps(explicit_path);
    if (!deps) return std::move(deps).error();
    auto planned = update(explicit_path, *deps, library);
    if (!planned) return std::move(planned).error();
    updates.push_back(std::move(*planned));
    return updates;
  }
  fs::path dir = fs::path(output).parent_path();
  if (dir.empty()) dir = ".";
  std::error_code ec;
  std::vector<std::string> candidates;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.size() > 10 && name.ends_with(".deps.json") && it->is_regular_file(ec)) candidates.push_back(it->path().string());
  }
  std::sort(candidates.begin(), candidates.end());
  std::string file_name = fs::path(output).filename().string();
  for (const auto& path : candidates) {
    auto deps = read_deps(path);
    if (!deps) return std::move(deps).error();
    if (!lists_runtime_file(*deps, file_name)) continue;
    auto planned = update(path, *deps, library);
    if (!planned) return std::move(planned).error();
    updates.push_back(std::move(*planned));
  }
  return updates;
}

}  // namespace cil::cli
