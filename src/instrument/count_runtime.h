// The code of count mode's helper type at run time: the class constructor, the one writer of the
// counts file that every ending uses (process exit, unhandled exception, SIGTERM/SIGINT/SIGQUIT,
// the periodic flush), the setup that finds signals and the per-load file name, and the live
// file that holds the counters while the program runs (runtime_contract.h).
#pragma once

#include <string>
#include <vector>

#include "il/max_stack.h"
#include "metadata/module_editor.h"
#include "metadata/runtime_refs.h"
#include "instrument/engine_names.h"

namespace cil::instrument {

/// The helper's rows, added by CountMode::begin(); the bodies below fill its methods.
struct CountRuntimeMembers {
  uint32_t helper_type = 0;  ///< TypeDef row of <CilInstrument>
  md::Token counts = 0;      ///< static native int: the address of the int64 counters (int64[] if counts_array)
  bool counts_array = false;  ///< counters in a managed int64[] (the core library, mscorlib-based modules)
  md::Token gate = 0;        ///< static object: one write at a time
  md::Token tag = 0;         ///< static string: "" for the first load of the assembly, ".2"... after
  md::Token keep = 0;        ///< static object[]: the timer, the signal registrations and the mapping, kept alive
  md::Token live = 0;        ///< static string: the live file's path while it holds the counters, else null
  md::Token cctor = 0, write = 0, on_exit = 0, on_unhandled = 0, setup = 0, on_signal = 0, on_timer = 0, write_file = 0,
            write_chunk = 0, output_path = 0, map_live = 0;
};

/// One piece of the precomputed file text: a static data field of `size` bytes.
struct CountTextChunk {
  md::Token field = 0;
  uint32_t size = 0;
  md::Token lengths_field = 0;  ///< int32 per slot: the length of its text
  uint32_t pieces = 0;          ///< slots in the chunk
};

/// What the writer writes. The chunks hold the file's text from the first method's opening to
/// the last method's count, without the counts, and the length of each slot's text; at exit only
/// the numbers are formatted.
struct CountRuntimeText {
  std::string header;       ///< up to the first method (contract::counts_header)
  std::string tail;         ///< after the last count
  std::string file_prefix;  ///< "<Assembly>."
  std::string file_suffix;  ///< contract::kCountsFileSuffix or kHitsFileSuffix
  std::string live_suffix;  ///< contract::kCountsLiveSuffix or kHitsLiveSuffix; empty: no live file
  md::Token live_header = 0;  ///< static data: the live file's first contract::kLiveHeaderSize bytes
  std::string load_key;     ///< AppDomain data key that numbers the loads of this build
  uint32_t slots = 0;
  std::vector<CountTextChunk> chunks;
  /// Instead of `chunks` (which is then empty), a large skeleton deflated (skeleton_pack.h): the
  /// method text then every slot's int32 length, one stream cut into data fields (`field` and
  /// `size` only), inflated by DeflateStream when the text is needed.
  std::vector<CountTextChunk> packed;
  uint32_t method_text = 0;  ///< the inflated method text's bytes (the lengths follow)
};

/// Names of the helper's methods that the setup finds by reflection.
inline constexpr std::string_view kOnSignalName = "OnSignal";

/// Writes the bodies of every method in `members`.
Status write_count_runtime(md::ModuleEditor& editor, md::RuntimeRefs& refs, const CountRuntimeMembers& members,
                           const CountRuntimeText& text, CallEffects& effects);

}  // namespace cil::instrument
