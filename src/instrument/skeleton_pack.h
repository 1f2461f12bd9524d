// The counts file's skeleton (the text around the counts and each slot's text length), deflated
// (RFC 1951, raw: what System.IO.Compression.DeflateStream inflates) so that a large one costs
// the instrumented assembly a fraction of its size. zlib does the compression.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "support/error.h"

namespace cil::instrument {

/// One deflate stream fed in pieces; the compressed bytes stay in memory, in blocks of at most
/// the size given to create(), until finish().
class SkeletonPacker {
 public:
  static Expected<SkeletonPacker> create(size_t block_size);
  SkeletonPacker(SkeletonPacker&&) noexcept;
  SkeletonPacker& operator=(SkeletonPacker&&) noexcept;
  ~SkeletonPacker();

  /// Compresses `bytes` as the next part of the stream.
  Status add(std::span<const uint8_t> bytes);
  /// Ends the stream and hands out every compressed byte, in blocks (every one full but the
  /// last); the packer is spent.
  Expected<std::vector<std::vector<uint8_t>>> finish();

 private:
  struct State;
  SkeletonPacker() = default;
  std::unique_ptr<State> state_;
};

}  // namespace cil::instrument
