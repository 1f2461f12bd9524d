// Copying a file whole, as every output is written: through a temporary file and a rename.
#pragma once

#include <string>

#include "support/error.h"

namespace cil::cli {

/// Whether `a` and `b` name the same file (device and inode); false when either is missing.
bool same_file(const std::string& a, const std::string& b);

/// Copies `from` to `to` through a temporary file and a rename (never a partial file), keeping
/// the permission bits (an apphost stays executable).
Status copy_file(const std::string& from, const std::string& to, bool interruptible);

}  // namespace cil::cli
