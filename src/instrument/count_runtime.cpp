// The IL of count mode's helper at run time (see count_runtime.h). In C# terms:
//
//   static .cctor() { counts = Marshal.AllocHGlobal(8 * N), zeroed (the core library and
//                     mscorlib-based modules: new long[N], and no live file); gate = new object(); tag = "";
//                     domain.ProcessExit += OnProcessExit; domain.UnhandledException += ...; Setup(); }
//   static void Setup() { try { tag = the load's tag; MapLive(); timer every
//                               CIL_INSTRUMENT_FLUSH_SECONDS; PosixSignalRegistration.Create(
//                               SIGTERM/SIGINT/SIGQUIT, OnSignal) by reflection } catch {} }
//   static void MapLive() { try { write the live file; map it; copy the counters there and point
//                                 counts at them; live = its path } catch { delete it } }
//   static void WriteCounts(bool final) { try { lock (gate) { WriteFile(file + ".tmp"); rename it
//                               to file; if (final) delete the live file } }
//                               catch (Exception e) { one line on stderr } }
//
// Only mscorlib-level APIs are referenced, and MemoryMappedFile (System.IO.MemoryMappedFiles, or
// netstandard) for the live file; PosixSignalRegistration (.NET 6+) is found by name, so the same
// output runs on .NET Framework and Mono, where the signals part does nothing.
//
// The bodies are written by count_runtime_setup.cpp (.cctor, Setup, the forwarding handlers),
// count_runtime_write.cpp (OutputPath, WriteCounts, WriteFile, WriteChunk) and
// count_runtime_live.cpp (MapLive), on the references of count_runtime_refs.cpp. A large skeleton
// is packed (skeleton_pack.h): WriteFile and MapLive inflate it first (count_runtime_unpack.cpp).
#include "instrument/count_runtime.h"

#include "instrument/count_runtime_code.h"

namespace cil::instrument {

Status write_count_runtime(md::ModuleEditor& editor, md::RuntimeRefs& refs, const CountRuntimeMembers& members,
                           const CountRuntimeText& text, CallEffects& effects) {
  using namespace count_helper;
  Refs x = CIL_TRY(resolve(refs, members.counts_array, static_cast<bool>(members.map_live), !text.packed.empty()));
  CIL_TRY(write_cctor(editor, x, members, text.slots, effects));
  CIL_TRY(write_setup(editor, x, members, text, effects));
  for (Token handler : {members.on_exit, members.on_unhandled, members.on_signal})
    CIL_TRY(write_forwarder(editor, members, handler, true, effects));
  CIL_TRY(write_forwarder(editor, members, members.on_timer, false, effects));
  CIL_TRY(write_output_path(editor, x, members, text, effects));
  if (members.map_live) CIL_TRY(write_map_live(editor, x, members, text, effects));
  CIL_TRY(write_write_counts(editor, x, members, text, effects));
  CIL_TRY(write_write_file(editor, x, members, text, effects));
  return write_write_chunk(editor, x, members, effects);
}

}  // namespace cil::instrument
