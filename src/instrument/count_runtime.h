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
  md::Token counts;      ///< static native int: the address of the int64 counters (int64[] if counts_array)
  bool counts_array = false;  ///< counters in a managed int64[] (the core library, mscorlib-based modules)
  md::Token gate;        ///< static object: one write at a time
  md::Token tag;         ///< static string: "" for the first load of the assembly, ".2"... after
  md::Token keep;        ///< static object[]: the timer, the signal registrations and the mapping, kept alive
  md::Token live;        ///< static string: the live file's path while it holds the counters, else null
  md::Token cctor, write, on_exit, on_unhandled, setup, on_signal, on_timer, write_file, write_chunk, output_path, map_live;
};

/// One piece of the precomputed file text: a static data field of `size` bytes.
struct CountTextChunk {
  md::Token field;
  uint32_t size = 0;
  md::Token lengths_field;  ///< int32 per slot: the length of its text
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
  md::Token live_header;  ///< static data: the live file's first contract::kLiveHeaderSize bytes
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
