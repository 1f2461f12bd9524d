// The two forms of the scoped printer: text lines in each scope's layout, and JSON.
#include "cli/scoped_printer.h"

#include <vector>

#include <fmt/args.h>
#include <fmt/format.h>

#include "cli/json_writer.h"

namespace cil::cli {

Value Value::null(std::string text) { return Value(Kind::Null).text(std::move(text)); }

std::string Value::text() const {
  if (has_text_) return text_;
  switch (kind_) {
    case Kind::String: return string_;
    case Kind::Unsigned: return fmt::format("{}", number_);
    case Kind::Signed: return fmt::format("{}", static_cast<int64_t>(number_));
    case Kind::Bool: return number_ ? "true" : "false";
    case Kind::Null: break;
  }
  return "null";
}

std::string Value::json() const {
  switch (kind_) {
    case Kind::String: return json_quote(string_);
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
    if (!scopes_.empty() && !scopes_.back().layout.row.empty()) {
      scopes_.back().row_args.push_back(value.text());
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
    out_ += value.text();
    out_ += '\n';
  }

  void line(std::string_view text) override {
    if (!visible()) return;
    write_pending_row();
    out_ += text;
    out_ += '\n';
  }

  bool shows(const Key& key) const override { return visible() && key.in_text; }
  const std::string& output() const override { return out_; }

 private:
  struct Scope {
    Layout layout;
    bool visible = true;
    bool row_written = false;
    std::vector<std::string> row_args;
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
    scopes_.push_back(Scope{layout, shown, false, {}});
  }

  void close() {
    write_pending_row();
    scopes_.pop_back();
  }

  /// The innermost scope's row, when it is one and not yet written: it goes before whatever
  /// comes next inside it.
  void write_pending_row() {
    if (scopes_.empty()) return;
    Scope& s = scopes_.back();
    if (!s.visible || s.layout.row.empty() || s.row_written) return;
    fmt::dynamic_format_arg_store<fmt::format_context> args;
    for (const std::string& a : s.row_args) args.push_back(a);
    out_ += fmt::vformat(s.layout.row, args);
    out_ += '\n';
    s.row_written = true;
  }

  std::vector<Scope> scopes_;
  std::string out_;
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

  const std::string& output() const override { return j_.text(); }

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
