// Output text kept in pieces of about a mebibyte: appending never moves what is already there, so
// a large listing costs no copies and no more memory than its own size.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cil::cli {

class OutputBuffer {
 public:
  static constexpr size_t kPiece = size_t{1} << 20;

  OutputBuffer& operator+=(std::string_view text) {
    room(text.size()).append(text);
    size_ += text.size();
    return *this;
  }
  OutputBuffer& operator+=(char c) {
    room(1).push_back(c);
    ++size_;
    return *this;
  }
  void append(size_t count, char c) {
    room(count).append(count, c);
    size_ += count;
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  /// The pieces, in order; together they are the text.
  std::span<const std::string> pieces() const { return pieces_; }
  /// The text in one string (for tests and small outputs).
  std::string str() const;

 private:
  /// The piece to append `n` bytes to: the last one until it would pass kPiece (growing as a
  /// string does, so small outputs stay small), else a new one of kPiece.
  std::string& room(size_t n) {
    if (pieces_.empty()) return pieces_.emplace_back();
    if (!pieces_.back().empty() && pieces_.back().size() + n > kPiece) pieces_.emplace_back().reserve(n > kPiece ? n : kPiece);
    return pieces_.back();
  }
  std::vector<std::string> pieces_;
  size_t size_ = 0;
};

}  // namespace cil::cli
