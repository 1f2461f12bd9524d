// Error and warning lines on stderr (escaped and capped), exit codes, standard output.
#include "cli/common.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

#include "metadata/text_encoding.h"

namespace cil::cli {

std::string plural(uint64_t n, std::string_view one, std::string_view many) { return fmt::format("{} {}", n, n == 1 ? one : many); }

std::string diagnostic_line(std::string_view kind, std::string_view file, std::string_view message) {
  std::string line = fmt::format("cil-instrument: {}: ", kind);
  if (!file.empty()) line += md::printable(file, md::kMaxQuotedText) + ": ";
  line += md::printable(message, kMaxDiagnosticLine > line.size() + 1 ? kMaxDiagnosticLine - line.size() - 1 : 0);
  line += '\n';
  return line;
}

void print_error(const Error& error) {
  std::string line = diagnostic_line("error", error.file, error.to_string());
  std::fwrite(line.data(), 1, line.size(), stderr);
}

void print_usage_error(std::string_view message) {
  std::string line = diagnostic_line("error", "", message) + "Try 'cil-instrument --help'.\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
}

void print_warning(std::string_view file, std::string_view message) {
  std::string line = diagnostic_line("warning", file, message);
  std::fwrite(line.data(), 1, line.size(), stderr);
}

int exit_code_for(const Error& error) {
  switch (error.kind) {
    case ErrorKind::Usage: return kExitUsage;
    case ErrorKind::Unsupported: return kExitRefused;
    default: return kExitBadInput;
  }
}

int fail(const Error& error, std::string_view output) {
  print_error(error);
  return !output.empty() && error.file == output ? kExitOutput : exit_code_for(error);
}

Expected<std::unique_ptr<md::Module>> load_module(const std::string& path) {
  auto module = md::Module::load(path);
  if (!module) return in_file(std::move(module).error(), path);
  return module;
}

namespace {

/// Says on stderr that stdout is broken (see write_stdout); returns false for the caller to pass on.
bool stdout_failed(int err, std::string_view after) {
  std::string message = "cannot write to standard output";
  if (err) message += fmt::format(": {}", std::strerror(err));
  if (!after.empty()) message += fmt::format("; {}", after);
  std::string line = diagnostic_line("error", "", message);
  std::fwrite(line.data(), 1, line.size(), stderr);
  return false;
}

}  // namespace

bool write_stdout(std::string_view text, std::string_view after) {
  errno = 0;
  if (std::fwrite(text.data(), 1, text.size(), stdout) == text.size() && std::fflush(stdout) == 0) return true;
  return stdout_failed(errno, after);
}

bool write_stdout(const OutputBuffer& text, std::string_view after) {
  errno = 0;
  for (const std::string& piece : text.pieces())
    if (std::fwrite(piece.data(), 1, piece.size(), stdout) != piece.size()) return stdout_failed(errno, after);
  if (std::fflush(stdout) == 0) return true;
  return stdout_failed(errno, after);
}

}  // namespace cil::cli

namespace cil::cli {

std::optional<int> parse_options(cxxopts::Options& options, int argc, char** argv, cxxopts::ParseResult& args) {
  try {
    args = options.parse(argc, argv);
  } catch (const cxxopts::exceptions::exception& e) {
    print_usage_error(e.what());
    return kExitUsage;
  }
  if (args.count("help")) return write_stdout(options.help()) ? kExitOk : kExitOutput;
  // Positional arguments beyond the command's are never silently dropped.
  if (!args.unmatched().empty()) {
    print_usage_error(fmt::format("unexpected argument '{}'", args.unmatched().front()));
    return kExitUsage;
  }
  return std::nullopt;
}

std::optional<uint64_t> parse_duration_ms(std::string_view text) {
  uint64_t scale = 1000;
  if (text.ends_with("ms")) scale = 1, text.remove_suffix(2);
  else if (text.ends_with("s")) text.remove_suffix(1);
  else if (text.ends_with("m")) scale = 60'000, text.remove_suffix(1);
  if (text.empty() || text.size() > 9) return std::nullopt;
  uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<uint64_t>(c - '0');
  }
  if (value == 0) return std::nullopt;
  return value * scale;
}

}  // namespace cil::cli
