// The options instrument and exec share: mode, hooks, method and assembly selection, -j, --json.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <cxxopts.hpp>

#include "cli/jobs/batch_instrument.h"
#include "instrument/hook_contract.h"
#include "metadata/module.h"

namespace cil::cli {

/// The parsed options, and the hooks assembly once loaded (keep this object in place: the
/// setup points into it).
struct InstrumentParse {
  BatchSetup batch;
  std::optional<std::string> hook_type;
  std::unique_ptr<md::Module> hooks_module;
  std::optional<instrument::HookContract> contract;
};

/// Adds the shared options (not -o, --json, --help nor the positional ones).
void add_instrument_options(cxxopts::Options& options);

/// Fills `parsed` from `args`; prints a usage error naming `command` (instrument, exec) where
/// one does, and returns kExitUsage on a bad value.
int parse_instrument_options(std::string_view command, const cxxopts::ParseResult& args, InstrumentParse& parsed);

/// Trace mode: loads the hooks assembly and reads its contract (prints the error on failure).
int load_hooks(InstrumentParse& parsed);

}  // namespace cil::cli
