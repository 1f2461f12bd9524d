// An app's deps.json given the hooks assembly of trace mode (see deps_file.h).
#include "cli/jobs/deps_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string_view>

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "cli/jobs/file_copy.h"
#include "cli/output/json_reader.h"
#include "cli/output/json_writer.h"
#include "support/file_io.h"
#include "support/write_confinement.h"

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

Expected<JsonValue> read_deps(const std::string& path, std::string* original = nullptr) {
  auto bytes = read_file(path, kMaxDepsSize);
  if (!bytes) return in_file(std::move(bytes).error(), path);
  if (original) original->assign(reinterpret_cast<const char*>(bytes->data()), bytes->size());
  auto parsed = parse_json(std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size()));
  if (!parsed) return in_file(std::move(parsed).error(), path);
  if (!parsed->is_object()) return deps_error(path, "is not a JSON object");
  return std::move(*parsed);
}

constexpr std::string_view kDepsWhat = "the deps.json";

Error refused(const std::string& path, std::string message) {
  return in_file(make_error(ErrorKind::Io, std::string(kTraceFilesStructure), std::move(message) + "; nothing was written"), path);
}

/// The files a companion must never replace, by identity (a hard link or a symbolic link to one
/// is the same file): the run's input, and its output (also by name: it may not exist yet).
struct Kept {
  WriteConfinement input;
  WriteConfinement output;
  std::string output_path;
};

Kept kept_files(const std::string& input, const std::string& output) {
  Kept kept{{}, {}, output};
  kept.input.add_input(input);
  kept.output.add_input(output);
  return kept;
}

/// Whether `path` can be replaced by a rename, checked before anything is written: a failure
/// after the output is in place would leave an output that cannot start. A path the user named
/// has had its symbolic links followed already, so a link here was found beside the output (the
/// message says so, which WriteConfinement::check_named's cannot).
Status check_replaceable(const std::string& path, const std::string& what, const Kept& kept) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return ok();  // absent: creating it says why not
  if (S_ISLNK(st.st_mode))
    return refused(path, fmt::format("{} is a symbolic link: not written through{}", what,
                                     what == kDepsWhat ? " (--deps FILE names the file to update)" : ""));
  if (Status regular = OutputFile::check_destination(path); !regular) return refused(path, what + " " + regular.error().message);
  if (kept.input.is_input(path)) return refused(path, fmt::format("{} would replace the input", what));
  if (kept.output.is_input(path) || path == kept.output_path) return refused(path, fmt::format("{} would replace the output", what));
  // A rename over an immutable or append-only file fails (EPERM); ask the file system first.
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
  if (fd >= 0) {
    int flags = 0;
    bool fixed = ::ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0 && (flags & (FS_IMMUTABLE_FL | FS_APPEND_FL));
    ::close(fd);
    if (fixed) return refused(path, fmt::format("{} is immutable or append-only (chattr +i, +a): it cannot be replaced", what));
  }
  return ok();
}

Status write_pending(OutputFile& file, std::string_view bytes) {
  return file.write_at(0, std::span(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
}

}  // namespace

Expected<std::vector<DepsUpdate>> plan_deps_updates(const std::string& output, const std::string& explicit_path,
                                                    const DepsLibrary& library) {
  std::vector<DepsUpdate> updates;
  if (!explicit_path.empty()) {
    std::string original;
    auto deps = read_deps(explicit_path, &original);
    if (!deps) return std::move(deps).error();
    auto planned = update(explicit_path, *deps, library);
    if (!planned) return std::move(planned).error();
    planned->original = std::move(original);
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
    std::string original;
    auto deps = read_deps(path, &original);
    if (!deps) return std::move(deps).error();
    if (!lists_runtime_file(*deps, file_name)) continue;
    auto planned = update(path, *deps, library);
    if (!planned) return std::move(planned).error();
    planned->original = std::move(original);
    updates.push_back(std::move(*planned));
  }
  return updates;
}

Expected<TraceCompanions> TraceCompanions::prepare(const std::string& input, const std::string& output, const std::string& deps_arg,
                                                   const std::string& hooks_path, const DepsLibrary& library, OutputOptions options) {
  TraceCompanions result;
  std::string named = deps_arg;
  if (!named.empty()) {
    // The user named it: a symbolic link is followed to the file it points to.
    std::error_code ec;
    fs::path target = fs::canonical(named, ec);
    if (!ec) named = target.string();
  }
  auto planned = plan_deps_updates(output, named, library);
  if (!planned) return std::move(planned).error();
  if (planned->empty()) return result;

  const Kept kept = kept_files(input, output);
  std::string beside = (fs::path(output).parent_path() / fs::path(hooks_path).filename()).string();
  if (!same_file(hooks_path, beside)) {
    if (Status usable = check_replaceable(beside, "the hooks assembly's copy", kept); !usable) return std::move(usable).error();
    Pending copy{beside, std::make_unique<OutputFile>(beside, options)};
    struct stat st {};
    if (::stat(hooks_path.c_str(), &st) != 0)
      return in_file(make_error(ErrorKind::Io, "", fmt::format("cannot read: {}", std::strerror(errno))), hooks_path);
    copy.mode = st.st_mode & 0777;  // an apphost's hooks stay executable
    auto bytes = read_file(hooks_path);
    if (!bytes) return in_file(std::move(bytes).error(), hooks_path);
    if (Status written = copy.file->write_at(0, *bytes); !written) return refused(beside, "the hooks assembly's copy: " + written.error().message);
    struct stat old {};
    if (::lstat(beside.c_str(), &old) == 0) {
      auto original = read_file(beside);
      if (!original) return in_file(std::move(original).error(), beside);
      copy.existed = true;
      copy.original.assign(reinterpret_cast<const char*>(original->data()), original->size());
    }
    result.pending_.push_back(std::move(copy));
    result.hooks_copied_ = beside;
  }
  for (auto& update : *planned) {
    result.found_.push_back(update.path);
    if (update.text.empty()) continue;
    if (Status usable = check_replaceable(update.path, std::string(kDepsWhat), kept); !usable) return std::move(usable).error();
    Pending deps{update.path, std::make_unique<OutputFile>(update.path, options), true, std::move(update.original)};
    if (Status written = write_pending(*deps.file, update.text); !written) return refused(update.path, "the deps.json: " + written.error().message);
    result.pending_.push_back(std::move(deps));
  }
  return result;
}

TraceCompanions::~TraceCompanions() = default;

Status TraceCompanions::commit() {
  for (auto& p : pending_) {
    Status done = p.file->commit();
    if (done && p.mode && ::chmod(p.path.c_str(), p.mode) != 0)
      done = make_error(ErrorKind::Io, "", fmt::format("cannot set the mode: {}", std::strerror(errno)));
    if (!done) {
      roll_back();
      return refused(p.path, done.error().message);
    }
    p.committed = true;
  }
  return ok();
}

void TraceCompanions::roll_back() {
  // Best effort: what stops the output from taking its place rarely stops these.
  for (auto it = pending_.rbegin(); it != pending_.rend(); ++it) {
    if (!it->committed) continue;
    it->committed = false;
    if (!it->existed) {
      ::unlink(it->path.c_str());
      continue;
    }
    OutputFile back(it->path);
    if (write_pending(back, it->original)) (void)back.commit();
  }
}

std::vector<std::string> TraceCompanions::deps_updated() const {
  std::vector<std::string> updated;
  for (const auto& p : pending_)
    if (p.path != hooks_copied_ && p.committed) updated.push_back(p.path);
  return updated;
}

}  // namespace cil::cli
