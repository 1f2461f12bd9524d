// Planning the cuts of dead bytes from the metadata's section, and the pointers that follow them.
#include "pe/section_cuts.h"

#include <algorithm>
#include <optional>

#include "pe/debug_directory.h"

namespace cil::pe {

namespace {

// Caps on what is walked (hostile files): import descriptors, thunks per table, relocations.
constexpr uint32_t kMaxImportDescriptors = 256;
constexpr uint32_t kMaxThunks = 65536;
constexpr uint32_t kMaxRelocations = 1u << 20;
// A cut's size keeps what follows at the same address modulo this: fat bodies need 4, static
// data 8 (RuntimeHelpers.CreateSpan); 16 leaves room.
constexpr uint32_t kCutGranule = 16;
constexpr uint32_t kOptAddressOfEntryPoint = 16;
constexpr uint32_t kCliResources = 24;
constexpr uint32_t kCliStrongNameSignature = 32;
constexpr uint16_t kRelocAbsolute = 0, kRelocHighLow = 3, kRelocDir64 = 10;
constexpr uint32_t kRelocPage = 0x1000;

/// A pointer the image holds: `width` bytes at input offset `at`, an RVA (or a VA with `va`).
struct Pointer {
  uint32_t at = 0;
  uint8_t width = 4;
  uint64_t value = 0;
  bool va = false;
};

struct Relocation {
  uint32_t rva = 0;
  uint16_t type = 0;
};

/// Everything the image itself points at in the section, and how to read it.
struct Pointers {
  std::vector<Pointer> fields;
  std::vector<RvaRange> live;          ///< ranges that must stay whole
  std::vector<Relocation> relocations;
};

/// Reads `width` bytes at `rva` as a pointer field; nullopt when they are not in the file.
std::optional<Pointer> read_field(const PeImage& image, uint32_t rva, uint8_t width) {
  auto at = image.rva_to_offset(rva, width, "pointer");
  if (!at) return std::nullopt;
  const uint8_t* p = image.file().data() + *at;
  return Pointer{*at, width, width == 8 ? load_le<uint64_t>(p) : load_le<uint32_t>(p), false};
}

/// The import descriptors' names and thunk tables (PE/COFF "The .idata Section"). False when they
/// do not read cleanly or are bound (a bound IAT holds addresses, not RVAs).
bool read_imports(const PeImage& image, Pointers& out) {
  DataDirectory dir = image.directory(kImportDirectory);
  if (dir.rva == 0) return true;
  uint8_t width = image.headers().pe32_plus ? 8 : 4;
  uint64_t ordinal_flag = width == 8 ? uint64_t{1} << 63 : uint64_t{1} << 31;
  for (uint32_t n = 0;; ++n) {
    if (n == kMaxImportDescriptors) return false;
    uint32_t at_rva = dir.rva + n * 20;
    auto r = image.reader_at(at_rva, 20, "import descriptor");
    if (!r) return false;
    uint32_t lookup = *r->u32(), stamp = *r->u32(), forwarder = *r->u32(), name = *r->u32(), iat = *r->u32();
    if (lookup == 0 && stamp == 0 && forwarder == 0 && name == 0 && iat == 0) {
      out.live.push_back({dir.rva, at_rva + 20});
      return true;
    }
    if (stamp != 0) return false;
    for (uint32_t field : {0u, 12u, 16u}) {
      auto p = read_field(image, at_rva + field, 4);
      if (!p) return false;
      out.fields.push_back(*p);
    }
    for (uint32_t table : {lookup, iat}) {
      if (table == 0) continue;
      for (uint32_t k = 0;; ++k) {
        if (k == kMaxThunks) return false;
        auto p = read_field(image, table + k * width, width);
        if (!p) return false;
        if (p->value == 0) {
          out.live.push_back({table, table + (k + 1) * width});
          break;
        }
        if (!(p->value & ordinal_flag)) out.fields.push_back(*p);
      }
    }
  }
}

/// The base relocations (PE/COFF "The .reloc Section"): each HIGHLOW or DIR64 location, whose
/// address is a pointer too. False for other kinds, or blocks that do not read cleanly.
bool read_relocations(const PeImage& image, Pointers& out) {
  DataDirectory dir = image.directory(kBaseRelocDirectory);
  if (dir.rva == 0 && dir.size == 0) return true;
  auto r = image.reader_at(dir.rva, dir.size, "base relocations");
  if (!r) return false;
  while (r->remaining() >= 8) {
    uint32_t page = *r->u32(), size = *r->u32();
    if (size < 8 || size % 2 || size - 8 > r->remaining()) return false;
    for (uint32_t i = 0; i < (size - 8) / 2; ++i) {
      uint16_t entry = *r->u16();
      uint16_t type = entry >> 12;
      if (type == kRelocAbsolute) continue;
      if (type != kRelocHighLow && type != kRelocDir64) return false;
      if (out.relocations.size() == kMaxRelocations) return false;
      uint32_t rva = page + (entry & 0xFFF);
      out.relocations.push_back({rva, type});
      auto p = read_field(image, rva, type == kRelocDir64 ? 8 : 4);
      if (!p) return false;
      p->va = true;
      out.fields.push_back(*p);
      out.live.push_back({rva, rva + p->width});
    }
  }
  return r->at_end();
}

/// The ranges of `dead` outside every range of `live` (both sorted by start).
std::vector<RvaRange> subtract(const std::vector<RvaRange>& dead, const std::vector<RvaRange>& live) {
  std::vector<RvaRange> out;
  size_t first_live = 0;
  for (RvaRange d : dead) {
    while (first_live < live.size() && live[first_live].to <= d.from) ++first_live;
    uint32_t from = d.from;
    for (size_t i = first_live; i < live.size() && live[i].from < d.to; ++i) {
      if (live[i].to <= from) continue;
      if (live[i].from > from) out.push_back({from, live[i].from});
      from = std::max(from, live[i].to);
      if (from >= d.to) break;
    }
    if (from < d.to) out.push_back({from, d.to});
  }
  return out;
}

/// The relocation blocks for `relocations` (sorted), each padded to a multiple of 4 bytes.
std::vector<uint8_t> encode_relocations(const std::vector<Relocation>& relocations) {
  std::vector<uint8_t> out;
  for (size_t i = 0; i < relocations.size();) {
    uint32_t page = relocations[i].rva & ~(kRelocPage - 1);
    size_t start = out.size();
    out.resize(start + 8);
    for (; i < relocations.size() && (relocations[i].rva & ~(kRelocPage - 1)) == page; ++i) {
      uint16_t entry = static_cast<uint16_t>(relocations[i].type << 12 | (relocations[i].rva & (kRelocPage - 1)));
      out.push_back(static_cast<uint8_t>(entry));
      out.push_back(static_cast<uint8_t>(entry >> 8));
    }
    if ((out.size() - start) % 4) out.resize(out.size() + 2, 0);  // an ABSOLUTE entry
    store_le<uint32_t>(out.data() + start, page);
    store_le<uint32_t>(out.data() + start + 4, static_cast<uint32_t>(out.size() - start));
  }
  return out;
}

Patch patch_width(uint32_t at, uint8_t width, uint64_t value) {
  Patch p{at, std::vector<uint8_t>(width)};
  if (width == 8) store_le<uint64_t>(p.bytes.data(), value);
  else store_le<uint32_t>(p.bytes.data(), static_cast<uint32_t>(value));
  return p;
}

}  // namespace

bool SectionCuts::cut(uint32_t rva) const {
  return std::any_of(ranges_.begin(), ranges_.end(), [&](const RvaRange& r) { return rva >= r.from && rva < r.to; });
}

uint32_t SectionCuts::rva(uint32_t rva) const {
  if (rva < section_rva_ || rva >= section_end_) return rva;
  uint32_t before = 0;
  for (const auto& r : ranges_)
    if (r.to <= rva) before += r.to - r.from;
  return rva - before;
}

uint64_t SectionCuts::offset(uint64_t offset) const {
  uint64_t before = 0;
  for (const auto& r : ranges_)
    if (raw_offset_ + uint64_t{r.to - section_rva_} <= offset) before += r.to - r.from;
  return offset - before;
}

std::vector<std::pair<uint64_t, uint64_t>> SectionCuts::file_ranges() const {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  for (const auto& r : ranges_) out.emplace_back(raw_offset_ + uint64_t{r.from - section_rva_}, raw_offset_ + uint64_t{r.to - section_rva_});
  return out;
}

SectionCuts plan_cuts(const PeImage& image, const CliHeader& cli, std::vector<RvaRange> dead, std::span<const uint32_t> live,
                      const DroppedPointers& dropped) {
  SectionCuts none;
  const PeHeaders& h = image.headers();
  const SectionHeader* s = image.section_for_rva(cli.metadata.rva);
  if (!s || h.file_alignment < kCutGranule || h.file_alignment % kCutGranule || s->raw_size == 0) return none;
  // Native code, a native entry point and the runtime's own tables may point anywhere.
  if (!cli.il_only() || cli.native_entry_point() || cli.vtable_fixups.rva || cli.export_address_table_jumps.rva ||
      cli.code_manager_table.rva || (cli.managed_native_header.rva && !dropped.managed_native_header))
    return none;
  auto kept = [&](uint32_t index) {
    return std::find(dropped.directories.begin(), dropped.directories.end(), index) == dropped.directories.end();
  };
  uint32_t begin = s->virtual_address;
  uint64_t end = uint64_t{begin} + s->mapped_size();
  uint64_t raw_end = uint64_t{begin} + std::min(s->raw_size, s->mapped_size());
  auto inside = [&](uint64_t rva) { return rva >= begin && rva < end; };

  Pointers pointers;
  for (uint32_t i = 0; i < std::min<uint32_t>(h.directory_count, kDataDirectoryCount); ++i) {
    DataDirectory d = h.directories[i];
    if (i == kSecurityDirectory || !kept(i) || !inside(d.rva)) continue;
    if (i != kImportDirectory && i != kDebugDirectory && i != kIatDirectory && i != kClrDirectory) return none;
    pointers.live.push_back({d.rva, d.rva + std::max<uint32_t>(d.size, 1)});
  }
  if (h.entry_point_rva) pointers.live.push_back({h.entry_point_rva, h.entry_point_rva + 1});
  for (DataDirectory d : {cli.resources, cli.strong_name_signature})
    if (d.rva) pointers.live.push_back({d.rva, d.rva + std::max<uint32_t>(d.size, 1)});
  auto debug = read_debug_directory(image);
  if (!debug) return none;
  for (const auto& e : *debug) {
    if (e.data_rva) pointers.live.push_back({e.data_rva, e.data_rva + std::max<uint32_t>(e.data_size, 1)});
    // Data named only by its file offset must stay where its offset says.
    if (e.data_file_offset && e.data_file_offset >= s->raw_offset && e.data_file_offset - s->raw_offset < s->raw_size) {
      uint32_t rva = begin + (e.data_file_offset - s->raw_offset);
      pointers.live.push_back({rva, rva + std::max<uint32_t>(e.data_size, 1)});
    }
  }
  if ((kept(kImportDirectory) && !read_imports(image, pointers)) || (kept(kBaseRelocDirectory) && !read_relocations(image, pointers)))
    return none;
  for (const auto& f : pointers.fields) {
    uint64_t rva = f.va ? f.value - h.image_base : f.value;
    if (f.va && f.value < h.image_base) continue;
    if (inside(rva)) pointers.live.push_back({static_cast<uint32_t>(rva), static_cast<uint32_t>(rva) + 1});
  }
  pointers.live.reserve(pointers.live.size() + live.size());
  for (uint32_t p : live) pointers.live.push_back({p, p + 1});
  auto by_start = [](const RvaRange& a, const RvaRange& b) { return a.from < b.from || (a.from == b.from && a.to < b.to); };
  std::sort(pointers.live.begin(), pointers.live.end(), by_start);

  // Dead ranges inside the section's raw data; neighbours a fat body's padding apart (under 4
  // bytes) are one range, and whatever a pointer names is taken out again.
  // In place: this runs at the peak of an instrument run (every new body built), where a copy
  // per step of one range per rewritten method showed in the memory test.
  size_t clipped = 0;
  for (RvaRange d : dead) {
    d.from = std::max(d.from, begin);
    d.to = static_cast<uint32_t>(std::min<uint64_t>(d.to, raw_end));
    if (d.from < d.to) dead[clipped++] = d;
  }
  dead.resize(clipped);
  std::sort(dead.begin(), dead.end(), by_start);
  size_t kept_ranges = 0;
  for (RvaRange d : dead) {
    if (kept_ranges && d.from <= dead[kept_ranges - 1].to + 3) dead[kept_ranges - 1].to = std::max(dead[kept_ranges - 1].to, d.to);
    else dead[kept_ranges++] = d;
  }
  dead.resize(kept_ranges);
  const std::vector<RvaRange>& merged = dead;
  std::vector<RvaRange> cuts;
  uint64_t total = 0;
  for (RvaRange d : subtract(merged, pointers.live)) {
    d.to = d.from + (d.to - d.from) / kCutGranule * kCutGranule;
    if (d.to == d.from) continue;
    cuts.push_back(d);
    total += d.to - d.from;
  }
  // The sections after keep their file alignment: the last cuts give back the excess.
  for (uint64_t excess = total % h.file_alignment; excess && !cuts.empty();) {
    uint32_t take = static_cast<uint32_t>(std::min<uint64_t>(excess, cuts.back().to - cuts.back().from));
    cuts.back().to -= take;
    excess -= take;
    total -= take;
    if (cuts.back().to == cuts.back().from) cuts.pop_back();
  }
  if (cuts.empty()) return none;

  SectionCuts out;
  out.section_ = static_cast<size_t>(s - image.sections().data());
  out.section_rva_ = begin;
  out.section_end_ = static_cast<uint32_t>(end);
  out.raw_offset_ = s->raw_offset;
  out.total_ = static_cast<uint32_t>(total);
  out.ranges_ = std::move(cuts);

  // The pointers follow.
  std::vector<Patch> patches;
  for (uint32_t i : {uint32_t{kImportDirectory}, uint32_t{kIatDirectory}, uint32_t{kClrDirectory}}) {
    DataDirectory d = i < h.directory_count && kept(i) ? h.directories[i] : DataDirectory{};
    if (out.rva(d.rva) != d.rva) patches.push_back(patch_u32(h.directories_offset + i * 8, out.rva(d.rva)));
  }
  // Fields whose value does not move are left as they are.
  auto follow = [&](uint32_t at, uint32_t rva) {
    if (out.rva(rva) != rva) patches.push_back(patch_u32(at, out.rva(rva)));
  };
  follow(h.optional_header_offset + kOptAddressOfEntryPoint, h.entry_point_rva);
  follow(cli.file_offset + kCliResources, cli.resources.rva);
  follow(cli.file_offset + kCliStrongNameSignature, cli.strong_name_signature.rva);
  for (const auto& f : pointers.fields) {
    if (f.va && f.value < h.image_base) continue;
    uint64_t rva = f.va ? f.value - h.image_base : f.value;
    if (!inside(rva)) continue;
    uint64_t moved = out.rva(static_cast<uint32_t>(rva)) + (f.va ? h.image_base : 0);
    if (moved != f.value) patches.push_back(patch_width(f.at, f.width, moved));
  }
  // Relocations whose location moved: the blocks are written again, in the same space.
  if (kept(kBaseRelocDirectory) && std::any_of(pointers.relocations.begin(), pointers.relocations.end(), [&](const Relocation& r) { return out.rva(r.rva) != r.rva; })) {
    for (auto& r : pointers.relocations) r.rva = out.rva(r.rva);
    std::sort(pointers.relocations.begin(), pointers.relocations.end(), [](const Relocation& a, const Relocation& b) { return a.rva < b.rva; });
    std::vector<uint8_t> blocks = encode_relocations(pointers.relocations);
    DataDirectory dir = image.directory(kBaseRelocDirectory);
    auto at = image.rva_to_offset(dir.rva, dir.size, "base relocations");
    if (!at || blocks.size() > dir.size) return none;
    uint32_t size = static_cast<uint32_t>(blocks.size());
    blocks.resize(dir.size, 0);
    patches.push_back({*at, std::move(blocks)});
    patches.push_back(patch_u32(h.directories_offset + kBaseRelocDirectory * 8 + 4, size));
  }
  // A field the relocations name and the blocks themselves never overlap in a sane image; when
  // two changes would, nothing is cut.
  std::sort(patches.begin(), patches.end(), [](const Patch& a, const Patch& b) { return a.offset < b.offset; });
  for (size_t i = 1; i < patches.size(); ++i)
    if (patches[i].offset < patches[i - 1].offset + patches[i - 1].bytes.size()) return none;
  for (const auto& p : patches)
    for (const auto& [from, to] : out.file_ranges())
      if (p.offset < to && p.offset + p.bytes.size() > from) return none;
  out.patches_ = std::move(patches);
  return out;
}

}  // namespace cil::pe
