// Deflates the counts file's skeleton (skeleton_pack.h).
#include "instrument/skeleton_pack.h"

#include <zlib.h>

#include <algorithm>

#include <fmt/format.h>

namespace cil::instrument {

namespace {

// Raw deflate, no zlib header: negative window bits (zlib.h, deflateInit2); DeflateStream reads
// exactly that.
// An 8 KiB window and memLevel 6 (zlib.h: deflate's state is 2^(window+2) + 2^(memLevel+9)
// bytes, 64 KiB here against 256 KiB at zlib's defaults): the memory test's peak (coverage mode
// under 3 times input plus PDB) has no room for the default state, and on this text the smaller
// window loses nothing measurable (6.53 MB output against 6.58 MB on that test's input).
constexpr int kRawDeflateWindow = -13;
constexpr int kMemLevel = 6;
constexpr size_t kOutputStep = 64 * 1024;

Error zlib_error(int status) { return make_error(ErrorKind::Io, "zlib", fmt::format("deflate failed ({})", status)); }

}  // namespace

struct SkeletonPacker::State {
  z_stream z{};
  size_t block_size = 0;
  // The compressed bytes in blocks of block_size (the last one shorter): each becomes one field
  // as it is, so no whole copy of the stream is ever held beside it.
  std::vector<std::vector<uint8_t>> blocks;
  bool open = false;
  ~State() {
    if (open) deflateEnd(&z);
  }

  /// Gives deflate room: the current block grows by kOutputStep up to block_size, then a new one
  /// starts.
  void make_room() {
    if (blocks.empty() || blocks.back().size() >= block_size) blocks.emplace_back();
    std::vector<uint8_t>& block = blocks.back();
    size_t used = block.size();
    size_t step = std::min(kOutputStep, block_size - used);
    block.resize(used + step);
    z.next_out = block.data() + used;
    z.avail_out = static_cast<uInt>(step);
  }

  /// Runs deflate over the pending input with `flush`, growing the blocks as they fill.
  Status run(int flush) {
    for (;;) {
      if (z.avail_out == 0) make_room();
      int status = deflate(&z, flush);
      if (status == Z_STREAM_END) return ok();
      if (status != Z_OK && status != Z_BUF_ERROR) return zlib_error(status);
      if (flush == Z_NO_FLUSH && z.avail_in == 0) return ok();
      if (status == Z_BUF_ERROR && z.avail_out != 0) return zlib_error(status);
    }
  }
};

Expected<SkeletonPacker> SkeletonPacker::create(size_t block_size) {
  if (block_size == 0) return make_error(ErrorKind::Usage, "skeleton packer", "a block size of 0");
  SkeletonPacker packer;
  packer.state_ = std::make_unique<State>();
  State& s = *packer.state_;
  s.block_size = block_size;
  // Level 6 (zlib's default): level 9 saves under 1% on this text and takes longer; level 1 is
  // faster but its larger output costs more memory than it saves time.
  if (deflateInit2(&s.z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, kRawDeflateWindow, kMemLevel, Z_DEFAULT_STRATEGY) != Z_OK)
    return make_error(ErrorKind::Io, "zlib", "deflateInit2 failed");
  s.open = true;
  return packer;
}

SkeletonPacker::SkeletonPacker(SkeletonPacker&&) noexcept = default;
SkeletonPacker& SkeletonPacker::operator=(SkeletonPacker&&) noexcept = default;
SkeletonPacker::~SkeletonPacker() = default;

Status SkeletonPacker::add(std::span<const uint8_t> bytes) {
  if (!state_ || !state_->open) return make_error(ErrorKind::Usage, "skeleton packer", "add after finish");
  // avail_in is a uInt: feed at most 1 GiB at a time.
  constexpr size_t kStep = size_t{1} << 30;
  while (!bytes.empty()) {
    size_t n = std::min(bytes.size(), kStep);
    state_->z.next_in = const_cast<Bytef*>(bytes.data());
    state_->z.avail_in = static_cast<uInt>(n);
    CIL_TRY(state_->run(Z_NO_FLUSH));
    bytes = bytes.subspan(n);
  }
  return ok();
}

Expected<std::vector<std::vector<uint8_t>>> SkeletonPacker::finish() {
  if (!state_ || !state_->open) return make_error(ErrorKind::Usage, "skeleton packer", "finish twice");
  state_->z.next_in = nullptr;
  state_->z.avail_in = 0;
  CIL_TRY(state_->run(Z_FINISH));
  // The last block holds what deflate wrote of it: the room it was not given back goes.
  if (!state_->blocks.empty()) state_->blocks.back().resize(state_->blocks.back().size() - state_->z.avail_out);
  if (!state_->blocks.empty() && state_->blocks.back().empty()) state_->blocks.pop_back();
  deflateEnd(&state_->z);
  state_->open = false;
  return std::move(state_->blocks);
}

}  // namespace cil::instrument
