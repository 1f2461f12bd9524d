#!/usr/bin/env python3
"""Source rules the compiler cannot enforce, checked on the tree under ROOT:

  flag-hex     src/il and src/instrument spell no metadata flag as a hexadecimal number: no hex literal next to a
               bitwise operator (other than an all-ones byte mask such as 0xFF), none cast to a
               flag enum, and no hex constant named after a table or an attribute; the names are
               in src/metadata/flags.h.
  raw-cell     outside src/metadata, no cell is read by table, row and column index
               (tables().get(TableId::X, rid, col::X::Y)) and no row is added from positional
               cells: the typed rows of src/metadata/rows.h do both.
  contract     the counts file's suffix and the environment variables of the contract are
               spelled only in src/instrument/runtime_contract.h, and the counts file's keys not at all
               in the files that write and read it (they use the contract's).

    source_rules.py ROOT     prints one line per violation; exit status 1 when there is one
"""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1])
violations = []

# All-ones masks pick bytes and fields by width; they name no flag.
MASKS = {0xF, 0xFF, 0xFFFF, 0xFFFFFF, 0xFFFFFFFF, 0x7FFFFFFF}
HEX = r"0[xX][0-9A-Fa-f]+(?:[uUlL]*)"
ATTRIBUTE_WORDS = r"(?:Type|Method|Field|Param|Generic|Assembly|Event|Property|PInvoke|Semantics|Impl|Attr|Layout|Access)"


def code_only(text):
    """The text with comments and string and character literals blanked, lines kept."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            # a raw string R"(...)" or an ordinary literal, possibly prefixed (u8, u, U, L)
            if c == '"' and i > 0 and text[i - 1] == "R":
                m = re.match(r'"([^(\s]*)\(', text[i:])
                end = text.find(")" + m.group(1) + '"', i) if m else -1
                j = n if end < 0 else end + len(m.group(1)) + 2
            else:
                j = i + 1
                while j < n and text[j] != c:
                    j += 2 if text[j] == "\\" else 1
                j += 1
            out.append(c + re.sub(r"[^\n]", " ", text[i + 1:j - 1]) + c)
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def files(directory, suffixes=(".h", ".cpp")):
    base = root / directory
    return sorted(p for p in base.rglob("*") if p.suffix in suffixes) if base.is_dir() else []


def report(rule, path, line_number, line, why):
    violations.append(f"{rule}: {path.relative_to(root)}:{line_number}: {why}: {line.strip()}")


def value(literal):
    return int(re.sub(r"[uUlL]+$", "", literal), 16)


# flag-hex
for path in [*files("src/il"), *files("src/instrument")]:
    for number, line in enumerate(code_only(path.read_text()).splitlines(), 1):
        for m in re.finditer(HEX, line):
            before = line[: m.start()].rstrip().rstrip("(").rstrip()
            after = line[m.end():].lstrip().lstrip(")").lstrip()
            bitwise = before.endswith(("&", "|", "^", "~", "&=", "|=", "^=")) and not before.endswith(("&&", "||"))
            bitwise = bitwise or (after[:1] in ("&", "|", "^") and after[:2] not in ("&&", "||"))
            if bitwise and value(m.group(0)) not in MASKS:
                report("flag-hex", path, number, line, f"{m.group(0)} used as flag bits (name it in metadata/flags.h)")
            if re.search(r"static_cast<\s*(?:md::)?\w*(?:Attributes|Flags)\s*>\s*\(\s*$", line[: m.start()]):
                report("flag-hex", path, number, line, f"{m.group(0)} cast to a flag enum")
        m = re.search(r"\bk\w*" + ATTRIBUTE_WORDS + r"\w*\s*=\s*[^;]*" + HEX, line)
        if m and "constexpr" in line:
            report("flag-hex", path, number, line, "a flag constant defined by number (metadata/flags.h names them)")

# raw-cell
RAW = [
    (re.compile(r"\bcol::\w+::\w+"), "a column index (use the typed row: Module::row<TableId::X>(rid))"),
    (re.compile(r"\.get(?:_checked)?\(\s*(?:md::)?TableId::"), "a cell read by table and column"),
    (re.compile(r"\badd_row\("), "a row added from positional cells (use ModuleEditor::add(XRow{...}))"),
]
for directory in ("src/il", "src/instrument", "src/cli", "src/profiler", "tests/tools", "tests/fuzz", "bench"):
    for path in files(directory):
        for number, line in enumerate(code_only(path.read_text()).splitlines(), 1):
            for pattern, why in RAW:
                if pattern.search(line):
                    report("raw-cell", path, number, line, why)

# contract
CONTRACT = root / "src/instrument/runtime_contract.h"
# The contract's environment variables, as the header names them (other variables, such as the
# support layer's own, are not the contract's).
VARIABLES = sorted(set(re.findall(r'"((?:CIL_INSTRUMENT|CORECLR)_[A-Z_]+)"', CONTRACT.read_text())))
SPELLINGS = [(re.compile(r"\.counts\.json"), "the counts file's suffix")]
if VARIABLES:
    SPELLINGS.append((re.compile(r"\b(?:" + "|".join(VARIABLES) + r")\b"), "a contract environment variable's name"))
else:
    violations.append("contract: src/instrument/runtime_contract.h names no environment variable")
# The counts file's keys, as a member name in JSON text ("token": or \"token\") or on their own.
KEYS = re.compile(r'^(assembly|mvid|methods|token|name|count)$|\\"(assembly|mvid|methods|token|name|count)\\"')
KEY_FILES = {root / name for name in ("src/instrument/count_mode.cpp", "src/profiler/count_profiler.cpp", "src/cli/results/count_file.cpp")}


def literals(path):
    """(line number, line, literal text) of each string literal outside comments."""
    text = path.read_text()
    code = code_only(text)
    lines = text.splitlines()
    for number, (line, blanked) in enumerate(zip(lines, code.splitlines()), 1):
        # code_only keeps a literal's quotes and length: the blanked one tells where the real one is
        for m in re.finditer(r'"( *)"', blanked):
            yield number, line, line[m.start() + 1:m.end() - 1]


for path in files("src"):
    if path == CONTRACT:
        continue
    for number, line, text in literals(path):
        for pattern, why in SPELLINGS:
            if pattern.search(text):
                report("contract", path, number, line, why + " spelled outside runtime_contract.h")
        if path in KEY_FILES:
            m = KEYS.search(text)
            if m:
                report("contract", path, number, line, f"the counts file's key \"{m.group(1) or m.group(2)}\" spelled again")

for v in violations:
    print(v)
sys.exit(1 if violations else 0)
