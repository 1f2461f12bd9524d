// exec's journal: its text form, its reader, and the rule that tells the file exec put in place
// from one written over it since.
#include "cli/jobs/exec_journal.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "metadata/sha256.h"

namespace cil::cli {

namespace {

namespace fs = std::filesystem;

/// Bytes that would break the line's form are written %XX ('%' itself included).
bool journal_escaped(char c) { return c == '%' || c == '\t' || c == '\n' || c == '\r'; }

std::string escape_relative(const std::string& relative) {
  std::string out;
  for (char c : relative) {
    if (journal_escaped(c)) out += fmt::format("%{:02X}", static_cast<unsigned char>(c));
    else out += c;
  }
  return out;
}

bool unescape_relative(std::string_view text, std::string& out) {
  out.clear();
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i];
      continue;
    }
    unsigned value = 0;
    if (text.size() - i < 3) return false;
    auto [end, ec] = std::from_chars(text.data() + i + 1, text.data() + i + 3, value, 16);
    if (ec != std::errc() || end != text.data() + i + 3) return false;
    out += static_cast<char>(value);
    i += 2;
  }
  return true;
}

/// A path the journal may name: inside the folder (relative, no `..` component, not empty).
bool inside_folder(const std::string& relative) {
  if (relative.empty() || relative[0] == '/') return false;
  for (const auto& part : fs::path(relative))
    if (part == "..") return false;
  return true;
}

template <class T>
bool parse_journal_number(std::string_view text, T& value) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return !text.empty() && ec == std::errc() && end == text.data() + text.size();
}

bool parse_hash(std::string_view text, std::array<uint8_t, 32>& hash) {
  if (text.size() != 64) return false;
  for (size_t i = 0; i < 32; ++i) {
    auto [end, ec] = std::from_chars(text.data() + 2 * i, text.data() + 2 * i + 2, hash[i], 16);
    if (ec != std::errc() || end != text.data() + 2 * i + 2) return false;
  }
  return true;
}

std::vector<std::string_view> split_tabs(std::string_view line) {
  std::vector<std::string_view> fields;
  size_t start = 0;
  for (;;) {
    size_t tab = line.find('\t', start);
    fields.push_back(line.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start));
    if (tab == std::string_view::npos) return fields;
    start = tab + 1;
  }
}

Error journal_error(std::string message, size_t offset) { return make_error(ErrorKind::Format, "exec journal", std::move(message), offset); }

}  // namespace

std::string format_journal(const std::vector<JournalEntry>& entries) {
  std::string text = std::string(kJournalHeader) + "\n";
  for (const auto& e : entries) {
    std::string hash;
    for (uint8_t b : e.placed.sha256) hash += fmt::format("{:02x}", b);
    text += fmt::format("{}\t{}\t{}\t{}\t{}\n", e.replace ? "replace" : "create", e.placed.size, e.placed.mtime_ns, hash,
                        escape_relative(e.relative));
  }
  text += fmt::format("end\t{}\n", entries.size());
  return text;
}

Expected<std::vector<JournalEntry>> parse_journal(std::string_view text) {
  size_t first_end = text.find('\n');
  std::string_view header = text.substr(0, first_end);
  if (header != kJournalHeader) {
    constexpr std::string_view prefix = "cil-instrument exec journal ";
    if (header.starts_with(prefix) && first_end != std::string_view::npos)
      return journal_error(fmt::format("version '{}', this tool reads version 2", header.substr(prefix.size())), 0);
    return journal_error("not an exec journal (its first line is not the header)", 0);
  }
  if (first_end == std::string_view::npos) return journal_error("truncated: no end line", text.size());
  std::vector<JournalEntry> entries;
  size_t offset = first_end + 1;
  while (offset < text.size()) {
    size_t end = text.find('\n', offset);
    if (end == std::string_view::npos) return journal_error("truncated: the last line has no end", offset);
    std::string_view line = text.substr(offset, end - offset);
    auto fields = split_tabs(line);
    if (fields[0] == "end") {
      size_t count = 0;
      if (fields.size() != 2 || !parse_journal_number(fields[1], count)) return journal_error("malformed end line", offset);
      if (count != entries.size())
        return journal_error(fmt::format("the end line counts {} entries, the journal has {}", count, entries.size()), offset);
      if (end + 1 != text.size()) return journal_error("text after the end line", end + 1);
      return entries;
    }
    JournalEntry entry;
    if (fields.size() != 5 || (fields[0] != "replace" && fields[0] != "create"))
      return journal_error("malformed line (expected replace|create, size, mtime, SHA-256, path)", offset);
    entry.replace = fields[0] == "replace";
    if (!parse_journal_number(fields[1], entry.placed.size) || !parse_journal_number(fields[2], entry.placed.mtime_ns) ||
        !parse_hash(fields[3], entry.placed.sha256))
      return journal_error("malformed size, mtime or SHA-256", offset);
    if (!unescape_relative(fields[4], entry.relative) || !inside_folder(entry.relative))
      return journal_error("a path outside the folder", offset);
    entries.push_back(std::move(entry));
    offset = end + 1;
  }
  return journal_error("truncated: no end line", offset);
}

Expected<FileIdentity> identify_file(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return in_file(make_error(ErrorKind::Io, "", fmt::format("cannot open: {}", std::strerror(errno))), path);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    return in_file(make_error(ErrorKind::Io, "", fmt::format("cannot stat: {}", std::strerror(err))), path);
  }
  FileIdentity id;
  id.size = static_cast<uint64_t>(st.st_size);
  id.mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  md::Sha256 hash;
  std::vector<uint8_t> buffer(1 << 20);
  for (;;) {
    ssize_t n = ::read(fd, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      ::close(fd);
      return in_file(make_error(ErrorKind::Io, "", fmt::format("cannot read: {}", std::strerror(err))), path);
    }
    if (n == 0) break;
    hash.update({buffer.data(), static_cast<size_t>(n)});
  }
  ::close(fd);
  id.sha256 = hash.finish();
  return id;
}

Expected<PlacedState> placed_state(const std::string& path, const FileIdentity& placed) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return PlacedState::Missing;
    return in_file(make_error(ErrorKind::Io, "", fmt::format("cannot stat: {}", std::strerror(errno))), path);
  }
  int64_t mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  if (!S_ISREG(st.st_mode) || static_cast<uint64_t>(st.st_size) != placed.size || mtime_ns != placed.mtime_ns) return PlacedState::Changed;
  auto now = identify_file(path);
  if (!now) return std::move(now).error();
  return *now == placed ? PlacedState::Same : PlacedState::Changed;
}

}  // namespace cil::cli
