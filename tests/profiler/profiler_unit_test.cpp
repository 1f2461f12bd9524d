// Unit tests of the profiler's parts that need no runtime: configuration, value text,
// statistics, the CLSID, and the count probe through the engine on real method bodies, against
// offline count mode's.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <string>

#include <fmt/format.h>

#include "il/body_model.h"
#include "profiler/attach_session.h"
#include "il/body_reader.h"
#include "il/instruction.h"
#include "instrument/instrumenter.h"
#include "il/method_body.h"
#include "il/offset_map.h"
#include "instrument/probes.h"
#include "metadata/module.h"
#include "metadata/runtime_refs.h"
#include "metadata/signature.h"
#include "profiler/arg_text.h"
#include "profiler/class_factory.h"
#include "profiler/config.h"
#include "profiler/framework_modules.h"
#include "profiler/probe_rewrite.h"
#include "profiler/rewrite_stats.h"
#include "instrument/runtime_contract.h"

using namespace cil;
using namespace cil::profiler;
using namespace cil::contract;

namespace {

EnvLookup env(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const char* name) -> const char* {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  };
}

}  // namespace

TEST(ProfilerConfig, Defaults) {
  auto config = read_config(env({}), "/work/dir");
  ASSERT_TRUE(config);
  EXPECT_EQ(config->mode, Mode::Count);
  EXPECT_EQ(config->output_dir, "/work/dir");
  EXPECT_TRUE(config->filter.include.empty());
  EXPECT_TRUE(config->stats_path.empty());
  EXPECT_FALSE(config->framework_selected);  // the framework only with CIL_INSTRUMENT_FRAMEWORK=1
}

TEST(ProfilerConfig, Modes) {
  EXPECT_EQ(read_config(env({{"CIL_INSTRUMENT_MODE", "events"}}), "/")->mode, Mode::Events);
  EXPECT_EQ(read_config(env({{"CIL_INSTRUMENT_MODE", "args"}}), "/")->mode, Mode::Args);
  EXPECT_EQ(read_config(env({{"CIL_INSTRUMENT_MODE", "count"}}), "/")->mode, Mode::Count);
  auto coverage = read_config(env({{"CIL_INSTRUMENT_MODE", "coverage"}}), "/");
  ASSERT_TRUE(coverage);
  EXPECT_EQ(coverage->mode, Mode::Coverage);
  EXPECT_FALSE(coverage->framework_selected);
  auto bad = read_config(env({{"CIL_INSTRUMENT_MODE", "fast"}}), "/");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "CIL_INSTRUMENT_MODE: unknown mode 'fast' (count, events, args, coverage or trace)");
}

TEST(ProfilerConfig, TraceNeedsHooks) {
  auto bare = read_config(env({{"CIL_INSTRUMENT_MODE", "trace"}}), "/");
  ASSERT_FALSE(bare);
  EXPECT_EQ(bare.error().message, "CIL_INSTRUMENT_HOOKS is not set: trace mode needs the hooks assembly");
  auto trace = read_config(env({{"CIL_INSTRUMENT_MODE", "trace"}, {"CIL_INSTRUMENT_HOOKS", "/opt/h/Hooks.dll"},
                                {"CIL_INSTRUMENT_HOOK_TYPE", "My.Hooks"}}),
                           "/");
  ASSERT_TRUE(trace);
  EXPECT_EQ(trace->mode, Mode::Trace);
  EXPECT_EQ(trace->hooks_path, "/opt/h/Hooks.dll");
  EXPECT_EQ(trace->hook_type, "My.Hooks");
  // Another mode ignores the hooks.
  EXPECT_EQ(read_config(env({{"CIL_INSTRUMENT_HOOKS", "/opt/h/Hooks.dll"}}), "/")->hooks_path, "");
}

TEST(ProfilerConfig, FiltersOutputStats) {
  auto config = read_config(env({{"CIL_INSTRUMENT_INCLUDE", "App.*; Lib.*::Run ;"},
                                 {"CIL_INSTRUMENT_EXCLUDE", "*::.cctor"},
                                 {"CIL_INSTRUMENT_OUTPUT", "/tmp/out//"},
                                 {"CIL_INSTRUMENT_STATS", "/tmp/stats.jsonl"}}),
                            "/ignored");
  ASSERT_TRUE(config);
  EXPECT_EQ(config->filter.include, (std::vector<std::string>{"App.*", "Lib.*::Run"}));
  EXPECT_EQ(config->filter.exclude, (std::vector<std::string>{"*::.cctor"}));
  EXPECT_EQ(config->output_dir, "/tmp/out");
  EXPECT_EQ(config->stats_path, "/tmp/stats.jsonl");
  EXPECT_FALSE(config->framework_selected);
  EXPECT_TRUE(config->filter.selects("App.Program::Main"));
  EXPECT_FALSE(config->filter.selects("App.Program::.cctor"));
  EXPECT_FALSE(config->filter.selects("Lib.X::Stop"));
}

