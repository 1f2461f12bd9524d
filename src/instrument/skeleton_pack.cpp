// Deflates the counts file's skeleton (skeleton_pack.h).
#include "instrument/skeleton_pack.h"

#include <zlib.h>

#include <fmt/format.h>

namespace cil::instrument {

namespace {

// Raw deflate, no zlib header: negative window bits (zlib.h, deflateInit2); DeflateStream reads
// exactly that.
constexpr int kRawDeflateWindow = -15;
constexpr size_t kOutputStep = 64 * 1024;

Error zlib_error(int status) { return make_error(ErrorKind::Io, "zlib", fmt::format("deflate failed ({})", status)); }

}  // namespace

struct SkeletonPacker::State {
  z_stream z{};
  std::vector<uint8_t> out;
  bool open = false;
  ~State() {
    if (open) deflateEnd(&z);
  }

  /// Runs deflate over the pending input with `flush`, growing `out` as it fills.
  Status run(int flush) {
    for (;;) {
      if (z.avail_out == 0) {
        size_t used = out.size();
        out.resize(used + kOutputStep);
        z.next_out = out.data() + used;
        z.avail_out = static_cast<uInt>(kOutputStep);
      }
      int status = deflate(&z, flush);
      if (status == Z_STREAM_END) return ok();
      if (status != Z_OK && status != Z_BUF_ERROR) return zlib_error(status);
      if (flush == Z_NO_FLUSH && z.avail_in == 0) return ok();
      if (status == Z_BUF_ERROR && z.avail_out != 0) return zlib_error(status);
    }
  }
};

Expected<SkeletonPacker> SkeletonPacker::create() {
  SkeletonPacker packer;
  packer.state_ = std::make_unique<State>();
  State& s = *packer.state_;
  // Level 6 (zlib's default): level 9 saves under 1% on this text and takes longer.
  if (deflateInit2(&s.z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, kRawDeflateWindow, 8, Z_DEFAULT_STRATEGY) != Z_OK)
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

Expected<std::vector<uint8_t>> SkeletonPacker::finish() {
  if (!state_ || !state_->open) return make_error(ErrorKind::Usage, "skeleton packer", "finish twice");
  state_->z.next_in = nullptr;
  state_->z.avail_in = 0;
  CIL_TRY(state_->run(Z_FINISH));
  std::vector<uint8_t> out = std::move(state_->out);
  out.resize(state_->z.total_out);
  deflateEnd(&state_->z);
  state_->open = false;
  return out;
}

}  // namespace cil::instrument
