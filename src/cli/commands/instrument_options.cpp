// Parsing the options instrument and exec share, and loading the hooks assembly of trace mode.
#include "cli/commands/instrument_options.h"

#include <fmt/format.h>

#include "cli/commands/pattern_options.h"
#include "cli/common.h"
#include "cli/jobs/interrupts.h"

namespace cil::cli {

namespace {

std::optional<instrument::Mode> parse_mode(const std::string& name) {
  if (name == "count") return instrument::Mode::Count;
  if (name == "noop") return instrument::Mode::Noop;
  if (name == "wrap") return instrument::Mode::Wrap;
  if (name == "trace") return instrument::Mode::Trace;
  if (name == "coverage") return instrument::Mode::Coverage;
  return std::nullopt;
}

std::optional<uint32_t> parse_rva(const std::string& text) {
  try {
    size_t used = 0;
    unsigned long value = std::stoul(text, &used, 0);
    if (used != text.size() || value > 0xFFFFFFFF) return std::nullopt;
    return static_cast<uint32_t>(value);
  } catch (...) {
    return std::nullopt;
  }
}

std::vector<std::string> strings(const cxxopts::ParseResult& args, const std::string& name) {
  return args.count(name) ? args[name].as<std::vector<std::string>>() : std::vector<std::string>{};
}

}  // namespace

void add_instrument_options(cxxopts::Options& options) {
  options.add_options()
      ("mode", "count (default), coverage, trace, noop or wrap", cxxopts::value<std::string>()->default_value("count"), "MODE")
      ("hooks", "trace mode: the assembly with the hook type", cxxopts::value<std::string>(), "HOOKS.dll")
      ("hook-type", "trace mode: the hook type, Namespace.Type (default: the one public type with hooks)", cxxopts::value<std::string>(), "TYPE")
      ("deps", "trace mode: the app's deps.json that gets the hooks assembly (default: each *.deps.json beside the output that lists it; none: leave them)",
       cxxopts::value<std::string>(), "FILE|none")
      ("include", "instrument only methods whose Ns.Type::Method matches (repeatable)", cxxopts::value<std::vector<std::string>>(), "PATTERN")
      ("exclude", "do not instrument methods that match (repeatable)", cxxopts::value<std::vector<std::string>>(), "PATTERN")
      ("method-rva", "instrument only the method whose body is at this RVA (repeatable)", cxxopts::value<std::vector<std::string>>(), "RVA")
      ("pdb", "the input's portable PDB (default: the embedded one, else IN.pdb beside the input); none: write no debug information", cxxopts::value<std::string>(), "PATH|none")
      ("exclude-by-file", "coverage mode: do not instrument methods whose source matches (repeatable)", cxxopts::value<std::vector<std::string>>(), "GLOB")
      ("exclude-by-attribute", "coverage mode: do not instrument methods and types with this attribute (repeatable; ExcludeFromCodeCoverage always)", cxxopts::value<std::vector<std::string>>(), "NAME")
      ("hit-counts", "coverage mode: count each line's and branch's hits exactly (default: hit or not, 1 or 0, with a cheaper probe)")
      ("key", "re-sign the strong-named output with this key pair (.snk); with --delay-sign, a public key will do", cxxopts::value<std::string>(), "FILE.snk")
      ("delay-sign", "leave the output delay-signed: StrongNameSigned set, signature space zero (sign it later with sn -R)")
      ("no-verify", "do not read the output back before it takes its name")
      ("assemblies", "several inputs: instrument only the assemblies whose file name matches (repeatable; default: all but the framework's and reference assemblies)", cxxopts::value<std::vector<std::string>>(), "GLOB")
      ("skip-assemblies", "several inputs: leave the assemblies whose file name matches (repeatable)", cxxopts::value<std::vector<std::string>>(), "GLOB")
      ("j,jobs", "several inputs: files instrumented at once (default: the number of cores)", cxxopts::value<std::string>(), "N")
      ("fail-fast", "several inputs: start no file after one has failed");
}

int parse_instrument_options(std::string_view command, const cxxopts::ParseResult& args, InstrumentParse& parsed) {
  BatchSetup& b = parsed.batch;
  InstrumentSetup& s = b.instrument;
  s.mode_name = args["mode"].as<std::string>();
  auto mode = parse_mode(s.mode_name);
  if (!mode) {
    print_usage_error(fmt::format("unknown mode '{}' (count, coverage, trace, noop or wrap)", s.mode_name));
    return kExitUsage;
  }
  s.options.mode = *mode;
  if (!take_patterns(command, args, "include", s.options.filter.include) || !take_patterns(command, args, "exclude", s.options.filter.exclude))
    return kExitUsage;
  for (const auto& text : strings(args, "method-rva")) {
    auto rva = parse_rva(text);
    if (!rva) {
      print_usage_error(fmt::format("--method-rva: '{}' is not an RVA", text));
      return kExitUsage;
    }
    s.options.method_rvas.push_back(*rva);
  }
  if (args.count("pdb")) s.pdb_arg = args["pdb"].as<std::string>();
  s.options.coverage.exclude_by_file = strings(args, "exclude-by-file");
  s.options.coverage.exclude_by_attribute = strings(args, "exclude-by-attribute");
  s.options.coverage.hit_counts = args.count("hit-counts") != 0;
  if ((args.count("exclude-by-file") || args.count("exclude-by-attribute") || args.count("hit-counts")) &&
      s.options.mode != instrument::Mode::Coverage) {
    print_usage_error("--exclude-by-file, --exclude-by-attribute and --hit-counts go with --mode coverage");
    return kExitUsage;
  }
  if (args.count("key")) s.key_path = args["key"].as<std::string>();
  s.delay_sign = args.count("delay-sign") != 0;
  s.verify = args.count("no-verify") == 0;
  if ((s.options.mode == instrument::Mode::Trace) != static_cast<bool>(args.count("hooks"))) {
    print_usage_error(s.options.mode == instrument::Mode::Trace ? "--mode trace needs --hooks HOOKS.dll" : "--hooks goes with --mode trace");
    return kExitUsage;
  }
  if (args.count("hooks")) b.hooks_path = s.hooks_path = args["hooks"].as<std::string>();
  if (args.count("deps")) {
    if (s.options.mode != instrument::Mode::Trace) {
      print_usage_error("--deps goes with --mode trace");
      return kExitUsage;
    }
    s.deps_arg = args["deps"].as<std::string>();
  }
  if (args.count("hook-type")) parsed.hook_type = args["hook-type"].as<std::string>();
  if (!take_patterns(command, args, "assemblies", b.filter.assemblies) ||
      !take_patterns(command, args, "skip-assemblies", b.filter.skip_assemblies))
    return kExitUsage;
  b.threads = default_jobs();
  if (args.count("jobs")) {
    auto jobs = parse_jobs(args["jobs"].as<std::string>());
    if (!jobs) {
      print_usage_error(fmt::format("-j: '{}' is not a number from 1 to {}", args["jobs"].as<std::string>(), kMaxWritingThreads));
      return kExitUsage;
    }
    b.threads = *jobs;
  }
  b.fail_fast = args.count("fail-fast") != 0;
  b.json = args.count("json") != 0;
  return kExitOk;
}

int load_hooks(InstrumentParse& parsed) {
  if (parsed.batch.hooks_path.empty()) return kExitOk;
  const std::string& hooks_path = parsed.batch.hooks_path;
  auto loaded = load_module(hooks_path);
  if (!loaded) return fail(loaded.error());
  parsed.hooks_module = std::move(*loaded);
  auto read = instrument::read_hook_contract(*parsed.hooks_module, parsed.hook_type);
  if (!read) return fail(in_file(read.error(), hooks_path));
  parsed.contract = std::move(*read);
  parsed.batch.instrument.options.hooks = &*parsed.contract;
  return kExitOk;
}

}  // namespace cil::cli
