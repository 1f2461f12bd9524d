// A small streaming JSON writer for the CLI's --json output: pretty by default, with containers
// that can be written on one line.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cli/output/output_buffer.h"

namespace cil::cli {

class JsonWriter {
 public:
  /// `inline_` containers (and everything inside them) are written on one line.
  void begin_object(bool inline_ = false) { open('{', inline_); }
  void end_object() { close('}'); }
  void begin_array(bool inline_ = false) { open('[', inline_); }
  void end_array() { close(']'); }
  JsonWriter& key(std::string_view name);
  void value(std::string_view text);
  void value(const char* text) { value(std::string_view(text)); }
  void value(int64_t number);
  void value(uint64_t number);
  void value(int number) { value(static_cast<int64_t>(number)); }
  void value(unsigned number) { value(static_cast<uint64_t>(number)); }
  void value(bool flag);
  void null();
  void raw(std::string_view json);  ///< an already-encoded value
  /// The document, with a final newline once every container is closed.
  const OutputBuffer& text() const { return out_; }

 private:
  struct Level {
    bool is_inline;
    bool empty = true;
  };
  void open(char bracket, bool inline_);
  void close(char bracket);
  void before_value();
  void newline();
  OutputBuffer out_;
  std::vector<Level> levels_;
  bool after_key_ = false;
};

}  // namespace cil::cli
