// The two forms of the scoped printer: text lines in each scope's layout, and JSON.
#include "cli/output/scoped_printer.h"

#include <functional>
#include <iterator>
#include <span>
#include <vector>

#include <fmt/args.h>
#include <fmt/format.h>

#include "cli/output/json_writer.h"
#include "metadata/text_encoding.h"

namespace cil::cli {

Value Value::null(std::string text) { return Value(Kind::Null).text(std::move(text)); }

std::string_view Value::text(std::string& scratch) const {
  if (has_text_) return text_;
  switch (kind_) {
    case Kind::String: return string();
    case Kind::Unsigned: scratch = fmt::format("{}", number_); return scratch;
    case Kind::Signed: scratch = fmt::format("{}", static_cast<int64_t>(number_)); return scratch;
    case Kind::Bool: return number_ ? "true" : "false";
    case Kind::Null: break;
  }
  return "null";
}

std::string Value::json() const {
  switch (kind_) {
    case Kind::String: return md::json_quote(string());
    case Kind::Unsigned: return fmt::format("{}", number_);
    case Kind::Signed: return fmt::format("{}", static_cast<int64_t>(number_));
    case Kind::Bool: return number_ ? "true" : "false";
    case Kind::Null: break;
  }
  return "null";
}

namespace {

class TextPrinter final : public ScopedPrinter {
 public:
  void begin_object(const Key& key, const Layout& layout) override { open(key, layout); }
  void end_object() override { close(); }
  void begin_list(const Key& key, const Layout& layout) override { open(key, layout); }
  void end_list() override { close(); }

  void field(const Key& key, const Value& value) override {
    if (!visible() || !key.in_text) return;
    std::string_view text = value.text(scratch_);
    if (!scopes_.empty() && !scopes_.back().layout.row.empty()) {
      // Reuses the strings of rows already written.
      if (row_count_ < row_args_.size()) row_args_[row_count_].assign(text);
      else row_args_.emplace_back(text);
      ++row_count_;
      return;
    }
    const Layout& l = scopes_.empty() ? kTopLevel : scopes_.back().layout;
    out_ += l.indent;
    if (l.labels && !key.label.empty()) {
      size_t start = out_.size();
      out_ += key.label;
      out_ += l.label_suffix;
      size_t used = out_.size() - start;
      if (used < l.label_width) out_.append(l.label_width - used, ' ');
      out_ += l.gap;
    }
    out_ += text;
    out_ += '\n';
  }

  void line(std::string_view text) override {
    if (!visible()) return;
    write_pending_row();
    out_ += text;
    out_ += '\n';
  }

  bool shows(const Key& key) const override { return visible() && key.in_text; }
  const OutputBuffer& output() const override { return out_; }

 private:
  struct Scope {
    Layout layout;
    bool visible = true;
    bool row_written = false;
    size_t first_arg = 0;  ///< rows: where the scope's member texts start in row_args_
  };
  static inline const Layout kTopLevel = Layout::lines();

  bool visible() const { return scopes_.empty() || scopes_.back().visible; }

  void open(const Key& key, const Layout& layout) {
    bool shown = visible() && key.in_text;
    if (shown) {
      write_pending_row();
      if (layout.blank_before) out_ += '\n';
      if (!layout.heading.empty()) {
        out_ += layout.heading;
        out_ += '\n';
      }
    }
    scopes_.push_back(Scope{layout, shown, false, row_count_});
  }

  void close() {
    write_pending_row();
    row_count_ = scopes_.back().first_arg;
    scopes_.pop_back();
  }

