// The one check of the method and assembly patterns every command takes (--include, --exclude,
// --method, --assemblies, --skip-assemblies), so that each refuses the same patterns with the
// same line.
#pragma once

#include <string_view>
#include <vector>
#include <string>

#include <cxxopts.hpp>

namespace cil::cli {

/// The patterns of `option` (without its dashes) in `args`, or none. A pattern that is empty, or
/// holds the profiler's separator (';', runtime_contract.h's kPatternSeparator) or a line break
/// (attach passes its settings as lines), would select nothing or be split on the way: the
/// first such pattern gets one usage error line naming `command` and the option, and the result
/// is false.
bool take_patterns(std::string_view command, const cxxopts::ParseResult& args, const std::string& option,
                   std::vector<std::string>& out);

}  // namespace cil::cli
