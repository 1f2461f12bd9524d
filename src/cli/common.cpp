// Error and warning lines on stderr, exit codes.
#include "cli/common.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

namespace cil::cli {

void print_error(std::string_view file, const Error& error) {
  std::string line = fmt::format("cil-instrument: error: {}: {}\n", file, error.to_string());
  std::fwrite(line.data(), 1, line.size(), stderr);
}

void print_usage_error(std::string_view message) {
  std::string line = fmt::format("cil-instrument: error: {}\nTry 'cil-instrument --help'.\n", message);
  std::fwrite(line.data(), 1, line.size(), stderr);
}

void print_warning(std::string_view file, std::string_view message) {
  std::string line = fmt::format("cil-instrument: warning: {}: {}\n", file, message);
  std::fwrite(line.data(), 1, line.size(), stderr);
}

int exit_code_for(const Error& error) {
  switch (error.kind) {
    case ErrorKind::Usage: return kExitUsage;
    case ErrorKind::Unsupported: return kExitRefused;
    default: return kExitBadInput;
  }
}

bool write_stdout(std::string_view text, std::string_view after) {
  errno = 0;
  if (std::fwrite(text.data(), 1, text.size(), stdout) == text.size() && std::fflush(stdout) == 0) return true;
  int err = errno;
  std::string line = "cil-instrument: error: cannot write to standard output";
  if (err) line += fmt::format(": {}", std::strerror(err));
  if (!after.empty()) line += fmt::format("; {}", after);
  line += '\n';
  std::fwrite(line.data(), 1, line.size(), stderr);
  return false;
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
  return std::nullopt;
}

}  // namespace cil::cli
