// Glob patterns, identifier quoting, string escaping, text made printable and cut, JSON quoting,
// and the file an error names.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "cli/output/json_writer.h"
#include "metadata/heaps.h"
#include "metadata/name_pattern.h"
#include "metadata/printer.h"
#include "metadata/text_encoding.h"
#include "pe/image_writer.h"

namespace cil {
namespace {

TEST(Glob, Matches) {
  using md::glob_match;
  EXPECT_TRUE(glob_match("*", ""));
  EXPECT_TRUE(glob_match("*", "Ns.Type::M"));
  EXPECT_TRUE(glob_match("Ns.*::M", "Ns.Outer/Inner::M"));
  EXPECT_TRUE(glob_match("*::.ctor", "A.B::.ctor"));
  EXPECT_FALSE(glob_match("*::.ctor", "A.B::.cctor"));
  EXPECT_TRUE(glob_match("A?C", "ABC"));
  EXPECT_FALSE(glob_match("A?C", "AC"));
  EXPECT_TRUE(glob_match("*a*b*c*", "xxaxxbxxcxx"));
  EXPECT_FALSE(glob_match("*a*b*c*d", "xxaxxbxxcxx"));
  EXPECT_TRUE(glob_match("Program::Main", "Program::Main"));
  EXPECT_FALSE(glob_match("Program::Main", "Program::MainX"));
  // Pathological patterns stay fast (the matcher is O(n*m) without recursion).
  std::string text(2000, 'a');
  EXPECT_FALSE(glob_match("*a*a*a*a*a*a*a*a*b", text));
}

TEST(Glob, Filter) {
  md::MethodFilter f;
  EXPECT_TRUE(f.selects("X::Y"));
  f.include = {"App.*"};
  f.exclude = {"*::get_*"};
  EXPECT_TRUE(f.selects("App.Foo::Bar"));
  EXPECT_FALSE(f.selects("App.Foo::get_Bar"));
  EXPECT_FALSE(f.selects("Lib.Foo::Bar"));
}

TEST(Glob, Assemblies) {
  // Folder mode's rule, shared with the profiler: the file name, or the whole path for a glob
  // with a '/'; fnmatch's classes; '*' crosses '/'.
  EXPECT_TRUE(md::assembly_glob_match({"Lib.dll"}, "/app/bin/Lib.dll"));
  EXPECT_FALSE(md::assembly_glob_match({"Lib.dll"}, "/app/bin/MyLib.dll"));
  EXPECT_TRUE(md::assembly_glob_match({"My[AL]*.dll"}, "sub/MyLib.dll"));
  EXPECT_TRUE(md::assembly_glob_match({"*/bin/Lib.dll"}, "/app/bin/Lib.dll"));
  EXPECT_FALSE(md::assembly_glob_match({"bin/Lib.dll"}, "/app/bin/Lib.dll"));
  EXPECT_FALSE(md::assembly_glob_match({}, "Lib.dll"));
  md::AssemblyFilter f;
  EXPECT_TRUE(f.empty());
  EXPECT_TRUE(f.selects("/x/App.dll"));
  f.skip_assemblies = {"*.Tests.dll"};
  EXPECT_TRUE(f.selects("/x/App.dll"));
  EXPECT_FALSE(f.selects("/x/App.Tests.dll"));
  f.assemblies = {"App*"};
  EXPECT_FALSE(f.selects("/x/Lib.dll"));
  EXPECT_TRUE(f.selects("/x/App.dll"));
  EXPECT_FALSE(f.selects("/x/App.Tests.dll"));
}

TEST(Printer, QuoteIdentifier) {
  EXPECT_EQ(md::quote_identifier("Main"), "Main");
  EXPECT_EQ(md::quote_identifier(".ctor"), ".ctor");
  EXPECT_EQ(md::quote_identifier("List`1"), "List`1");
  EXPECT_EQ(md::quote_identifier("<Main>$"), "'<Main>$'");
  EXPECT_EQ(md::quote_identifier("it's"), "'it\\'s'");
  EXPECT_EQ(md::quote_identifier("1st"), "'1st'");
  EXPECT_EQ(md::quote_identifier(""), "''");
  // Control characters never reach the text raw, quoted or not.
  EXPECT_EQ(md::quote_identifier("a\x1b[2Jb"), "'a\\x1B[2Jb'");
  EXPECT_EQ(md::quote_identifier("x\ny"), "'x\\x0Ay'");
  EXPECT_EQ(md::quote_identifier("\xc3\xa9t\xc3\xa9"), "'\xc3\xa9t\xc3\xa9'");  // été: valid UTF-8 stays
}

TEST(Text, PrintableEscapesWhatATerminalWouldObey) {
  using md::printable;
  EXPECT_EQ(printable("Ns.Type::Method"), "Ns.Type::Method");
  EXPECT_EQ(printable("a\x1b[31mred\x1b[0m"), "a\\x1B[31mred\\x1B[0m");  // colors
  EXPECT_EQ(printable("\x1b]0;title\x07"), "\\x1B]0;title\\x07");         // the window title
  EXPECT_EQ(printable("line\nbreak\r\t\v\x1f\x7f"), "line\\x0Abreak\\x0D\\x09\\x0B\\x1F\\x7F");
  EXPECT_EQ(printable("nel\xc2\x85" "csi\xc2\x9b"), "nel\\u0085csi\\u009B");          // C1 controls
  EXPECT_EQ(printable("evil\xe2\x80\xaetxt.exe"), "evil\\u202Etxt.exe");           // right-to-left override
  EXPECT_EQ(printable("ls\xe2\x80\xa8x"), "ls\\u2028x");                              // line separator
  EXPECT_EQ(printable("bad\xff\xc3"), "bad\\xFF\\xC3");                               // not UTF-8
  EXPECT_EQ(printable("\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80"), "\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80");  // é 中 😀
  EXPECT_EQ(printable("back\\slash"), "back\\slash");                                // as it is
}

TEST(Text, PrintableCutsWithinItsCap) {
  using md::printable;
  EXPECT_EQ(printable("abcdef", 6), "abcdef");
  EXPECT_EQ(printable("abcdefg", 6), "abc...");
  // Never inside an escape or a character: \x1B is 4 bytes, 中 3.
  EXPECT_EQ(printable("ab\x1b" "cdef", 8), "ab...");
  EXPECT_EQ(printable("ab\xe4\xb8\xad" "cdefgh", 8), "ab\xe4\xb8\xad...");
  EXPECT_EQ(printable("ab\xe4\xb8\xad" "cdefgh", 7), "ab...");
  for (size_t cap = 3; cap < 40; ++cap) EXPECT_LE(printable(std::string(100, '\x01'), cap).size(), cap);
}

TEST(Text, ClipTextAndList) {
  EXPECT_EQ(md::clip_text("abcdef", 6), "abcdef");
  EXPECT_EQ(md::clip_text("abcdefg", 6), "abcdef...");
  EXPECT_EQ(md::clip_text("ab\xe4\xb8\xad", 4), "ab...");  // not inside 中
  std::vector<std::string> names;
  for (int i = 0; i < 5000; ++i) names.push_back("Ns.T" + std::to_string(i));
  std::string list = md::clip_list(names, 40);
  EXPECT_EQ(list, "Ns.T0, Ns.T1, Ns.T2, Ns.T3, Ns.T4, Ns.T5, ... (4994 more)");
  EXPECT_EQ(md::clip_list({"a", "b"}, 40), "a, b");
  EXPECT_EQ(md::clip_list({std::string(100, 'x')}, 10), "xxxxxxxxxx...");
  EXPECT_LE(md::clip_list(names).size(), md::kMaxQuotedText + 20);
}

TEST(Printer, EscapeString) {
  EXPECT_EQ(md::escape_string(u"a\"b\\c\n"), "a\\\"b\\\\c\\n");
  EXPECT_EQ(md::escape_string(u"\u00e9\u0001"), "\\u00E9\\u0001");
}

TEST(Json, QuoteAndStructure) {
  EXPECT_EQ(md::json_quote("a\"\\\n\x01"), "\"a\\\"\\\\\\n\\u0001\"");
  cli::JsonWriter j;
  j.begin_object();
  j.key("a").value(1);
  j.key("b").begin_array(true);
  j.value("x");
  j.null();
  j.end_array();
  j.key("c").begin_object();
  j.end_object();
  j.end_object();
  EXPECT_EQ(j.text().str(), "{\n  \"a\": 1,\n  \"b\": [\"x\", null],\n  \"c\": {}\n}\n");
}

}  // namespace
}  // namespace cil

