// What every command shares: exit codes, error and warning lines, and output to stdout.
#pragma once

#include <string>
#include <string_view>

#include <optional>

#include <cxxopts.hpp>

#include "cli/output/output_buffer.h"
#include "metadata/module.h"
#include "support/error.h"

namespace cil::cli {

/// Exit codes (documented in man/cil-instrument.1, EXIT STATUS).
enum ExitCode : int {
  kExitOk = 0,
  kExitDifferences = 1,  ///< diff: the inputs differ
  kExitUsage = 2,        ///< bad command line
  kExitBadInput = 3,     ///< an input cannot be read or is malformed
  kExitOutput = 4,       ///< an output cannot be written
  kExitRefused = 5,      ///< valid input the command will not process (e.g. mixed-mode)
  kExitThreshold = 6,    ///< report --threshold: coverage is under the threshold
  kExitInternal = 7,     ///< instrument: the output failed its self-check (a bug of the tool)
  kExitAttach = 8,       ///< attach: no such process, not .NET, another user's, refused, or no files
};

/// Longest error or warning line (man page, LIMITS); longer ones are cut and end in "...".
inline constexpr size_t kMaxDiagnosticLine = 4096;

/// `cil-instrument: KIND: FILE: MESSAGE` and a newline (no `FILE: ` when `file` is empty), with
/// the text escaped as md::printable does (a name from a file or the command line cannot move
/// the cursor, color the terminal or split the line), FILE cut at md::kMaxQuotedText bytes and
/// the line at kMaxDiagnosticLine. Every line the tool writes on stderr is made here.
std::string diagnostic_line(std::string_view kind, std::string_view file, std::string_view message);

/// `cil-instrument: error: FILE: structure: message (offset 0x...)` on stderr, FILE being the
/// file the error names (`cil-instrument: error: structure: ...` when it names none).
void print_error(const Error& error);
/// `cil-instrument: error: message` on stderr.
void print_usage_error(std::string_view message);
/// `cil-instrument: warning: FILE: message` on stderr.
void print_warning(std::string_view file, std::string_view message);
/// `n` and the noun that goes with it: "1 file", "2 files".
std::string plural(uint64_t n, std::string_view one, std::string_view many);
/// Exit code for an error about an input file.
int exit_code_for(const Error& error);
/// Prints `error` and returns its exit code: kExitOutput when it is about `output` (the file the
/// command writes, if any), otherwise exit_code_for.
int fail(const Error& error, std::string_view output = {});

/// "500ms", "30s", "2m", or a bare number of seconds, in milliseconds; nullopt when malformed or
/// zero (`attach --duration`, `run --start-after`, `--window`).
std::optional<uint64_t> parse_duration_ms(std::string_view text);

/// md::Module::load, with the error about `path`.
Expected<std::unique_ptr<md::Module>> load_module(const std::string& path);
/// Writes to stdout in one call. When stdout is broken (a full disk, a closed descriptor), says
/// so on stderr, `cil-instrument: error: cannot write to standard output: REASON`, followed by
/// `; ` and `after` when given, and returns false (the caller exits with kExitOutput).
bool write_stdout(std::string_view text, std::string_view after = {});
/// The same for a printer's output, written piece by piece.
bool write_stdout(const OutputBuffer& text, std::string_view after = {});

/// Parses a command's options. Returns the exit status when the command is already done: a
/// usage error (printed), or --help (help printed); nullopt when the command should run.
std::optional<int> parse_options(cxxopts::Options& options, int argc, char** argv, cxxopts::ParseResult& args);

}  // namespace cil::cli
