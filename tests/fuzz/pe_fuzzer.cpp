// Fuzz target: the PE/COFF headers, section table and RVA mapping, the CLI header, the
// ReadyToRun header and the debug directory. Every reader handed out must lie in the file.
#include <string>

#include "fuzz_check.h"
#include "pe/cli_header.h"
#include "pe/debug_directory.h"
#include "pe/pe_image.h"

namespace {

using namespace cil;

void check_inside(std::span<const uint8_t> file, const Expected<ByteReader>& r) {
  if (!r) return;
  const uint8_t* begin = r->data().data();
  CIL_FUZZ_CHECK(r->size() == 0 || (begin >= file.data() && begin + r->size() <= file.data() + file.size()),
                 "a reader lies outside the file");
  CIL_FUZZ_CHECK(r->size() == 0 || r->base_offset() == static_cast<uint64_t>(begin - file.data()),
                 "a reader's file offset does not match its bytes");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::span<const uint8_t> file(data, size);
  auto image = pe::PeImage::parse(file);
  if (!image) return 0;
  CIL_FUZZ_CHECK(image->sections().size() <= pe::kMaxSections, "more sections than the cap");

  for (const auto& d : image->headers().directories) {
    check_inside(file, image->reader_at(d.rva, d.size, "directory"));
    check_inside(file, image->reader_from(d.rva, "directory"));
  }
  for (const auto& s : image->sections()) {
    check_inside(file, image->reader_at(s.virtual_address, s.raw_size, "section"));
    check_inside(file, image->reader_from(s.virtual_address, "section"));
    check_inside(file, image->reader_from(s.virtual_address + s.mapped_size() - 1, "section end"));
  }
  (void)pe::decode_machine(image->headers().machine);

  auto debug = pe::read_debug_directory(*image);
  if (debug) CIL_FUZZ_CHECK(debug->size() <= pe::kMaxDebugEntries, "more debug entries than the cap");

  auto cli = pe::read_cli_header(*image);
  if (!cli) return 0;
  (void)pe::read_ready_to_run_header(*image, *cli);
  check_inside(file, image->reader_at(cli->metadata.rva, cli->metadata.size, "metadata root"));
  check_inside(file, image->reader_from(cli->entry_point, "entry point"));
  return 0;
}
