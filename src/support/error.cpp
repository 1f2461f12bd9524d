// Formatting of Error values.
#include "support/error.h"

#include <fmt/format.h>

namespace cil {

std::string Error::to_string() const {
  std::string text = structure.empty() ? message : fmt::format("{}: {}", structure, message);
  if (offset) text += fmt::format(" (offset {:#x})", *offset);
  return text;
}

Error make_error(ErrorKind kind, std::string structure, std::string message,
                 std::optional<uint64_t> offset) {
  return Error{kind, std::move(structure), std::move(message), offset, {}};
}

Error in_file(Error error, std::string path) {
  if (error.file.empty()) error.file = std::move(path);
  return error;
}

}  // namespace cil