TEST(ProfilerConfig, SplitPatterns) {
  EXPECT_TRUE(split_patterns("").empty());
  EXPECT_TRUE(split_patterns(" ; ;").empty());
  EXPECT_EQ(split_patterns("a;b"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(split_patterns("\tNs.* "), (std::vector<std::string>{"Ns.*"}));
}

TEST(ProfilerConfig, FrameworkSelection) {
  // Only the flag selects the framework; patterns that look like framework names do not.
  EXPECT_FALSE(read_config(env({{"CIL_INSTRUMENT_INCLUDE", "System.*;Microsoft.*"}}), "/")->framework_selected);
  EXPECT_TRUE(read_config(env({{"CIL_INSTRUMENT_FRAMEWORK", "1"}}), "/")->framework_selected);
  EXPECT_FALSE(read_config(env({{"CIL_INSTRUMENT_FRAMEWORK", "0"}}), "/")->framework_selected);
}

TEST(ProfilerConfig, HitCounts) {
  // Coverage probes store 1 unless CIL_INSTRUMENT_HIT_COUNTS is 1 (run and attach --hit-counts).
  EXPECT_FALSE(read_config(env({}), "/")->hit_counts);
  EXPECT_TRUE(read_config(env({{"CIL_INSTRUMENT_HIT_COUNTS", "1"}}), "/")->hit_counts);
  EXPECT_FALSE(read_config(env({{"CIL_INSTRUMENT_HIT_COUNTS", "0"}}), "/")->hit_counts);
  EXPECT_FALSE(read_config(env({{"CIL_INSTRUMENT_HIT_COUNTS", "yes"}}), "/")->hit_counts);
}

TEST(ProfilerConfig, AssembliesAndSourceRoot) {
  auto none = read_config(env({}), "/");
  EXPECT_TRUE(none->assemblies.empty());
  EXPECT_TRUE(none->source_root.empty());
  auto config = read_config(env({{"CIL_INSTRUMENT_ASSEMBLIES", "App*.dll; Lib.dll"},
                                 {"CIL_INSTRUMENT_SKIP_ASSEMBLIES", "*.Tests.dll"},
                                 {"CIL_INSTRUMENT_SOURCE_ROOT", "/src/repo//"}}),
                            "/");
  ASSERT_TRUE(config);
  EXPECT_EQ(config->assemblies.assemblies, (std::vector<std::string>{"App*.dll", "Lib.dll"}));
  EXPECT_TRUE(config->assemblies.selects("/bin/Lib.dll"));
  EXPECT_FALSE(config->assemblies.selects("/bin/App.Tests.dll"));
  EXPECT_FALSE(config->assemblies.selects("/bin/xunit.core.dll"));
  EXPECT_EQ(config->source_root, "/src/repo");
  EXPECT_EQ(read_config(env({{"CIL_INSTRUMENT_SOURCE_ROOT", "/"}}), "/")->source_root, "/");
  auto relative = read_config(env({{"CIL_INSTRUMENT_SOURCE_ROOT", "src"}}), "/");
  ASSERT_FALSE(relative);
  EXPECT_EQ(relative.error().message, "CIL_INSTRUMENT_SOURCE_ROOT: 'src' is not an absolute path");
}

TEST(FrameworkModules, ByLocation) {
  const std::string shared = "/usr/share/dotnet/shared/Microsoft.NETCore.App/10.0.12";
  EXPECT_TRUE(framework_module("/usr/share/dotnet/shared/Microsoft.NETCore.App/10.0.12/System.Private.CoreLib.dll", shared));
  EXPECT_TRUE(framework_module("/usr/share/dotnet/shared/Microsoft.AspNetCore.App/10.0.12/Microsoft.AspNetCore.dll", shared));
  EXPECT_FALSE(framework_module("/home/me/app/bin/Microsoft.Extensions.Logging.dll", shared));  // a package, not the framework
  EXPECT_FALSE(framework_module("/home/me/app/bin/System.Text.Json.dll", shared));
  EXPECT_FALSE(framework_module("", shared));  // loaded from bytes, dynamic
  EXPECT_FALSE(framework_module("/usr/share/dotnet/shared/x.dll", ""));
  // Self-contained: the runtime in the app's folder; framework names there, nothing else.
  const std::string app = "/opt/app";
  EXPECT_TRUE(framework_module("/opt/app/System.Runtime.dll", app));
  EXPECT_TRUE(framework_module("/opt/app/mscorlib.dll", app));
  EXPECT_FALSE(framework_module("/opt/app/MyApp.dll", app));
  EXPECT_FALSE(framework_module("/opt/app/plugins/System.Foo.dll", app));
  EXPECT_FALSE(framework_module("/opt/application/System.Runtime.dll", app));
}

TEST(ProfilerConfig, OutputDirectory) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / fmt::format("cil-profiler-test-{}", ::getpid());
  fs::create_directories(dir);
  EXPECT_TRUE(check_output_dir(dir.string()));
  fs::path file = dir / "plain-file";
  std::FILE* f = std::fopen(file.c_str(), "w");
  ASSERT_TRUE(f);
  std::fclose(f);
  auto not_dir = check_output_dir(file.string());
  ASSERT_FALSE(not_dir);
  EXPECT_EQ(not_dir.error().message, fmt::format("CIL_INSTRUMENT_OUTPUT: '{}' is not a directory", file.string()));
  EXPECT_FALSE(check_output_dir((dir / "missing").string()));
  fs::remove_all(dir);
}

TEST(ProfilerArgText, Primitives) {
  auto text = [](md::ElementType e, auto value) {
    uint8_t bytes[sizeof(value)];
    std::memcpy(bytes, &value, sizeof(value));
    return primitive_text(e, bytes, sizeof(value)).value_or("<none>");
  };
  using md::ElementType;
  EXPECT_EQ(text(ElementType::Boolean, uint8_t{1}), "true");
  EXPECT_EQ(text(ElementType::Boolean, uint8_t{0}), "false");
  EXPECT_EQ(text(ElementType::Char, char16_t{'x'}), "'x'");
  EXPECT_EQ(text(ElementType::Char, char16_t{'\n'}), "'\\n'");
  EXPECT_EQ(text(ElementType::Char, char16_t{'\''}), "'\\''");
  EXPECT_EQ(text(ElementType::Char, char16_t{0x00E9}), "'\xC3\xA9'");
  EXPECT_EQ(text(ElementType::I1, int8_t{-128}), "-128");
  EXPECT_EQ(text(ElementType::U1, uint8_t{255}), "255");
  EXPECT_EQ(text(ElementType::I2, int16_t{-300}), "-300");
  EXPECT_EQ(text(ElementType::U2, uint16_t{65535}), "65535");
  EXPECT_EQ(text(ElementType::I4, int32_t{-1}), "-1");
  EXPECT_EQ(text(ElementType::U4, uint32_t{4000000000u}), "4000000000");
  EXPECT_EQ(text(ElementType::I8, int64_t{-5000000000}), "-5000000000");
  EXPECT_EQ(text(ElementType::U8, uint64_t{18446744073709551615ull}), "18446744073709551615");
  EXPECT_EQ(text(ElementType::R8, 1.5), "1.5");
  EXPECT_EQ(text(ElementType::R8, 0.1), "0.1");
  EXPECT_EQ(text(ElementType::R4, 0.25f), "0.25");
  EXPECT_EQ(text(ElementType::R8, std::numeric_limits<double>::infinity()), "Infinity");
  EXPECT_EQ(text(ElementType::R8, -std::numeric_limits<double>::infinity()), "-Infinity");
  EXPECT_EQ(text(ElementType::R8, std::nan("")), "NaN");
  EXPECT_EQ(text(ElementType::I, int64_t{42}), "42");
  // Too few bytes, or not a primitive.
  uint8_t one = 1;
  EXPECT_FALSE(primitive_text(ElementType::I4, &one, 1));
  EXPECT_FALSE(primitive_text(ElementType::String, &one, 1));
}

TEST(ProfilerArgText, Strings) {
  EXPECT_EQ(string_literal(u"text"), "\"text\"");
  EXPECT_EQ(string_literal(u""), "\"\"");
  EXPECT_EQ(string_literal(u"tab\there \"q\" \\ \r\n"), "\"tab\\there \\\"q\\\" \\\\ \\r\\n\"");
  EXPECT_EQ(string_literal(std::u16string(u"\u0001")), "\"\\u0001\"");
  EXPECT_EQ(string_literal(u"caf\u00e9 \U0001F600"), "\"caf\xC3\xA9 \xF0\x9F\x98\x80\"");
  EXPECT_EQ(string_literal(std::u16string(1, char16_t(0xD800))), "\"\\uD800\"");  // a lone surrogate
  std::u16string long_text(kMaxStringChars + 50, u'a');
  EXPECT_EQ(string_literal(long_text), "\"" + std::string(kMaxStringChars, 'a') + "\"...");
  EXPECT_EQ(string_literal(std::u16string(kMaxStringChars, u'b')), "\"" + std::string(kMaxStringChars, 'b') + "\"");
}

TEST(ProfilerArgText, PrimitiveNames) {
  EXPECT_EQ(primitive_of("System.Int32"), md::ElementType::I4);
  EXPECT_EQ(primitive_of("System.Double"), md::ElementType::R8);
  EXPECT_EQ(primitive_of("System.IntPtr"), md::ElementType::I);
  EXPECT_FALSE(primitive_of("System.String"));
  EXPECT_FALSE(primitive_of("System.Int128"));
}

TEST(ProfilerStats, Percentiles) {
  std::vector<double> none;
  EXPECT_EQ(summarize(none).count, 0u);
  std::vector<double> samples;
  for (int i = 100; i >= 1; --i) samples.push_back(i);
  StatsSummary s = summarize(samples);
  EXPECT_EQ(s.count, 100u);
  EXPECT_DOUBLE_EQ(s.median, 50);
  EXPECT_DOUBLE_EQ(s.p99, 99);
  EXPECT_DOUBLE_EQ(s.max, 100);
  EXPECT_DOUBLE_EQ(s.total, 5050);
  std::vector<double> one{7};
  s = summarize(one);
  EXPECT_DOUBLE_EQ(s.median, 7);
  EXPECT_DOUBLE_EQ(s.p99, 7);
}

TEST(ProfilerStats, JsonLine) {
  RewriteStats stats;
  stats.rewritten(10);
  stats.rewritten(30);
  stats.passed(1);
  EXPECT_EQ(stats.json_line(42, "count"),
            "{\"pid\": 42, \"mode\": \"count\", \"rewritten\": {\"count\": 2, \"total_us\": 40.0, \"median_us\": 10.00, "
            "\"p99_us\": 30.00, \"max_us\": 30.00}, \"passed\": {\"count\": 1, \"total_us\": 1.0, \"median_us\": 1.00, "
            "\"p99_us\": 1.00, \"max_us\": 1.00}}");
}

TEST(ProfilerClsid, TextMatchesGuid) {
  const auto& g = kClsid;
  std::string text = fmt::format("{{{:08X}-{:04X}-{:04X}-{:02X}{:02X}-{:02X}{:02X}{:02X}{:02X}{:02X}{:02X}}}", g.Data1,
                                 g.Data2, g.Data3, g.Data4[0], g.Data4[1], g.Data4[2], g.Data4[3], g.Data4[4], g.Data4[5],
                                 g.Data4[6], g.Data4[7]);
  EXPECT_EQ(text, kClsidText);
}

namespace {

/// A module's metadata as the profiler's sink sees it, in memory: either the core library (it
/// defines System.Object and Interlocked.Increment) or a module that references System.Runtime.
/// It records what it is asked to add, so that the probe's callee is resolved through
/// RuntimeRefs as the profiler resolves it, and the signature it is given is the one it hands back.
/// A token given as `fixed` (a MemberRef read from an offline output) answers Increment's
/// signature without being resolved first.
class IncrementSink final : public md::MetadataSink {
 public:
  static constexpr md::Token kIncrement{0x0A000099};     ///< the MemberRef it adds
  static constexpr md::Token kIncrementDef{0x06000042};  ///< the core library's own method
  static constexpr md::Token kAddedRef{0x23000010}, kTypeRef{0x01000020}, kInterlockedDef{0x02000010};

  explicit IncrementSink(bool core_library = false, md::Token fixed = kIncrement) : fixed_(fixed), core_(core_library) {}

  Expected<md::Token> assembly_ref(const md::AssemblyRefSpec& spec) override {
    added_refs.push_back(spec);
    return kAddedRef;
  }
  Expected<md::Token> type_ref(md::Token scope, std::string_view ns, std::string_view name) override {
    type_refs.push_back({scope, std::string(ns) + "." + std::string(name)});
    return kTypeRef;
  }
  Expected<md::Token> member_ref(md::Token parent, std::string_view name, std::span<const uint8_t> signature) override {
    if (parent != kTypeRef || name != "Increment") return refuse();
    signature_.assign(signature.begin(), signature.end());
    return kIncrement;
  }
  Expected<md::Token> type_spec(std::span<const uint8_t>) override { return refuse(); }
  Expected<md::Token> method_spec(md::Token, std::span<const uint8_t>) override { return refuse(); }
  Expected<md::Token> standalone_sig(std::span<const uint8_t>) override { return refuse(); }
  Expected<md::Token> user_string(std::u16string_view) override { return refuse(); }
  Expected<std::vector<uint8_t>> signature_of(md::Token token) override {
    if ((token == kIncrement || token == kIncrementDef) && !signature_.empty()) return signature_;
    if (token == fixed_) return std::vector<uint8_t>{0x00, 0x01, 0x0A, 0x10, 0x0A};  // int64 (int64&)
    return refuse();
  }
  Expected<std::string> assembly_name() override { return std::string(core_ ? "System.Private.CoreLib" : "App"); }
  Expected<md::Token> find_assembly_ref(std::string_view name) override {
    return md::Token{!core_ && name == "System.Runtime" ? 0x23000001u : 0u};
  }
  Expected<md::Token> find_type_def(std::string_view ns, std::string_view name) override {
    if (!core_) return md::Token{0};
    if (ns == "System" && name == "Object") return md::Token{0x02000002};
    if (ns == "System.Threading" && name == "Interlocked") return kInterlockedDef;
    return md::Token{0};
  }
  Expected<md::Token> find_member_def(md::Token type, std::string_view name, std::span<const uint8_t> signature) override {
    if (!core_ || type != kInterlockedDef || name != "Increment") return md::Token{0};
    signature_.assign(signature.begin(), signature.end());
    return kIncrementDef;
  }

  std::vector<md::AssemblyRefSpec> added_refs;
  std::vector<std::pair<md::Token, std::string>> type_refs;

 private:
  md::Token fixed_;
  static Error refuse() { return make_error(ErrorKind::Unsupported, "test sink", "not available"); }
  bool core_;
  std::vector<uint8_t> signature_;
};

}  // namespace

TEST(ProfilerProbe, ProbeDepthIsOne) {
  IncrementSink sink;
  il::CallEffects effects(sink);
  auto depth = instrument::probe_max_stack(native_counter(0), IncrementSink::kIncrement, effects);
  ASSERT_TRUE(depth) << depth.error().to_string();
  EXPECT_EQ(*depth, 1);
  auto offline = instrument::probe_max_stack(instrument::CounterRef{md::Token(0x04000001), md::Token(), 7, 0}, IncrementSink::kIncrement, effects);
  ASSERT_TRUE(offline) << offline.error().to_string();
  EXPECT_EQ(*offline, 2);  // ldsfld, ldc.i4
}

// The profiler resolves the probe's callee through RuntimeRefs, as offline count mode does: a
// MemberRef on [System.Private.CoreLib]System.Threading.Interlocked in a module that references
// System.Runtime, the definition itself in the core library; int64 (int64&) either way, and the
// probe is one deep.
TEST(ProfilerProbe, IncrementThroughRuntimeRefs) {
  for (bool core : {false, true}) {
    SCOPED_TRACE(core ? "core library" : "System.Runtime reference");
    IncrementSink sink(core);
    auto refs = md::RuntimeRefs::create(sink);
    ASSERT_TRUE(refs) << refs.error().to_string();
    EXPECT_EQ(refs->self(), core);
    auto increment = instrument::resolve_increment(*refs);
    ASSERT_TRUE(increment) << increment.error().to_string();
    EXPECT_EQ(*increment, core ? IncrementSink::kIncrementDef : IncrementSink::kIncrement);
    if (core) {
      EXPECT_TRUE(sink.added_refs.empty());
      EXPECT_TRUE(sink.type_refs.empty());
    } else {
      ASSERT_EQ(sink.added_refs.size(), 1u);
      EXPECT_EQ(sink.added_refs[0].name, "System.Private.CoreLib");
      EXPECT_EQ(sink.added_refs[0].public_key_token.size(), 8u);
      ASSERT_EQ(sink.type_refs.size(), 1u);
      EXPECT_EQ(sink.type_refs[0].first, IncrementSink::kAddedRef);
      EXPECT_EQ(sink.type_refs[0].second, "System.Threading.Interlocked");
    }
    auto signature = sink.signature_of(*increment);
    ASSERT_TRUE(signature);
    auto sig = md::decode_method_sig(ByteReader(*signature, 0, "Increment signature"));
    ASSERT_TRUE(sig) << sig.error().to_string();
    EXPECT_FALSE(sig->has_this());
    EXPECT_EQ(sig->return_type.element, md::ElementType::I8);
    ASSERT_EQ(sig->params.size(), 1u);
    EXPECT_EQ(sig->params[0].element, md::ElementType::ByRef);
    EXPECT_EQ(sig->params[0].children.at(0).element, md::ElementType::I8);
    il::CallEffects effects(sink);
    auto depth = instrument::probe_max_stack(native_counter(0), *increment, effects);
    ASSERT_TRUE(depth) << depth.error().to_string();
    EXPECT_EQ(*depth, 1);
  }
}

// A module that references no core library: the profiler's set-up fails with RuntimeRefs' reason.
TEST(ProfilerProbe, NoCoreLibrary) {
  class NoCoreSink final : public md::MetadataSink {
   public:
    Expected<md::Token> assembly_ref(const md::AssemblyRefSpec&) override { return md::Token{0}; }
    Expected<md::Token> type_ref(md::Token, std::string_view, std::string_view) override { return md::Token{0}; }
    Expected<md::Token> member_ref(md::Token, std::string_view, std::span<const uint8_t>) override { return md::Token{0}; }
    Expected<md::Token> type_spec(std::span<const uint8_t>) override { return md::Token{0}; }
    Expected<md::Token> method_spec(md::Token, std::span<const uint8_t>) override { return md::Token{0}; }
    Expected<md::Token> standalone_sig(std::span<const uint8_t>) override { return md::Token{0}; }
    Expected<md::Token> user_string(std::u16string_view) override { return md::Token{0}; }
    Expected<std::vector<uint8_t>> signature_of(md::Token) override { return std::vector<uint8_t>{}; }
    Expected<std::string> assembly_name() override { return std::string("Lonely"); }
    Expected<md::Token> find_assembly_ref(std::string_view) override { return md::Token{0}; }
    Expected<md::Token> find_type_def(std::string_view, std::string_view) override { return md::Token{0}; }
    Expected<md::Token> find_member_def(md::Token, std::string_view, std::span<const uint8_t>) override { return md::Token{0}; }
  } sink;
  auto refs = md::RuntimeRefs::create(sink);
  ASSERT_FALSE(refs);
  EXPECT_NE(refs.error().to_string().find("references none of"), std::string::npos) << refs.error().to_string();
}

// Every IL body of the fixtures (release and debug C#, hand-written IL with tiny/fat headers,
// fat EH sections, filters and faults), as GetILFunctionBody would hand it over (header to the end
// of the EH sections), gets the probe first and keeps its own code, clauses and locals.
TEST(ProfilerProbe, EveryFixtureBody) {
  constexpr uint64_t kCounter = 0x00007F1122334450ull;
  size_t bodies = 0;
  for (const char* name : {"Basics.dll", "Exceptions.dll", "Control.dll", "Generics.dll", "AsyncIter.dll",
                           "debug/Exceptions.dll", "debug/AsyncIter.dll", "il/IlEh.exe", "il/IlOps.exe",
                           "il/IlHeaders.exe", "mono/MonoMisc.exe"}) {
    auto module = md::Module::load(std::string(CIL_TESTDATA_DIR) + "/bin/" + name);
    ASSERT_TRUE(module) << name << ": " << module.error().to_string();
    const md::Module& m = **module;
    for (uint32_t rid = 1; rid <= m.tables().rows(md::TableId::MethodDef); ++rid) {
      if (!il::has_il_body(m, md::MethodDefId(rid))) continue;
      auto original = il::read_body(m, md::MethodDefId(rid));
      ASSERT_TRUE(original);
      std::span<const uint8_t> bytes = m.bytes().subspan(original->file_offset, original->total_size);
      auto rewritten = add_entry_probe(bytes, native_counter(kCounter), IncrementSink::kIncrement, 1);
      ASSERT_TRUE(rewritten) << name << " rid " << rid << ": " << rewritten.error().to_string();
      auto body = il::parse_method_body(ByteReader(rewritten->bytes, 0, "rewritten body"));
      ASSERT_TRUE(body) << body.error().to_string();
      EXPECT_EQ(body->total_size, rewritten->bytes.size());
      auto code = il::decode_code(body->code, 0);
      auto old_code = il::decode_code(original->code, 0);
      ASSERT_TRUE(code && old_code);
      const auto& in = code->instructions;
      ASSERT_EQ(in.size(), old_code->instructions.size() + 4);
      EXPECT_EQ(in[0].op, il::Op::Ldc_I8);
      EXPECT_EQ(static_cast<uint64_t>(in[0].value), kCounter);
      EXPECT_EQ(in[1].op, il::Op::Conv_U);
      EXPECT_EQ(in[2].op, il::Op::Call);
      EXPECT_EQ(in[2].value, int64_t{IncrementSink::kIncrement.value()});
      EXPECT_EQ(in[3].op, il::Op::Pop);
      for (size_t i = 0; i < old_code->instructions.size(); ++i) {
        // Short branches may widen; everything else is the same instruction.
        const auto& a = old_code->instructions[i];
        const auto& b = in[i + 4];
        bool branch = a.info().operand == il::Operand::ShortBr || a.info().operand == il::Operand::Br;
        if (branch) continue;
        EXPECT_EQ(a.op, b.op) << name << " rid " << rid << " instruction " << i;
        if (a.op != il::Op::Switch) {
          EXPECT_EQ(a.value, b.value) << name << " rid " << rid << " instruction " << i;
        }
      }
      EXPECT_EQ(body->clauses.size(), original->clauses.size());
      EXPECT_EQ(body->local_sig_token, original->local_sig_token);
      EXPECT_EQ(body->init_locals(), original->init_locals());
      EXPECT_GE(body->max_stack, std::max<uint16_t>(original->max_stack, 1));
      // The map SetILInstrumentedCodeMap gets: every original instruction to where it now starts
      // (after the probe), then the end of the code; the probe itself precedes the first entry.
      std::vector<cilprof::COR_IL_MAP> map = instrumented_code_map(rewritten->map);
      ASSERT_EQ(map.size(), old_code->instructions.size() + 1) << name << " rid " << rid;
      for (size_t i = 0; i < old_code->instructions.size(); ++i) {
        EXPECT_EQ(map[i].oldOffset, old_code->instructions[i].offset) << name << " rid " << rid << " entry " << i;
        EXPECT_EQ(map[i].newOffset, in[i + 4].offset) << name << " rid " << rid << " entry " << i;
        EXPECT_EQ(map[i].fAccurate, cilprof::TRUE);
      }
      EXPECT_EQ(map.front().oldOffset, 0u);
      EXPECT_EQ(map.front().newOffset, in[4].offset);
      EXPECT_EQ(map.back().oldOffset, original->code_size);
      EXPECT_EQ(map.back().newOffset, body->code_size);
      ++bodies;
    }
  }
  EXPECT_GT(bodies, 300u);
}

namespace {

/// Bytes of the probe at the start of a body (its first `count` instructions).
uint32_t probe_size(const il::MethodBody& body, const il::DecodedCode& code, size_t count) {
  return count < code.instructions.size() ? code.instructions[count].offset : body.code_size;
}

}  // namespace

// Offline count mode (il::instrument) and the profiler give every fixture body the same bytes and
// the same offset map when the probe names the same counter: the profiler gets the original body
// as GetILFunctionBody hands it over, the counter of the slot offline count mode gave the method,
// and that probe's depth. With the profiler's own counter (a native address: ldc.i8 + conv.u in
// place of ldsfld + ldc.i4 + ldelema) the difference is exactly the probe: the original code has
// the same bytes after it, every map entry and clause moves by the difference of the two probes'
// sizes, and the header follows the encoder's rules for the new size and depth.
TEST(ProfilerProbe, SameBodyAndMapAsOfflineCountMode) {
  constexpr uint64_t kCounter = 0x00007F1122334450ull;
  size_t files = 0, bodies = 0;
  for (const auto& file : std::filesystem::recursive_directory_iterator(std::string(CIL_TESTDATA_DIR) + "/bin")) {
    std::string ext = file.path().extension().string();
    if (!file.is_regular_file() || (ext != ".dll" && ext != ".exe")) continue;
    std::string name = file.path().string();
    auto module = md::Module::load(name);
    ASSERT_TRUE(module) << name << ": " << module.error().to_string();
    const md::Module& m = **module;
    std::map<uint32_t, il::OffsetMap> maps;
    instrument::InstrumentOptions options;
    options.mode = instrument::Mode::Count;
    options.on_rewritten = [&](md::MethodDefId method, const il::OffsetMap& map) { maps.emplace(method.value(), map); };
    auto report = instrument::instrument_module(m, options);
    ASSERT_TRUE(report) << name << ": " << report.error().to_string();
    std::vector<uint8_t> image = report->output.flatten();
    auto out = md::Module::parse(image);
    ASSERT_TRUE(out) << name << ": " << out.error().to_string();
    ASSERT_EQ(maps.size(), report->instrumented.size()) << name;
    ++files;
    for (size_t slot = 0; slot < report->instrumented.size(); ++slot) {
      uint32_t rid = report->instrumented[slot].value();
      SCOPED_TRACE(fmt::format("{} MethodDef 0x{:08X}", name, md::make_token(md::TableId::MethodDef, rid)));
      auto original = il::read_body(m, md::MethodDefId(rid));
      auto probed = il::read_body(**out, md::MethodDefId(rid));
      ASSERT_TRUE(original && probed);
      auto probed_code = il::decode_code(probed->code, 0);
      ASSERT_TRUE(probed_code);
      const auto& in = probed_code->instructions;
      ASSERT_GE(in.size(), 5u);
      ASSERT_EQ(in[0].op, il::Op::Ldsfld);
      // A pointer (add) or, in mscorlib-based modules, an int64[] element (ldelema Int64).
      bool array = in[2].op == il::Op::Ldelema;
      ASSERT_TRUE(array || in[2].op == il::Op::Add);
      ASSERT_EQ(in[3].op, il::Op::Call);
      ASSERT_EQ(in[4].op, il::Op::Pop);
      md::Token increment = static_cast<md::Token>(in[3].value);
      instrument::CounterRef counter{static_cast<md::Token>(in[0].value), array ? static_cast<md::Token>(in[2].value) : md::Token(),
                             static_cast<uint32_t>(slot), 0};
      IncrementSink sink(false, increment);
      il::CallEffects effects(sink);
      auto depth = instrument::probe_max_stack(counter, increment, effects);
      ASSERT_TRUE(depth) << depth.error().to_string();

      std::span<const uint8_t> input = m.bytes().subspan(original->file_offset, original->total_size);
      std::span<const uint8_t> offline = (*out)->bytes().subspan(probed->file_offset, probed->total_size);
      auto same = add_entry_probe(input, counter, increment, *depth);
      ASSERT_TRUE(same) << same.error().to_string();
      EXPECT_TRUE(std::equal(same->bytes.begin(), same->bytes.end(), offline.begin(), offline.end()));
      const il::OffsetMap& offline_map = maps.at(rid);
      EXPECT_EQ(same->map, offline_map);

      auto native_depth = instrument::probe_max_stack(native_counter(kCounter), increment, effects);
      ASSERT_TRUE(native_depth);
      auto native = add_entry_probe(input, native_counter(kCounter), increment, *native_depth);
      ASSERT_TRUE(native) << native.error().to_string();
      auto native_body = il::parse_method_body(ByteReader(native->bytes, 0, "native-probed body"));
      ASSERT_TRUE(native_body);
      auto native_code = il::decode_code(native_body->code, 0);
      ASSERT_TRUE(native_code);
      ASSERT_GE(native_code->instructions.size(), 4u);
      EXPECT_EQ(native_code->instructions[0].op, il::Op::Ldc_I8);
      EXPECT_EQ(static_cast<uint64_t>(native_code->instructions[0].value), kCounter);
      uint32_t native_size = probe_size(*native_body, *native_code, 4), offline_size = probe_size(*probed, *probed_code, 5);
      int64_t delta = int64_t{native_size} - offline_size;
      EXPECT_TRUE(std::equal(native_body->code.begin() + native_size, native_body->code.end(),
                             probed->code.begin() + offline_size, probed->code.end()));
      ASSERT_EQ(native->map.entries().size(), offline_map.entries().size());
      EXPECT_EQ(int64_t{native->map.new_code_size()}, offline_map.new_code_size() + delta);
      for (size_t k = 0; k < offline_map.entries().size(); ++k) {
        EXPECT_EQ(native->map.entries()[k].old_offset, offline_map.entries()[k].old_offset);
        EXPECT_EQ(int64_t{native->map.entries()[k].new_offset}, offline_map.entries()[k].new_offset + delta);
      }
      ASSERT_EQ(native_body->clauses.size(), probed->clauses.size());
      for (size_t k = 0; k < probed->clauses.size(); ++k) {
        const il::ExceptionClause &a = native_body->clauses[k], &b = probed->clauses[k];
        EXPECT_EQ(int64_t{a.try_offset}, b.try_offset + delta);
        EXPECT_EQ(int64_t{a.handler_offset}, b.handler_offset + delta);
        EXPECT_EQ(a.try_length, b.try_length);
        EXPECT_EQ(a.handler_length, b.handler_length);
        EXPECT_EQ(a.kind, b.kind);
        if (a.kind == il::ClauseKind::Filter) EXPECT_EQ(int64_t{a.filter_offset}, b.filter_offset + delta);
        else EXPECT_EQ(a.class_token, b.class_token);
      }
      EXPECT_EQ(native_body->local_sig_token, probed->local_sig_token);
      EXPECT_EQ(native_body->init_locals(), probed->init_locals());
      uint16_t native_stack = std::max(original->max_stack, *native_depth);
      bool tiny = native_body->code_size <= il::kTinyMaxCodeSize && native_stack <= il::kTinyMaxStack &&
                  !original->local_sig_token && original->clauses.empty() && !original->init_locals();
      EXPECT_EQ(native_body->fat, !tiny);
      EXPECT_EQ(native_body->max_stack, tiny ? il::kTinyMaxStack : native_stack);
      ++bodies;
    }
  }
  EXPECT_GE(files, 30u);
  EXPECT_GT(bodies, 700u);
}

// `attach`: the client data's NAME=VALUE lines give the configuration and the session's settings.
TEST(AttachData, Settings) {
  auto read = cil::profiler::read_attach_data(
      "CIL_INSTRUMENT_MODE=coverage\nCIL_INSTRUMENT_OUTPUT=/tmp/\nCIL_INSTRUMENT_INCLUDE=A.*;B::C\n"
      "CIL_INSTRUMENT_ASSEMBLIES=Lib.dll\nCIL_INSTRUMENT_SKIP_ASSEMBLIES=x.dll;y.dll\n"
      "CIL_INSTRUMENT_ATTACH_SESSION=attach-12\nCIL_INSTRUMENT_ATTACH_CLIENT=12\nCIL_INSTRUMENT_ATTACH_MS=1500\n");
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(read->first.mode, cil::profiler::Mode::Coverage);
  EXPECT_EQ(read->first.output_dir, "/tmp");
  EXPECT_EQ(read->first.filter.include, (std::vector<std::string>{"A.*", "B::C"}));
  EXPECT_EQ(read->first.assemblies.assemblies, (std::vector<std::string>{"Lib.dll"}));
  EXPECT_EQ(read->first.assemblies.skip_assemblies, (std::vector<std::string>{"x.dll", "y.dll"}));
  EXPECT_EQ(read->second.tag, "attach-12");
  EXPECT_EQ(read->second.client, 12);
  EXPECT_EQ(read->second.milliseconds, 1500u);
}

TEST(AttachData, Refusals) {
  using cil::profiler::read_attach_data;
  EXPECT_FALSE(read_attach_data("CIL_INSTRUMENT_OUTPUT=/tmp\n"));  // no session tag
  EXPECT_FALSE(read_attach_data("CIL_INSTRUMENT_OUTPUT=/tmp\nCIL_INSTRUMENT_ATTACH_SESSION=../x\n"));
  EXPECT_FALSE(read_attach_data("CIL_INSTRUMENT_OUTPUT=/tmp\nCIL_INSTRUMENT_ATTACH_SESSION=a\nCIL_INSTRUMENT_ATTACH_MS=x\n"));
  EXPECT_FALSE(read_attach_data("CIL_INSTRUMENT_OUTPUT=/tmp\nCIL_INSTRUMENT_ATTACH_SESSION=a\nCIL_INSTRUMENT_MODE=trace\n"));
  EXPECT_FALSE(read_attach_data("no equals sign\n"));
  EXPECT_FALSE(read_attach_data("CIL_INSTRUMENT_ATTACH_SESSION=a\n"));  // no output directory
}
