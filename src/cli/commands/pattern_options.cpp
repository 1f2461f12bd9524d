// Method and assembly patterns, checked in one place for every command.
#include "cli/commands/pattern_options.h"

#include <fmt/format.h>

#include "cli/common.h"
#include "instrument/runtime_contract.h"

namespace cil::cli {

bool take_patterns(std::string_view command, const cxxopts::ParseResult& args, const std::string& option,
                   std::vector<std::string>& out) {
  out.clear();
  if (!args.count(option)) return true;
  out = args[option].as<std::vector<std::string>>();
  for (const std::string& pattern : out)
    if (pattern.empty() || pattern.find(contract::kPatternSeparator) != std::string::npos ||
        pattern.find_first_of("\r\n") != std::string::npos) {
      print_usage_error(fmt::format("{}: --{} pattern '{}' is empty or contains '{}' or a line break", command, option, pattern,
                                    contract::kPatternSeparator));
      return false;
    }
  return true;
}

}  // namespace cil::cli
