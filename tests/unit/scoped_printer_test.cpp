// The scoped printer: one walk gives the text form (in its layouts) and the JSON form; keys that
// one form does not show are left out of it, with everything nested in them.
#include <gtest/gtest.h>

#include "cli/output/output_buffer.h"
#include "cli/output/scoped_printer.h"

namespace cil::cli {
namespace {

/// A small report in the shapes the commands use: labeled lines, an aligned block, a table, rows,
/// form-only members and scopes, an inline JSON list.
void walk(ScopedPrinter& p) {
  ObjectScope top(p, {}, Layout::lines());
  p.field(Key("file", "File"), "a.dll");
  {
    ObjectScope pe(p, "pe", Layout::aligned("  ", 12).with_heading("Headers"));
    p.field("format", "PE32");
    p.field(Key("imageBase", "image base"), Value(uint64_t{0x400000}).text("0x400000"));
    p.field(Key::text_only("linker"), "8.0");
    p.field(Key::json_only("machineName"), "I386");
    {
      ListScope names(p, Key::json_only("names"), Layout().inline_json());
      p.field({}, "ILONLY");
      p.field({}, "32BITREQUIRED");
    }
    ListScope rows(p, "sections", Layout::lines().with_heading("Sections"));
    p.line("  name   size");
    for (int i = 0; i < 2; ++i) {
      ObjectScope row(p, {}, Layout::one_row("  {:<6} {}{}"));
      p.field("name", i ? ".rsrc" : ".text");
      p.field("size", Value(uint64_t(16 * (i + 1))).text(i ? "0x20" : "0x10"));
      p.field(Key("used").json_if(i == 0), Value(true).text(i ? " (ignored)" : ""));
    }
  }
  {
    ObjectScope tables(p, "tables", Layout::table("  ", 10).with_heading("Tables"));
    p.field("Module", 1);
    p.field("TypeDef", int64_t{-3});
  }
  {
    ListScope text_only(p, Key::text_only(), Layout::lines("  ").with_heading("Only in text"));
    ObjectScope nested(p, "nested", Layout::lines("    "));
    p.field("deep", "yes");
  }
  p.line("");
  p.field(Key("ready", "Ready"), Value::null("no"));
  p.field(Key::json_only("flag"), false);
}

TEST(ScopedPrinter, TextFormKeepsEachScopesLayout) {
  auto p = make_text_printer();
  walk(*p);
  EXPECT_EQ(p->output().str(),
            "File: a.dll\n"
            "\nHeaders\n"
            "  format:     PE32\n"
            "  image base: 0x400000\n"
            "  linker:     8.0\n"
            "\nSections\n"
            "  name   size\n"
            "  .text  0x10\n"
            "  .rsrc  0x20 (ignored)\n"
            "\nTables\n"
            "  Module     1\n"
            "  TypeDef    -3\n"
            "\nOnly in text\n"
            "    deep: yes\n"
            "\n"
            "Ready: no\n");
}

TEST(ScopedPrinter, JsonFormFromTheSameWalk) {
  auto p = make_json_printer();
  walk(*p);
  EXPECT_EQ(p->output().str(),
            "{\n"
            "  \"file\": \"a.dll\",\n"
            "  \"pe\": {\n"
            "    \"format\": \"PE32\",\n"
            "    \"imageBase\": 4194304,\n"
            "    \"machineName\": \"I386\",\n"
            "    \"names\": [\"ILONLY\", \"32BITREQUIRED\"],\n"
            "    \"sections\": [\n"
            "      {\"name\": \".text\", \"size\": 16, \"used\": true},\n"
            "      {\"name\": \".rsrc\", \"size\": 32}\n"
            "    ]\n"
            "  },\n"
            "  \"tables\": {\n"
            "    \"Module\": 1,\n"
            "    \"TypeDef\": -3\n"
            "  },\n"
            "  \"ready\": null,\n"
            "  \"flag\": false\n"
            "}\n");
}

TEST(ScopedPrinter, RowsAreWrittenBeforeWhatIsNestedInThem) {
  auto p = make_text_printer();
  {
    ObjectScope top(*p, {}, Layout::one_row("// {} {}", false));
    p->field("a", "first");
    p->field("b", "second");
    ListScope items(*p, "items", Layout::lines("  "));
    p->field({}, "item");
  }
  EXPECT_EQ(p->output().str(), "// first second\n  item\n");
}

TEST(ScopedPrinter, ShowsSaysWhatEachFormKeeps) {
  auto text = make_text_printer();
  auto json = make_json_printer();
  for (ScopedPrinter* p : {text.get(), json.get()}) {
    ObjectScope top(*p);
    bool is_text = p == text.get();
    EXPECT_EQ(p->shows(Key::json_only("x")), !is_text);
    EXPECT_EQ(p->shows(Key::text_only("x")), is_text);
    EXPECT_TRUE(p->shows("x"));
    ListScope hidden(*p, Key::json_only("hidden"));
    EXPECT_FALSE(p->shows(Key::text_only("x")));
  }
}

TEST(ScopedPrinter, RowsWithAndWithoutFormatSpecs) {
  auto p = make_text_printer();
  {
    ListScope rows(*p);
    for (std::string_view format : {"  {} {}{}", "{2}-{0}-{1}", "{{{}}} }}{}", "  {:<5}|{:>3}|{}"}) {
      ObjectScope row(*p, {}, Layout::one_row(format));
      p->field("a", "L1:");
      p->field("b", "ab");
      p->field("c", Value(7u));
    }
  }
  EXPECT_EQ(p->output().str(),
            "  L1: ab7\n"
            "7-L1:-ab\n"
            "{L1:} }ab\n"
            "  L1:  | ab|7\n");
}

TEST(ScopedPrinter, OutputComesInPiecesThatNeverMove) {
  OutputBuffer out;
  out += "small";
  EXPECT_EQ(out.pieces().size(), 1u);
  EXPECT_LT(out.pieces()[0].capacity(), OutputBuffer::kPiece) << "a small output stays small";
  std::string line(1000, 'x');
  line += '\n';
  for (int i = 0; i < 3000; ++i) out += line;
  out.append(3, '!');
  out += std::string(3 * OutputBuffer::kPiece, 'y');  // larger than a piece: a piece of its own
  EXPECT_EQ(out.size(), 5 + 3000 * 1001 + 3 + 3 * OutputBuffer::kPiece);
  EXPECT_GE(out.pieces().size(), 4u);
  size_t total = 0;
  for (const std::string& piece : out.pieces()) {
    EXPECT_TRUE(piece.size() <= OutputBuffer::kPiece || piece.find_first_not_of('y') == std::string::npos);
    total += piece.size();
  }
  EXPECT_EQ(total, out.size());
  std::string all = out.str();
  EXPECT_EQ(all.substr(0, 6), "smallx");
  EXPECT_EQ(all.substr(5 + 3000 * 1001, 4), "!!!y");
}

TEST(ScopedPrinter, ValuesAndStrings) {
  EXPECT_EQ(Value("a\"b\n").json(), "\"a\\\"b\\n\"");
  EXPECT_EQ(Value("a\"b\n").text(), "a\"b\n");
  EXPECT_EQ(Value(uint64_t{18446744073709551615ull}).json(), "18446744073709551615");
  EXPECT_EQ(Value(int64_t{-5}).text(), "-5");
  EXPECT_EQ(Value(true).json(), "true");
  EXPECT_EQ(Value::null("none").json(), "null");
  EXPECT_EQ(Value::null("none").text(), "none");
  EXPECT_EQ(Value(7u).text("0x7").json(), "7");
}

}  // namespace
}  // namespace cil::cli