  /// The innermost scope's row, when it is one and not yet written: it goes before whatever
  /// comes next inside it.
  void write_pending_row() {
    if (scopes_.empty()) return;
    Scope& s = scopes_.back();
    if (!s.visible || s.layout.row.empty() || s.row_written) return;
    std::span<const std::string> a(row_args_.data() + s.first_arg, row_count_ - s.first_arg);
    s.row_written = true;
    if (write_plain_row(s.layout.row, a)) return;
    fmt::memory_buffer line;
    // Rows have a few members: their arguments on the stack; a dynamic store beyond.
    switch (a.size()) {
      case 1: fmt::vformat_to(fmt::appender(line), s.layout.row, fmt::make_format_args(a[0])); break;
      case 2: fmt::vformat_to(fmt::appender(line), s.layout.row, fmt::make_format_args(a[0], a[1])); break;
      case 3: fmt::vformat_to(fmt::appender(line), s.layout.row, fmt::make_format_args(a[0], a[1], a[2])); break;
      case 4: fmt::vformat_to(fmt::appender(line), s.layout.row, fmt::make_format_args(a[0], a[1], a[2], a[3])); break;
      case 5: fmt::vformat_to(fmt::appender(line), s.layout.row, fmt::make_format_args(a[0], a[1], a[2], a[3], a[4])); break;
      default: {
        fmt::dynamic_format_arg_store<fmt::format_context> args;
        for (const std::string& text : a) args.push_back(std::cref(text));
        fmt::vformat_to(fmt::appender(line), s.layout.row, args);
      }
    }
    out_ += std::string_view(line.data(), line.size());
    out_ += '\n';
  }

  /// A row whose placeholders are all plain ("{}" or "{N}", no format spec), as a listing's
  /// instructions are: written without fmt, one line per instruction being the bulk of a dump.
  /// False, with nothing written, when the row needs fmt.
  bool write_plain_row(std::string_view row, std::span<const std::string> args) {
    line_.clear();
    size_t next = 0;
    for (size_t i = 0; i < row.size(); ++i) {
      char c = row[i];
      if (c != '{' && c != '}') {
        line_ += c;
        continue;
      }
      if (i + 1 < row.size() && row[i + 1] == c) {  // "{{" or "}}"
        line_ += c;
        ++i;
        continue;
      }
      if (c == '}') return false;
      size_t index = 0;
      size_t j = i + 1;
      for (; j < row.size() && row[j] >= '0' && row[j] <= '9'; ++j) index = index * 10 + static_cast<size_t>(row[j] - '0');
      if (j >= row.size() || row[j] != '}') return false;  // a format spec: fmt's job
      if (j == i + 1) index = next++;
      if (index >= args.size()) return false;
      line_ += args[index];
      i = j;
    }
    line_ += '\n';
    out_ += line_;
    return true;
  }

  std::vector<Scope> scopes_;
  std::vector<std::string> row_args_;  ///< member texts of the open rows, innermost last
  size_t row_count_ = 0;               ///< how many of row_args_ are in use
  std::string scratch_;
  std::string line_;
  OutputBuffer out_;
};

class JsonPrinter final : public ScopedPrinter {
 public:
  void begin_object(const Key& key, const Layout& layout) override { open(key, layout, false); }
  void end_object() override { close(); }
  void begin_list(const Key& key, const Layout& layout) override { open(key, layout, true); }
  void end_list() override { close(); }

  void field(const Key& key, const Value& value) override {
    if (!visible() || !key.in_json) return;
    name(key);
    j_.raw(value.json());
  }

  void line(std::string_view) override {}
  bool shows(const Key& key) const override { return visible() && key.in_json; }

  const OutputBuffer& output() const override { return j_.text(); }

 private:
  struct Scope {
    bool visible;
    bool list;
  };

  bool visible() const { return scopes_.empty() || scopes_.back().visible; }
  /// Members of an object have names; list elements do not.
  void name(const Key& key) {
    if (!scopes_.empty() && !scopes_.back().list) j_.key(key.json);
  }

  void open(const Key& key, const Layout& layout, bool list) {
    bool shown = visible() && key.in_json;
    if (shown) {
      name(key);
      if (list) j_.begin_array(layout.json_inline);
      else j_.begin_object(layout.json_inline);
    }
    scopes_.push_back(Scope{shown, list});
  }

  void close() {
    Scope s = scopes_.back();
    scopes_.pop_back();
    if (!s.visible) return;
    if (s.list) j_.end_array();
    else j_.end_object();
  }

  JsonWriter j_;
  std::vector<Scope> scopes_;
};

}  // namespace

std::unique_ptr<ScopedPrinter> make_text_printer() { return std::make_unique<TextPrinter>(); }
std::unique_ptr<ScopedPrinter> make_json_printer() { return std::make_unique<JsonPrinter>(); }

}  // namespace cil::cli
