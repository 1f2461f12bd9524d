// Section addition, header growth, file-pointer fix-ups and the PE checksum.
#include "pe/image_writer.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <optional>

#include <fmt/format.h>

#include "pe/debug_directory.h"
#include "pe/section_cuts.h"

namespace cil::pe {

namespace {

uint64_t align_up(uint64_t value, uint32_t alignment) {
  if (alignment == 0) return value;
  return (value + alignment - 1) / alignment * alignment;
}

Error writer_error(std::string message) { return make_error(ErrorKind::Unsupported, "PE image", std::move(message)); }


}  // namespace

Patch patch_u16(uint32_t offset, uint16_t value) {
  Patch p{offset, std::vector<uint8_t>(2)};
  store_le(p.bytes.data(), value);
  return p;
}

Patch patch_u32(uint32_t offset, uint32_t value) {
  Patch p{offset, std::vector<uint8_t>(4)};
  store_le(p.bytes.data(), value);
  return p;
}

Expected<SectionPlan> plan_section(const PeImage& image) {
  const PeHeaders& h = image.headers();
  if (h.file_alignment == 0 || h.section_alignment == 0 || (h.file_alignment & (h.file_alignment - 1)) ||
      (h.section_alignment & (h.section_alignment - 1)))
    return writer_error(fmt::format("unusual alignments (file {:#x}, section {:#x})", h.file_alignment, h.section_alignment));
  if (uint32_t{h.section_count} + 1 > kMaxSections) return writer_error("no room for another section");
  SectionPlan plan;
  uint64_t end_rva = align_up(h.size_of_headers, h.section_alignment);
  uint32_t first_raw = UINT32_MAX, first_rva = UINT32_MAX;
  for (const auto& s : image.sections()) {
    end_rva = std::max<uint64_t>(end_rva, align_up(uint64_t{s.virtual_address} + s.mapped_size(), h.section_alignment));
    if (s.raw_size) first_raw = std::min(first_raw, s.raw_offset);
    first_rva = std::min(first_rva, s.virtual_address);
  }
  if (end_rva > 0xFFFFFFFF) return writer_error("the image already fills the address space");
  plan.rva = static_cast<uint32_t>(end_rva);

  uint64_t table_end = uint64_t{h.section_table_offset} + uint64_t{h.section_count} * kSectionHeaderSize;
  // The writer keeps the first SizeOfHeaders bytes as the headers and rewrites the section table
  // inside them: a SizeOfHeaders that stops short of the table would drop the DOS and NT headers.
  if (h.size_of_headers < table_end)
    return writer_error(fmt::format("SizeOfHeaders {:#x} ends before the section table does ({:#x})", h.size_of_headers,
                                    table_end));
  uint64_t needed = table_end + kSectionHeaderSize;
  // The slot for the new header must hold nothing today.
  for (uint64_t i = table_end; i < needed && i < image.file().size() && i < h.size_of_headers; ++i)
    if (image.file()[i] != 0) return writer_error("the bytes after the section table are in use");
  uint64_t limit = std::min<uint64_t>(h.size_of_headers, first_raw);
  if (needed > limit) {
    uint64_t grown = align_up(needed, h.file_alignment);
    if (first_raw < h.size_of_headers) return writer_error("a section's data starts inside the headers");
    if (grown > first_rva) return writer_error("the headers cannot grow: the first section starts right after them");
    plan.header_growth = static_cast<uint32_t>(grown - h.size_of_headers);
  }
  plan.raw_offset = align_up(uint64_t{image.file().size()} + plan.header_growth, h.file_alignment);
  return plan;
}

void OutputImage::append_view(std::span<const uint8_t> bytes) {
  if (bytes.empty()) return;
  pieces_.push_back({bytes, SIZE_MAX});
  size_ += bytes.size();
}

void OutputImage::append_owned(std::vector<uint8_t> bytes) {
  if (bytes.empty()) return;
  size_ += bytes.size();
  owned_.push_back(std::move(bytes));
  pieces_.push_back({{}, owned_.size() - 1});
}

void OutputImage::append_zeros(size_t count) { append_owned(std::vector<uint8_t>(count, 0)); }

void OutputImage::append_in_place(uint64_t size, uint64_t word_sum) {
  if (size == 0) return;
  pieces_.push_back({{}, SIZE_MAX, size, word_sum});
  size_ += size;
}

std::span<const uint8_t> OutputImage::bytes_of(const Piece& p) const {
  return p.owned == SIZE_MAX ? p.view : std::span<const uint8_t>(owned_[p.owned]);
}

std::vector<FilePiece> OutputImage::pieces() const {
  std::vector<FilePiece> out;
  out.reserve(pieces_.size());
  for (const auto& p : pieces_) out.push_back({bytes_of(p), p.in_place});
  return out;
}

bool OutputImage::complete() const {
  return std::none_of(pieces_.begin(), pieces_.end(), [](const Piece& p) { return p.in_place != 0; });
}

std::vector<uint8_t> OutputImage::flatten() const {
  std::vector<uint8_t> out;
  out.reserve(size_);
  for (const auto& p : pieces_) {
    if (p.in_place) out.resize(out.size() + p.in_place, 0);
    else out.insert(out.end(), bytes_of(p).begin(), bytes_of(p).end());
  }
  return out;
}

void OutputImage::append(OutputImage other) {
  for (auto& p : other.pieces_) {
    if (p.in_place) append_in_place(p.in_place, p.word_sum);
    else if (p.owned == SIZE_MAX) append_view(p.view);
    else append_owned(std::move(other.owned_[p.owned]));
  }
}

bool OutputImage::overwrite(uint64_t offset, std::span<const uint8_t> bytes) {
  uint64_t start = 0;
  for (const auto& p : pieces_) {
    uint64_t size = p.in_place ? p.in_place : bytes_of(p).size();
    if (offset >= start && offset + bytes.size() <= start + size) {
      if (p.owned == SIZE_MAX) return false;
      std::copy(bytes.begin(), bytes.end(), owned_[p.owned].begin() + (offset - start));
      return true;
    }
    start += size;
  }
  return false;
}

uint64_t word_sum(std::span<const uint8_t> bytes) {
  // Sixteen bytes at a time in four 32-bit lanes (GCC vector extensions: SSE2 on x86-64), each
  // lane taking the two words of its 32 bits; a lane gains under 2^17 a step, so it is folded
  // into the 64-bit sum every 2^14 steps, before it can overflow.
  using Lanes = uint32_t __attribute__((vector_size(16)));
  constexpr size_t kStep = 16, kStepsPerFold = size_t{1} << 14;
  uint64_t sum = 0;
  size_t i = 0;
  while (i + kStep <= bytes.size()) {
    Lanes acc = {0, 0, 0, 0};
    size_t steps = std::min(kStepsPerFold, (bytes.size() - i) / kStep);
    for (size_t k = 0; k < steps; ++k, i += kStep) {
      Lanes v;
      std::memcpy(&v, bytes.data() + i, kStep);
      acc += (v & 0xFFFF) + (v >> 16);
    }
    sum += uint64_t{acc[0]} + acc[1] + acc[2] + acc[3];
  }
  for (; i + 8 <= bytes.size(); i += 8) {
    uint64_t v = load_le<uint64_t>(bytes.data() + i);
    sum += (v & 0xFFFF) + ((v >> 16) & 0xFFFF) + ((v >> 32) & 0xFFFF) + (v >> 48);
  }
  for (; i + 2 <= bytes.size(); i += 2) sum += load_le<uint16_t>(bytes.data() + i);
  if (i < bytes.size()) sum += bytes[i];
  return sum;
}

Expected<uint32_t> OutputImage::checksum(uint64_t checksum_offset, std::span<const uint8_t> base,
                                         uint64_t base_checksum_offset) const {
  // Sum of 16-bit little-endian words with end-around carry, the CheckSum field read as zero,
  // plus the file length (the algorithm of IMAGEHLP's CheckSumMappedFile). Words are summed
  // into a 64-bit accumulator and folded at the end; a piece of odd length passes its last
  // byte on as the low half of the next word.
  //
  // The folded sum of a file is its word sum modulo 0xFFFF (0xFFFF standing for 0, the sum of
  // any real file being more than 0), so a base whose CheckSum C is right for its length L has
  // a word sum of C - L modulo 0xFFFF, and the views of it that are not read add up to that less
  // the words of the base outside them.
  uint64_t base_sum = 0;
  bool incremental = false;
  if (!base.empty() && base_checksum_offset % 2 == 0 && base_checksum_offset + 4 <= base.size()) {
    uint32_t stored = load_le<uint32_t>(base.data() + base_checksum_offset);
    if (stored != 0 && stored >= base.size() && stored - base.size() <= 0xFFFF) {
      incremental = true;
      base_sum = (stored - base.size()) % 0xFFFF;
    }
  }
  std::vector<std::pair<uint64_t, uint64_t>> unread;  // ranges of the base, in pieces not read
  uint64_t sum = 0, position = 0;
  int pending = -1;
  for (const auto& p : pieces_) {
    if (p.in_place) {
      // Written elsewhere with its sum: even in size, and it starts at an even offset when every
      // piece before it has even size, which the writer's alignments guarantee.
      if (pending >= 0 || position % 2 || p.in_place % 2)
        return writer_error(fmt::format("a piece written ahead lies at an odd offset ({:#x})", position));
      sum += p.word_sum;
      position += p.in_place;
      continue;
    }
    std::span<const uint8_t> piece = bytes_of(p);
    auto at = reinterpret_cast<uintptr_t>(piece.data()), base_at = reinterpret_cast<uintptr_t>(base.data());
    if (incremental && p.owned == SIZE_MAX && pending < 0 && position % 2 == 0 && piece.size() % 2 == 0 &&
        at >= base_at && at + piece.size() <= base_at + base.size()) {
      uint64_t from = at - base_at;
      uint64_t to = from + piece.size();
      bool clear_of_fields = (checksum_offset + 4 <= position || checksum_offset >= position + piece.size()) &&
                             (base_checksum_offset + 4 <= from || base_checksum_offset >= to);
      // A base byte counts once: a view of bytes already left unread (the new metadata's copies of
      // unchanged tables, for one) is read.
      bool first_view = std::none_of(unread.begin(), unread.end(), [&](const auto& r) { return from < r.second && r.first < to; });
      if (from % 2 == 0 && clear_of_fields && first_view && !piece.empty()) {
        unread.emplace_back(from, from + piece.size());
        position += piece.size();
        continue;
      }
    }
    size_t i = 0;
    auto byte_at = [&](size_t k) -> uint32_t {
      uint64_t at = position + k;
      return (at >= checksum_offset && at < checksum_offset + 4) ? 0 : piece[k];
    };
    if (pending >= 0 && i < piece.size()) {
      sum += static_cast<uint32_t>(pending) | (byte_at(0) << 8);
      pending = -1;
      i = 1;
    }
    bool clean = checksum_offset + 4 <= position || checksum_offset >= position + piece.size();
    if (clean) {
      size_t even = i + (piece.size() - i) / 2 * 2;
      sum += word_sum(piece.subspan(i, even - i));
      i = even;
    } else {
      for (; i + 2 <= piece.size(); i += 2) sum += byte_at(i) | (byte_at(i + 1) << 8);
    }
    if (i < piece.size()) pending = static_cast<int>(byte_at(i));
    position += piece.size();
  }
  if (pending >= 0) sum += static_cast<uint32_t>(pending);
  if (!unread.empty()) {
    std::sort(unread.begin(), unread.end());
    // The base's words outside the unread ranges (every range starts and ends at an even
    // offset), its CheckSum field read as zero.
    uint64_t rest = 0, at = 0;
    auto add = [&](uint64_t from, uint64_t to) {
      if (from < base_checksum_offset + 4 && to > base_checksum_offset) {
        if (from < base_checksum_offset) rest += word_sum(base.subspan(from, base_checksum_offset - from));
        from = std::max(from, base_checksum_offset + 4);
      }
      if (to > from) rest += word_sum(base.subspan(from, to - from));
    };
    for (const auto& [from, to] : unread) {
      add(at, from);
      at = to;
    }
    add(at, base.size());
    sum += (base_sum + 0xFFFF - rest % 0xFFFF) % 0xFFFF;
    if (sum == 0) sum = 0xFFFF;  // the residue of a file whose word sum is more than 0
  }
  while (sum >> 16) sum = (sum & 0xFFFF) + (sum >> 16);
  return static_cast<uint32_t>(sum + position);
}

namespace {

/// The patches that write `debug` over the input's debug directory.
Status patch_debug_directory(const PeImage& image, const DebugDirectoryEdit& debug, const std::function<uint64_t(uint64_t)>& moved,
                             const std::function<uint32_t(uint32_t)>& moved_rva, std::vector<Patch>& patches) {
  DataDirectory dir = image.directory(kDebugDirectory);
  uint32_t old_count = dir.size / kDebugEntrySize;
  if (debug.entries.size() > old_count)
    return writer_error(fmt::format("the debug directory has room for {} entries, not {}", old_count, debug.entries.size()));
  if (old_count == 0) return ok();
  uint32_t at = CIL_TRY(image.rva_to_offset(dir.rva, old_count * kDebugEntrySize, "debug directory"));
  Patch table{at, std::vector<uint8_t>(size_t{old_count} * kDebugEntrySize, 0)};
  for (size_t i = 0; i < debug.entries.size(); ++i) {
    const auto& e = debug.entries[i];
    uint8_t* p = table.bytes.data() + i * kDebugEntrySize;
    store_le<uint32_t>(p, e.characteristics);
    store_le<uint32_t>(p + 4, e.timestamp);
    store_le<uint16_t>(p + 8, e.major_version);
    store_le<uint16_t>(p + 10, e.minor_version);
    store_le<uint32_t>(p + 12, e.type);
    store_le<uint32_t>(p + 16, e.data_size);
    store_le<uint32_t>(p + 20, e.input_data && e.data_rva ? moved_rva(e.data_rva) : e.data_rva);
    uint64_t file_offset = e.input_data && e.data_file_offset ? moved(e.data_file_offset) : e.data_file_offset;
    store_le<uint32_t>(p + 24, static_cast<uint32_t>(file_offset));
  }
  patches.push_back(std::move(table));
  // The directory names only the entries that remain; none left, no directory.
  uint32_t size = static_cast<uint32_t>(debug.entries.size()) * kDebugEntrySize;
  uint32_t field = image.headers().directories_offset + kDebugDirectory * 8;
  patches.push_back(patch_u32(field, size ? moved_rva(dir.rva) : 0));
  patches.push_back(patch_u32(field + 4, size));
  return ok();
}

}  // namespace

Expected<OutputImage> write_image(const PeImage& image, const SectionPlan& plan, const SectionSpec& spec,
                                  OutputImage data, std::vector<Patch> patches, const DebugDirectoryEdit* debug,
                                  const SectionCuts* cuts) {
  const PeHeaders& h = image.headers();
  uint64_t data_size = data.size();
  std::span<const uint8_t> in = image.file();
  uint32_t growth = plan.header_growth;
  uint32_t old_headers = std::min<uint32_t>(h.size_of_headers, static_cast<uint32_t>(in.size()));
  if (cuts && cuts->empty()) cuts = nullptr;
  uint32_t cut_total = cuts ? cuts->total() : 0;
  // Offsets in the original file map to the new file by adding the growth past the headers, less
  // the bytes cut before them.
  auto moved = [&](uint64_t offset) {
    uint64_t kept = cuts ? cuts->offset(offset) : offset;
    return offset >= old_headers ? kept + growth : kept;
  };
  auto moved_rva = [&](uint32_t rva) { return cuts ? cuts->rva(rva) : rva; };
  std::optional<DebugDirectoryEdit> kept_debug;
  if (cuts && !debug) {
    // The entries stay as they are, but their data may have moved.
    auto entries = read_debug_directory(image);
    if (!entries) return entries.error();
    kept_debug.emplace();
    for (const auto& e : *entries) {
      DebugDirectoryEdit::Entry entry;
      static_cast<DebugEntryHeader&>(entry) = e;
      kept_debug->entries.push_back(entry);
    }
    debug = &*kept_debug;
  }
  if (cuts) {
    // The image's own pointers into the cut section; the caller's changes win where both write.
    for (const auto& p : cuts->patches()) {
      bool taken = std::any_of(patches.begin(), patches.end(), [&](const Patch& q) {
        return p.offset < q.offset + q.bytes.size() && q.offset < p.offset + p.bytes.size();
      });
      if (!taken) patches.push_back(p);
    }
  }

  // The headers are rewritten in a buffer of their own.
  std::vector<uint8_t> headers(in.begin(), in.begin() + old_headers);
  headers.resize(old_headers + growth, 0);
  auto in_headers = [&](uint64_t offset, size_t size) { return offset + size <= old_headers; };

  // Debug entries point at their data by file offset: when the data moves, so must they.
  if (debug) {
    CIL_TRY(patch_debug_directory(image, *debug, moved, moved_rva, patches));
  } else if (growth) {
    auto entries = read_debug_directory(image);
    if (entries) {
      for (const auto& e : *entries)
        if (e.data_file_offset)
          patches.push_back(patch_u32(e.entry_offset + 24, static_cast<uint32_t>(moved(e.data_file_offset))));
    }
  }
  std::vector<Patch> body_patches;
  for (auto& p : patches) {
    if (in_headers(p.offset, p.bytes.size())) std::copy(p.bytes.begin(), p.bytes.end(), headers.begin() + p.offset);
    else if (p.offset >= old_headers && uint64_t{p.offset} + p.bytes.size() <= in.size()) body_patches.push_back(std::move(p));
    else return writer_error(fmt::format("patch at {:#x} straddles the headers or lies outside the file", p.offset));
  }
  std::sort(body_patches.begin(), body_patches.end(), [](const Patch& a, const Patch& b) { return a.offset < b.offset; });
  for (size_t i = 1; i < body_patches.size(); ++i)
    if (body_patches[i].offset < body_patches[i - 1].offset + body_patches[i - 1].bytes.size())
      return writer_error("overlapping patches");

  std::vector<std::pair<uint64_t, uint64_t>> cut_ranges;
  if (cuts) cut_ranges = cuts->file_ranges();
  for (const auto& p : body_patches)
    for (const auto& [from, to] : cut_ranges)
      if (p.offset < to && p.offset + p.bytes.size() > from) return writer_error(fmt::format("patch at {:#x} lies in bytes cut", p.offset));

  // Section table: shift raw pointers, then add the new header. The cut section shrinks in memory
  // too (Mono's verifier refuses a SizeOfRawData under VirtualSize), leaving a gap of addresses
  // before the next section, which keeps its RVA (the loaders ask only that sections ascend).
  for (size_t i = 0; i < image.sections().size(); ++i) {
    const auto& s = image.sections()[i];
    uint32_t at = h.section_table_offset + static_cast<uint32_t>(i) * kSectionHeaderSize;
    if (cuts && i == cuts->section()) {
      store_le<uint32_t>(headers.data() + at + 8, s.mapped_size() - cut_total);
      store_le<uint32_t>(headers.data() + at + 16, s.raw_size - cut_total);
      if (s.characteristics & kSectionCode)
        store_le<uint32_t>(headers.data() + h.optional_header_offset + kOptSizeOfCode, h.size_of_code - std::min(h.size_of_code, cut_total));
    }
    if (s.raw_offset) store_le<uint32_t>(headers.data() + at + 20, static_cast<uint32_t>(moved(s.raw_offset)));
  }
  uint64_t body_end = in.size() + growth - cut_total;
  uint64_t raw_offset = plan.raw_offset;
  if (raw_offset != align_up(body_end, h.file_alignment)) return writer_error("the section plan does not fit this image");
  uint64_t raw_size = align_up(std::max<uint64_t>(data_size, 1), h.file_alignment);
  if (raw_offset + raw_size > 0x7FFFFFFF || data_size > 0xFFFFFFFF) return writer_error("the output would exceed 2 GiB");
  uint32_t header_at = h.section_table_offset + h.section_count * kSectionHeaderSize;
  uint8_t* sh = headers.data() + header_at;
  std::fill(sh, sh + kSectionHeaderSize, 0);
  for (size_t i = 0; i < 8 && spec.name[i]; ++i) sh[i] = static_cast<uint8_t>(spec.name[i]);
  store_le<uint32_t>(sh + 8, static_cast<uint32_t>(data_size));
  store_le<uint32_t>(sh + 12, plan.rva);
  store_le<uint32_t>(sh + 16, static_cast<uint32_t>(raw_size));
  store_le<uint32_t>(sh + 20, static_cast<uint32_t>(raw_offset));
  store_le<uint32_t>(sh + 36, spec.characteristics);
  store_le<uint16_t>(headers.data() + h.coff_offset + 2, static_cast<uint16_t>(h.section_count + 1));

  uint32_t opt = h.optional_header_offset;
  uint64_t image_end = align_up(uint64_t{plan.rva} + std::max<uint64_t>(data_size, 1), h.section_alignment);
  store_le<uint32_t>(headers.data() + opt + kOptSizeOfImage, static_cast<uint32_t>(image_end));
  store_le<uint32_t>(headers.data() + opt + kOptSizeOfHeaders, h.size_of_headers + growth);
  store_le<uint32_t>(headers.data() + opt + kOptSizeOfInitializedData,
                     h.size_of_initialized_data + static_cast<uint32_t>(raw_size));
  if (h.directory_count > kSecurityDirectory && h.directories[kSecurityDirectory].size) {
    uint32_t dir = h.directories_offset + kSecurityDirectory * 8;
    store_le<uint32_t>(headers.data() + dir, 0);
    store_le<uint32_t>(headers.data() + dir + 4, 0);
  }
  store_le<uint32_t>(headers.data() + opt + kOptCheckSum, 0);

  OutputImage out;
  out.append_owned(std::move(headers));
  uint64_t at = old_headers;
  size_t next_cut = 0;
  // The input from `at` up to `to`, less the cuts in between.
  auto copy_to = [&](uint64_t to) {
    for (; next_cut < cut_ranges.size() && cut_ranges[next_cut].second <= to; ++next_cut) {
      out.append_view(in.subspan(at, cut_ranges[next_cut].first - at));
      at = cut_ranges[next_cut].second;
    }
    out.append_view(in.subspan(at, to - at));
    at = to;
  };
  for (auto& p : body_patches) {
    copy_to(p.offset);
    at = p.offset + p.bytes.size();
    out.append_owned(std::move(p.bytes));
  }
  copy_to(in.size());
  out.append_zeros(raw_offset - body_end);
  out.append(std::move(data));
  out.append_zeros(raw_size - data_size);

  if (h.checksum != 0) {
    uint8_t checksum[4];
    // The input's CheckSum field is where the output's is: the headers keep their layout.
    store_le<uint32_t>(checksum, CIL_TRY(out.checksum(opt + kOptCheckSum, in, opt + kOptCheckSum)));
    out.overwrite(opt + kOptCheckSum, checksum);  // inside the headers piece, which is owned
  }
  return out;
}

}  // namespace cil::pe