namespace cil {
namespace {

TEST(Json, InvalidUtf8BecomesReplacementCharacters) {
  EXPECT_EQ(md::json_quote("a\xff" "b"), "\"a\xEF\xBF\xBD" "b\"");
  EXPECT_EQ(md::json_quote("\xC3\xA9"), "\"\xC3\xA9\"") << "valid UTF-8 passes through";
  EXPECT_EQ(md::json_quote("\xE2\x82"), "\"\xEF\xBF\xBD\xEF\xBF\xBD\"") << "truncated sequence";
  EXPECT_EQ(md::json_quote("\xED\xA0\x80"), "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"") << "surrogate";
}

TEST(Error, InFileNamesTheFileNearestTheFault) {
  Error e = make_error(ErrorKind::Io, "", "cannot create a temporary file beside it: No such file or directory");
  EXPECT_EQ(e.file, "");
  e = in_file(std::move(e), "out.dll");
  EXPECT_EQ(e.file, "out.dll");
  // A job about the input that failed writing the output stays about the output.
  e = in_file(std::move(e), "in.dll");
  EXPECT_EQ(e.file, "out.dll");
  // to_string is what follows the file name; it does not repeat it.
  EXPECT_EQ(e.to_string(), "cannot create a temporary file beside it: No such file or directory");
}

}  // namespace
}  // namespace cil

TEST(Checksum, WordSumMatchesTheWordByWordSum) {
  // The vector loop folds its 32-bit lanes every 256 KB: lengths around that and the odd tails,
  // with all-ones words (the largest a lane can take) and a pseudo-random fill.
  auto naive = [](const std::vector<uint8_t>& b) {
    uint64_t sum = 0;
    size_t i = 0;
    for (; i + 2 <= b.size(); i += 2) sum += b[i] | (uint32_t{b[i + 1]} << 8);
    if (i < b.size()) sum += b[i];
    return sum;
  };
  uint32_t x = 12345;
  for (size_t size : {size_t{0}, size_t{1}, size_t{15}, size_t{16}, size_t{17}, size_t{31}, size_t{262143}, size_t{262144},
                      size_t{262161}, size_t{1} << 21 | 9}) {
    std::vector<uint8_t> ones(size, 0xFF), random(size);
    for (auto& b : random) b = static_cast<uint8_t>((x = x * 1103515245 + 12345) >> 16);
    EXPECT_EQ(cil::pe::word_sum(ones), naive(ones)) << size;
    EXPECT_EQ(cil::pe::word_sum(random), naive(random)) << size;
  }
}

TEST(Checksum, IncrementalFromTheBaseAgreesAndReadsNoCopiedByte) {
  using cil::pe::OutputImage;
  // A base file of odd length with its CheckSum at 0x98, made right by the full computation.
  uint32_t x = 777;
  std::vector<uint8_t> base(300001);
  for (auto& b : base) b = static_cast<uint8_t>((x = x * 1103515245 + 12345) >> 16);
  const uint64_t field = 0x98;
  auto sum_of = [](const OutputImage& image, uint64_t at, std::span<const uint8_t> from = {}) {
    auto sum = image.checksum(at, from, at);
    EXPECT_TRUE(sum) << sum.error().to_string();
    return sum ? *sum : 0u;
  };
  OutputImage whole;
  whole.append_view(base);
  uint32_t right = sum_of(whole, field);
  for (int k = 0; k < 4; ++k) base[field + k] = static_cast<uint8_t>(right >> (8 * k));
  std::span<const uint8_t> in(base);
  // An output like write_image's: new headers, views of the base with patches between them (one
  // of odd size, so that the view after it lies at an odd offset and is read), padding, a part
  // already in place, a second view of bytes already viewed (read: each base byte counts once).
  auto make = [&](uint64_t growth) {
    OutputImage out;
    std::vector<uint8_t> headers(base.begin(), base.begin() + 0x400);
    headers.resize(0x400 + growth, 0x11);
    out.append_owned(headers);
    out.append_view(in.subspan(0x400, 0x1000 - 0x400));
    out.append_owned(std::vector<uint8_t>(10, 0xAB));
    out.append_view(in.subspan(0x100A, 0x20000 - 0x100A));
    out.append_owned(std::vector<uint8_t>(9, 0xCD));
    out.append_view(in.subspan(0x20009, 0x30000 - 0x20009));
    // At an even offset of the output and an odd one of the base, of bytes no other view has: read.
    out.append_view(in.subspan(0x20001, 8));
    out.append_view(in.subspan(0x30000));  // to the base's odd end
    out.append_zeros(out.size() % 2 ? 0x1FF : 0x200);
    std::vector<uint8_t> in_place(0x200, 0x5C);
    out.append_in_place(in_place.size(), cil::pe::word_sum(in_place));
    out.append_view(in.subspan(0x5000, 0x100));
    out.append_owned(std::vector<uint8_t>(0x33, 0x7E));
    return out;
  };
  for (uint64_t growth : {0u, 0x200u}) {
    OutputImage out = make(growth);
    uint32_t full = sum_of(out, field);
    EXPECT_EQ(sum_of(out, field, in), full) << growth;
    // The copied bytes are not read: changed under a view at an even offset, the incremental sum
    // stays (the full one moves), as long as the base's CheckSum is what it was.
    std::vector<uint8_t> saved = base;
    for (size_t i = 0x2000; i < 0x3000; ++i) base[i] ^= 0x5A;
    EXPECT_EQ(sum_of(out, field, in), full) << growth;
    EXPECT_NE(sum_of(out, field), full) << growth;
    base = saved;
  }
  // A base whose CheckSum is wrong by 5 gives a result off by 5; an implausible one (below the
  // length, or more than 0xFFFF above it) or none is not used: the full computation's.
  OutputImage out = make(0);
  uint32_t full = sum_of(out, field);
  for (int k = 0; k < 4; ++k) base[field + k] = static_cast<uint8_t>((right - 5) >> (8 * k));
  EXPECT_EQ(sum_of(out, field, in), full - 5);
  for (int k = 0; k < 4; ++k) base[field + k] = 0x01;
  EXPECT_EQ(sum_of(out, field, in), full);
  base[field] = 5;
  base[field + 1] = base[field + 2] = base[field + 3] = 0;
  EXPECT_EQ(sum_of(out, field, in), full);
  for (int k = 0; k < 4; ++k) base[field + k] = 0;
  EXPECT_EQ(sum_of(out, field, in), full);
}

namespace cil {
namespace {

TEST(Json, QuoteSkipsPlainWordsAndStopsAtEveryEscape) {
  // The quoter looks at sixteen, then eight bytes at a time: each character that needs an escape, and a byte
  // over 0x7F, at every position of a long plain text, with texts of every length around eight.
  auto reference = [](std::string_view text) {
    std::string out = "\"";
    for (char ch : text) {
      auto c = static_cast<unsigned char>(ch);
      if (c == '"') out += "\\\"";
      else if (c == '\\') out += "\\\\";
      else if (c == '\n') out += "\\n";
      else if (c == '\r') out += "\\r";
      else if (c == '\t') out += "\\t";
      else if (c < 0x20) out += fmt::format("\\u{:04x}", c);
      else out += ch;
    }
    return out + "\"";
  };
  for (size_t length = 0; length <= 70; ++length) {
    std::string plain(length, 'x');
    static constexpr std::string_view kPlain = "abcXYZ019 .,:;<>[]{}()!#$%&'*+-/=?@^_`|~";
    for (size_t i = 0; i < length; ++i) plain[i] = kPlain[(i * 7) % kPlain.size()];
    EXPECT_EQ(md::json_quote(plain), reference(plain)) << length;
    for (size_t at = 0; at < length; ++at)
      for (char special : {'"', '\\', '\n', '\t', '\x01', '\x1f', ' ', '~', '\x7f'}) {
        std::string text = plain;
        text[at] = special;
        EXPECT_EQ(md::json_quote(text), reference(text)) << length << " " << at << " " << int(special);
      }
    for (size_t at = 0; at < length; ++at) {  // a second escape anywhere after a first one
      std::string text = plain;
      text[at] = '"';
      for (size_t second = at + 1; second < length; ++second) {
        std::string two = text;
        two[second] = '\x02';
        EXPECT_EQ(md::json_quote(two), reference(two)) << length << " " << at << " " << second;
      }
    }
    for (size_t at = 0; at + 1 < length; ++at) {  // valid UTF-8 (an e with an acute accent) passes through
      std::string text = plain;
      text[at] = '\xC3';
      text[at + 1] = '\xA9';
      EXPECT_EQ(md::json_quote(text), reference(text)) << length << " " << at;
    }
  }
}

}  // namespace
}  // namespace cil

// The self-check asks whether a heap index reads without copying the entry: reads() must agree
// with get() at every index of heaps with whole, truncated and invalid entries.
TEST(Heaps, ReadsAgreesWithGetAtEveryIndex) {
  // #Blob: empty blob, a 2-byte blob, a 2-byte length form (0x80 0x03) with 3 bytes, an invalid
  // lead byte (0xE0), then a length that runs past the end.
  const std::vector<uint8_t> blobs = {0x00, 0x02, 0xAA, 0xBB, 0x80, 0x03, 1, 2, 3, 0xE0, 0x05, 0x09, 0x01};
  cil::md::BlobHeap blob_heap(blobs, 0x100);
  // #US: empty, "A" (2 bytes and the flag byte), a length past the end.
  const std::vector<uint8_t> us = {0x00, 0x03, 'A', 0, 0, 0x7F, 0x41};
  cil::md::UserStringHeap us_heap(us, 0x200);
  size_t blob_reads = 0, us_reads = 0;
  for (uint32_t i = 0; i <= blobs.size() + 1; ++i) {
    EXPECT_EQ(blob_heap.reads(i), static_cast<bool>(blob_heap.get(i))) << "#Blob index " << i;
    blob_reads += blob_heap.reads(i);
  }
  for (uint32_t i = 0; i <= us.size() + 1; ++i) {
    EXPECT_EQ(us_heap.reads(i), static_cast<bool>(us_heap.get(i))) << "#US index " << i;
    us_reads += us_heap.reads(i);
  }
  EXPECT_GT(blob_reads, 3u);
  EXPECT_LT(blob_reads, blobs.size());
  EXPECT_GT(us_reads, 1u);
  EXPECT_LT(us_reads, us.size());
  cil::md::BlobHeap empty({}, 0);
  EXPECT_TRUE(empty.reads(0));
  EXPECT_EQ(empty.reads(1), static_cast<bool>(empty.get(1)));
}

#include "pe/pe_image.h"
#include "support/synthetic_image.h"

namespace cil {
namespace {

// rva_to_offset, reader_at and reader_from share one placement of an RVA in its section; each
// limit it can cross gets its own message, and reader_from reads to the end of the section's
// file data.
TEST(PeImage, RvaPlacementAndItsLimits) {
  std::vector<uint8_t> file = testing::pe_image(testing::metadata_root({}));
  constexpr uint32_t kSectionHeader = testing::kCoffOffset + 20 + 0xE0;
  uint32_t raw_size = load_le<uint32_t>(file.data() + kSectionHeader + 16);
  ASSERT_EQ(file.size(), testing::kSectionFileOffset + raw_size);
  // The section maps 0x1000 bytes more than its file data (zero-filled by the loader).
  store_le<uint32_t>(file.data() + kSectionHeader + 8, raw_size + 0x1000);
  auto image = pe::PeImage::parse(file);
  ASSERT_TRUE(image) << image.error().to_string();

  // Inside the file data: the offset, and a reader to the end of the data.
  auto offset = image->rva_to_offset(testing::kCodeRva, 4, "probe");
  ASSERT_TRUE(offset);
  EXPECT_EQ(*offset, testing::kSectionFileOffset + (testing::kCodeRva - 0x2000));
  auto from = image->reader_from(testing::kCodeRva, "probe");
  ASSERT_TRUE(from);
  EXPECT_EQ(from->base_offset(), *offset);
  EXPECT_EQ(from->remaining(), file.size() - *offset);

  // In the section, past its file data.
  uint32_t past_data = 0x2000 + raw_size + 0x10;
  for (auto result : {image->rva_to_offset(past_data, 0, "probe").error(), image->reader_from(past_data, "probe").error()}) {
    EXPECT_EQ(result.message, fmt::format("RVA range {:#x}+0x0 runs past the file data of section '.text'", past_data));
    EXPECT_EQ(result.offset, testing::kSectionFileOffset + raw_size + 0x10);
  }
  // A range that starts in the data and runs past it.
  auto across = image->reader_at(0x2000 + raw_size - 4, 8, "probe");
  ASSERT_FALSE(across);
  EXPECT_NE(across.error().message.find("runs past the file data of section '.text'"), std::string::npos);

  // The file cut short: the section's data claims bytes the file does not have. The image is
  // refused as it is read (issue 36: a truncated input was instrumented, its new section laid
  // over the missing data), naming the section's SizeOfRawData.
  std::vector<uint8_t> cut(file.begin(), file.end() - 0x100);
  auto short_image = pe::PeImage::parse(cut);
  ASSERT_FALSE(short_image);
  EXPECT_EQ(short_image.error().structure, "section table: section 1 '.text'");
  EXPECT_EQ(short_image.error().message,
            fmt::format("raw data {:#x}+{:#x} runs past the end of the file ({:#x} bytes)", testing::kSectionFileOffset, raw_size, cut.size()));
  EXPECT_EQ(short_image.error().offset, kSectionHeader + 16);
}

}  // namespace
}  // namespace cil

// get_or_placeholder() reads names without get()'s error value: the same string wherever get()
// reads one, the placeholder wherever get() fails (past the end, no NUL), and "" at index 0 of
// an absent heap.
TEST(Heaps, StringPlaceholderAgreesWithGet) {
  const std::vector<uint8_t> strings = {0, 'A', 'b', 0, 'C', 0, 'x', 'y'};  // "xy" lacks its NUL
  cil::md::StringHeap heap(strings, 0x300);
  size_t placeholders = 0;
  for (uint32_t i = 0; i <= strings.size() + 2; ++i) {
    auto got = heap.get(i);
    std::string_view shown = heap.get_or_placeholder(i);
    if (got) {
      EXPECT_EQ(shown, *got) << "index " << i;
    } else {
      EXPECT_EQ(shown, "<bad string index>") << "index " << i;
      ++placeholders;
    }
  }
  EXPECT_EQ(heap.get_or_placeholder(1), "Ab");
  EXPECT_EQ(heap.get_or_placeholder(2), "b");
  EXPECT_EQ(placeholders, 5u);  // 6 and 7 (no NUL), then 8 to 10 (past the end)
  cil::md::StringHeap empty({}, 0);
  EXPECT_EQ(empty.get_or_placeholder(0), "");
  EXPECT_EQ(empty.get_or_placeholder(1), "<bad string index>");
}
