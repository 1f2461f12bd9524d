// What the fuzz targets share: a check that aborts with a message, so that libFuzzer saves the
// input as a crash.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

/// Aborts when `condition` is false: a property the library promises does not hold.
#define CIL_FUZZ_CHECK(condition, message)                                                  \
  do {                                                                                      \
    if (!(condition)) {                                                                     \
      std::fprintf(stderr, "fuzz check failed: %s (%s:%d): %s\n", #condition, __FILE__, __LINE__, \
                   std::string(message).c_str());                                           \
      std::abort();                                                                         \
    }                                                                                       \
  } while (0)

