// Output written once, in two forms: commands walk their data once, through objects, lists and
// key/value pairs, and a text or a JSON implementation writes it (in the manner of LLVM's
// ScopedPrinter and JSONScopedPrinter). The text form keeps each command's own layout.
#pragma once

#include <concepts>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "cli/output/output_buffer.h"

namespace cil::cli {

/// A scalar in both forms: the JSON value (string, number, boolean or null) and the words the
/// text form prints, which are the JSON value's own unless given (hexadecimal for a number, a
/// sentence for a boolean...). A Value is made to be handed to the printer at once: a string it
/// is given as a view or a const reference is not copied, and must outlive it; a temporary
/// string is kept.
class Value {
 public:
  Value(std::string&& text) : kind_(Kind::String), owned_(std::move(text)) {}
  Value(const std::string& text) : Value(std::string_view(text)) {}
  Value(std::string_view text) : kind_(Kind::String), viewed_(true), view_(text) {}
  Value(const char* text) : Value(std::string_view(text)) {}
  template <std::integral T>
    requires(!std::same_as<T, bool> && !std::same_as<T, char>)
  Value(T number) : kind_(std::is_signed_v<T> ? Kind::Signed : Kind::Unsigned), number_(static_cast<uint64_t>(number)) {}
  Value(bool flag) : kind_(Kind::Bool), number_(flag) {}
  /// JSON null; `text` is what the text form prints.
  static Value null(std::string text = "null");

  /// The same JSON value, printed as `text` in the text form.
  Value text(std::string text) && {
    text_ = std::move(text);
    has_text_ = true;
    return std::move(*this);
  }
  /// The text form's words: a view of them, formatted into `scratch` when they are a number's.
  std::string_view text(std::string& scratch) const;
  std::string text() const {
    std::string scratch;
    return std::string(text(scratch));
  }
  /// The JSON form's encoding.
  std::string json() const;

 private:
  enum class Kind : uint8_t { String, Unsigned, Signed, Bool, Null };
  explicit Value(Kind kind) : kind_(kind) {}
  std::string_view string() const { return viewed_ ? view_ : std::string_view(owned_); }
  Kind kind_;
  bool has_text_ = false;
  bool viewed_ = false;
  uint64_t number_ = 0;
  std::string_view view_;
  std::string owned_;
  std::string text_;
};

/// Where a value or a scope goes: its member name in JSON (none for a list element) and its
/// label in the text form, and whether each form shows it at all. Text and JSON differ where
/// the text form's layout groups or orders things its own way; a key that one form does not
/// show says so here, in the one walk, rather than in a second walk for that form.
struct Key {
  std::string_view json;   ///< JSON member name; empty for a list element
  std::string_view label;  ///< the text form's label, where its layout has labels
  bool in_json = true;
  bool in_text = true;

  /// A list element, in both forms.
  Key() = default;
  /// A member named `name` in both forms.
  Key(const char* name) : json(name), label(name) {}
  Key(std::string_view json_name, std::string_view text_label) : json(json_name), label(text_label) {}
  /// Only in the JSON form.
  static Key json_only(std::string_view name = {}) { return Key(name, {}, true, false); }
  /// Only in the text form.
  static Key text_only(std::string_view label = {}) { return Key({}, label, false, true); }
  /// This key, shown in JSON only when `shown` (an optional member).
  Key json_if(bool shown) const {
    Key k = *this;
    k.in_json = in_json && shown;
    return k;
  }
  /// This key, shown in the text form only when `shown`.
  Key text_if(bool shown) const {
    Key k = *this;
    k.in_text = in_text && shown;
    return k;
  }

