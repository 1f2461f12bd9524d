// JSON text generation with escaping of control characters and quotes.
#include "cli/output/json_writer.h"

#include <fmt/format.h>

#include "metadata/text_encoding.h"

namespace cil::cli {

void JsonWriter::newline() {
  out_ += '\n';
  out_.append(levels_.size() * 2, ' ');
}

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (levels_.empty()) return;
  Level& level = levels_.back();
  if (!level.empty) out_ += level.is_inline ? ", " : ",";
  if (!level.is_inline) newline();
  level.empty = false;
}

void JsonWriter::open(char bracket, bool inline_) {
  before_value();
  bool parent_inline = !levels_.empty() && levels_.back().is_inline;
  out_ += bracket;
  levels_.push_back(Level{inline_ || parent_inline});
}

void JsonWriter::close(char bracket) {
  Level level = levels_.back();
  levels_.pop_back();
  if (!level.is_inline && !level.empty) newline();
  out_ += bracket;
  if (levels_.empty()) out_ += '\n';
}

JsonWriter& JsonWriter::key(std::string_view name) {
  before_value();
  out_ += md::json_quote(name);
  out_ += ": ";
  after_key_ = true;
  return *this;
}

void JsonWriter::value(std::string_view text) {
  before_value();
  out_ += md::json_quote(text);
}

void JsonWriter::value(int64_t number) {
  before_value();
  out_ += fmt::format("{}", number);
}

void JsonWriter::value(uint64_t number) {
  before_value();
  out_ += fmt::format("{}", number);
}

void JsonWriter::value(bool flag) {
  before_value();
  out_ += flag ? "true" : "false";
}

void JsonWriter::null() {
  before_value();
  out_ += "null";
}

void JsonWriter::raw(std::string_view json) {
  before_value();
  out_ += json;
}

}  // namespace cil::cli
