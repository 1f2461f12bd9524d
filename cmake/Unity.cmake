# Unity builds (CMAKE_UNITY_BUILD, on by default through CIL_UNITY): the sources of each target are
# compiled eight at a time in one translation unit, so the heavy headers (fmt, the standard
# library, gtest) are parsed once per batch instead of once per file. scripts/test.sh builds the
# tree twice (g++, then clang with the sanitizers), and this is a quarter of each build's time.
#
# The files below are compiled on their own: a name of their anonymous namespace (or a
# `using enum`, a `using namespace`) meets the same name in another file of their batch. Adding a
# file here is the fix when a unity build says "redefinition" or "ambiguous"; a plain build
# (-DCIL_UNITY=OFF) never needs it.
set(CIL_UNITY_SKIP
  src/metadata/module.cpp
  src/metadata/pdb_stream.cpp
  src/metadata/portable_pdb.cpp
  src/metadata/printer.cpp
  src/metadata/schema.cpp
  src/metadata/module_editor.cpp
  src/metadata/pdb_writer.cpp
  src/instrument/count_mode.cpp
  src/cli/jobs/batch_instrument.cpp
  src/cli/commands/cmd_diff.cpp
  src/cli/commands/cmd_instrument.cpp
  src/cli/commands/cmd_report.cpp
  src/cli/commands/cmd_exec.cpp
  src/cli/jobs/instrument_job.cpp
  src/profiler/emit_sink.cpp
  src/profiler/module_table.cpp
  src/profiler/args_profiler.cpp
  src/profiler/events_profiler.cpp
  tests/unit/engine_test.cpp
  tests/unit/method_body_test.cpp
)
list(TRANSFORM CIL_UNITY_SKIP PREPEND ${CMAKE_SOURCE_DIR}/)
# Source properties belong to the directory that defines the target.
set(cil_unity_dirs ${CMAKE_SOURCE_DIR}/src ${CMAKE_SOURCE_DIR}/src/profiler)
if(CIL_TESTS)
  list(APPEND cil_unity_dirs ${CMAKE_SOURCE_DIR}/tests)
endif()
if(CIL_FUZZ)
  list(APPEND cil_unity_dirs ${CMAKE_SOURCE_DIR}/tests/fuzz)
endif()
if(CIL_BENCH)
  list(APPEND cil_unity_dirs ${CMAKE_SOURCE_DIR}/bench)
endif()
set_source_files_properties(${CIL_UNITY_SKIP} DIRECTORY ${cil_unity_dirs} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
