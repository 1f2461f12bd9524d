// Errors as values: every failure names the structure at fault and, where known, its file offset.
#pragma once

#include <cstdint>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

namespace cil {

/// What went wrong, broadly; the CLI maps kinds to exit codes.
enum class ErrorKind : uint8_t {
  Format,       ///< the input violates its format (truncated, out of range, inconsistent)
  Unsupported,  ///< valid input that this tool does not handle (e.g. mixed-mode images)
  Limit,        ///< a count or size from the input exceeds a documented cap
  Io,           ///< the operating system refused a read or write
  Usage,        ///< the caller asked for something impossible (bad pattern, bad option value)
};

/// An error: the structure at fault, what is wrong with it, and where.
struct Error {
  ErrorKind kind = ErrorKind::Format;
  std::string structure;          ///< e.g. "#Blob heap", "MethodDef row 12 body"
  std::string message;            ///< e.g. "length 0x40 runs past the end of the heap"
  std::optional<uint64_t> offset; ///< absolute file offset, when the error has one
  /// The file the error is about (input, output, hooks assembly...), named by whoever knows it:
  /// usually the caller that opened the file, not the code that found the fault. Empty: unknown.
  std::string file;

  /// "structure: message (offset 0x...)", the form the CLI prints after the file name.
  std::string to_string() const;
};

Error make_error(ErrorKind kind, std::string structure, std::string message,
                 std::optional<uint64_t> offset = std::nullopt);

/// `error`, about `path` unless it already names a file: the file named nearest to the fault
/// wins (an output write failing inside a job about the input stays about the output).
Error in_file(Error error, std::string path);

/// A value or an Error. Minimal stand-in for C++23 std::expected.
template <class T>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : has_value_(true) { new (&value_) T(std::move(value)); }
  Expected(Error error) : has_value_(false) { new (&error_) Error(std::move(error)); }
  template <class U, class = std::enable_if_t<std::is_convertible_v<U&&, T> &&
                                              !std::is_same_v<std::decay_t<U>, T> &&
                                              !std::is_same_v<std::decay_t<U>, Error>>>
  Expected(U&& value) : has_value_(true) {
    new (&value_) T(std::forward<U>(value));
  }
  Expected(const Expected& other) : has_value_(other.has_value_) {
    if (has_value_) new (&value_) T(other.value_);
    else new (&error_) Error(other.error_);
  }
  Expected(Expected&& other) noexcept : has_value_(other.has_value_) {
    if (has_value_) new (&value_) T(std::move(other.value_));
    else new (&error_) Error(std::move(other.error_));
  }
  Expected& operator=(Expected other) {
    destroy();
    has_value_ = other.has_value_;
    if (has_value_) new (&value_) T(std::move(other.value_));
    else new (&error_) Error(std::move(other.error_));
    return *this;
  }
  ~Expected() { destroy(); }

  explicit operator bool() const { return has_value_; }
  bool has_value() const { return has_value_; }
  T& operator*() & { return value_; }
  const T& operator*() const& { return value_; }
  T&& operator*() && { return std::move(value_); }
  T* operator->() { return &value_; }
  const T* operator->() const { return &value_; }
  const Error& error() const& { return error_; }
  Error&& error() && { return std::move(error_); }

 private:
  void destroy() {
    if (has_value_) value_.~T();
    else error_.~Error();
  }
  bool has_value_;
  union {
    T value_;
    Error error_;
  };
};

/// Success or an Error.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Error error) : error_(std::move(error)) {}
  explicit operator bool() const { return !error_.has_value(); }
  const Error& error() const& { return *error_; }
  Error&& error() && { return std::move(*error_); }

 private:
  std::optional<Error> error_;
};

inline Status ok() { return Status(); }

}  // namespace cil

/// Evaluates an Expected<T> or Status; on error returns the error from the enclosing function,
/// otherwise yields the value (for Expected). Uses a GNU statement expression (g++ and clang).
#define CIL_TRY(expr)                                                        \
  ({                                                                         \
    auto cil_try_result_ = (expr);                                           \
    if (!cil_try_result_) return std::move(cil_try_result_).error();         \
    ::cil::detail::unwrap(std::move(cil_try_result_));                       \
  })

namespace cil::detail {
template <class T>
T unwrap(Expected<T>&& e) { return std::move(*e); }
inline void unwrap(Status&&) {}
}  // namespace cil::detail
