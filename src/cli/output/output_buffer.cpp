// Joining an output's pieces.
#include "cli/output/output_buffer.h"

namespace cil::cli {

std::string OutputBuffer::str() const {
  std::string text;
  text.reserve(size_);
  for (const std::string& piece : pieces_) text += piece;
  return text;
}

}  // namespace cil::cli