 private:
  Key(std::string_view json_name, std::string_view text_label, bool j, bool t)
      : json(json_name), label(text_label), in_json(j), in_text(t) {}
};

/// How a scope (object or list) looks in each form. Strings are views: they must outlive the
/// scope (literals, or strings the walk keeps until the scope ends).
struct Layout {
  /// JSON: the container on one line.
  bool json_inline = false;
  /// Text: an empty line, then `heading` as a line, when the scope opens.
  bool blank_before = false;
  std::string_view heading;
  /// Text: how members are written, one line each: `indent`, then (when the key has a label and
  /// `labels` is on) the label and `label_suffix` padded to `label_width`, then `gap`, then the
  /// value's text.
  bool labels = true;
  std::string_view indent;
  std::string_view label_suffix = ":";
  size_t label_width = 0;
  std::string_view gap = " ";
  /// Text: instead, the whole scope is one line: `row` formatted (fmt) with the texts of the
  /// members the text form shows, in order. The line is written before anything nested in the
  /// scope, or when it ends.
  std::string_view row;

  /// Members as lines `indent label: value`.
  static Layout lines(std::string_view indent = {}) {
    Layout l;
    l.indent = indent;
    return l;
  }
  /// Members as lines that are their values' texts alone (labels are for JSON).
  static Layout plain() {
    Layout l;
    l.labels = false;
    return l;
  }
  /// Members as lines with their values in a column: `indent` + `label:` padded to `width`.
  static Layout aligned(std::string_view indent, size_t width) {
    Layout l;
    l.indent = indent;
    l.label_width = width;
    l.gap = {};
    return l;
  }
  /// Members as lines with their labels in a column: `indent` + label padded to `width` + ' '.
  static Layout table(std::string_view indent, size_t width) {
    Layout l;
    l.indent = indent;
    l.label_suffix = {};
    l.label_width = width;
    return l;
  }
  /// The scope as one text line (see `row`).
  static Layout one_row(std::string_view format, bool json_inline = true) {
    Layout l;
    l.row = format;
    l.json_inline = json_inline;
    return l;
  }
  Layout with_heading(std::string_view text, bool blank = true) && {
    heading = text;
    blank_before = blank;
    return std::move(*this);
  }
  Layout inline_json() && {
    json_inline = true;
    return std::move(*this);
  }
};

/// Receives one walk over a command's output. Objects hold keyed members; lists hold elements
/// (keys without a JSON name). Scopes nest and must be closed in order (ObjectScope and
/// ListScope do it).
class ScopedPrinter {
 public:
  virtual ~ScopedPrinter() = default;
  virtual void begin_object(const Key& key, const Layout& layout) = 0;
  virtual void end_object() = 0;
  virtual void begin_list(const Key& key, const Layout& layout) = 0;
  virtual void end_list() = 0;
  /// A member of the current object, or an element of the current list.
  virtual void field(const Key& key, const Value& value) = 0;
  /// A line of the text form only, written as it is (without the scope's indent).
  virtual void line(std::string_view text) = 0;
  /// Whether this form shows a member or scope with `key` at this point: lets a walk skip work
  /// whose result this form would drop (names of thousands of methods only JSON lists).
  virtual bool shows(const Key& key) const = 0;
  /// The output so far; complete once every scope is closed.
  virtual const OutputBuffer& output() const = 0;
};

/// The text form.
std::unique_ptr<ScopedPrinter> make_text_printer();
/// The JSON form: pretty-printed, with inline containers on one line, and a final newline.
std::unique_ptr<ScopedPrinter> make_json_printer();
/// The form a command's `--json` option asks for.
inline std::unique_ptr<ScopedPrinter> make_printer(bool json) { return json ? make_json_printer() : make_text_printer(); }

class ObjectScope {
 public:
  ObjectScope(ScopedPrinter& p, const Key& key = {}, const Layout& layout = {}) : p_(p) { p_.begin_object(key, layout); }
  ~ObjectScope() { p_.end_object(); }
  ObjectScope(const ObjectScope&) = delete;
  ObjectScope& operator=(const ObjectScope&) = delete;

 private:
  ScopedPrinter& p_;
};

class ListScope {
 public:
  ListScope(ScopedPrinter& p, const Key& key = {}, const Layout& layout = {}) : p_(p) { p_.begin_list(key, layout); }
  ~ListScope() { p_.end_list(); }
  ListScope(const ListScope&) = delete;
  ListScope& operator=(const ListScope&) = delete;

 private:
  ScopedPrinter& p_;
};

}  // namespace cil::cli
