# Unity builds (CMAKE_UNITY_BUILD, on by default through CIL_UNITY): the sources of each target are
# compiled eight at a time in one translation unit, so the heavy headers (fmt, the standard
# library, gtest) are parsed once per batch instead of once per file. scripts/test.sh builds the
# tree twice (g++, then clang with the sanitizers), and this is a quarter of each build's time.
#
# The files below are compiled on their own: a name of their anonymous namespace (or a
# `using enum`, a `using namespace`) meets the same name in another file of their batch. The fix
# for a unity build that says "redefinition" or "ambiguous" is to give the helper one home (a
# header both files include) or a name of its own; adding the file here is the last resort. A
# plain build (-DCIL_UNITY=OFF) never needs it. Today no file needs it.
set(CIL_UNITY_SKIP)
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
if(CIL_UNITY_SKIP)
  set_source_files_properties(${CIL_UNITY_SKIP} DIRECTORY ${cil_unity_dirs} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
endif()
