#!/usr/bin/env bash
# Typed metadata and the runtime contract, as the sources must keep them: no metadata flag
# spelled as a number in src/il, no cell read by column index or row added from positional
# cells outside src/metadata, the counts file's names spelled only in instrument/runtime_contract.h
# (tests/scripts/source_rules.py); each rule is seen to fail on a copy of the tree that breaks
# it. And the compiler refuses a column of another table, a builder field of another table, a
# flag of another enum and flag bits given as a number.
#   tests/scripts/source_rules_test.sh [TOOL] [CXX]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# The sources are the same in every build: the plain pass checks them.
[ "${CIL_SANITIZED:-0}" = 1 ] && { echo "source_rules: skipped under the sanitizers"; exit 77; }
CXX=${2:-c++}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rules="$ROOT/tests/scripts/source_rules.py"

if ! python3 "$rules" "$ROOT" > "$work/violations"; then
  cat "$work/violations" >&2
  fail "the tree breaks the source rules"
fi

# Controls: one line that breaks a rule, appended to a copy of a file; the rule must name it.
mkdir -p "$work/tree"
cp -r "$ROOT/src" "$work/tree/"
control() {
  local rule=$1 file=$2 line=$3 out
  cp "$work/tree/$file" "$work/saved"
  printf '%s\n' "$line" >> "$work/tree/$file"
  if out=$(python3 "$rules" "$work/tree"); then
    fail "control: '$line' in $file passes the rules"
  elif ! grep -q "^$rule: $file:" <<< "$out"; then
    fail "control: '$line' in $file is not reported as $rule: $out"
  fi
  cp "$work/saved" "$work/tree/$file"
}
control flag-hex src/il/constructor.cpp 'bool is_abstract(uint16_t flags) { return flags & 0x0400; }'
control flag-hex src/instrument/count_mode.cpp 'constexpr uint32_t kFieldHasRva = 0x0100;'
control flag-hex src/instrument/trace_mode.cpp 'auto f = static_cast<md::MethodAttributes>(0x0010);'
control flag-hex src/instrument/instrumenter.cpp 'bool native(uint32_t impl) { return (impl & 0x3) == 1; }'
control raw-cell src/cli/commands/cmd_dump.cpp 'uint32_t r = m.tables().get(TableId::MethodDef, 1, md::col::MethodDef::Rva);'
control raw-cell src/instrument/trace_mode.cpp 'auto t = editor.add_row(TableId::TypeSpec, {1});'
control raw-cell src/profiler/args_profiler.cpp 'auto s = t.get_checked(md::TableId::Param, 1, 0);'
control contract src/profiler/count_profiler.cpp 'std::string path = dir + "/App.1.counts.json";'
control contract src/profiler/config.cpp 'const char* mode = getenv("CIL_INSTRUMENT_MODE");'
control contract src/cli/results/count_file.cpp 'auto v = member(root, "mvid", JsonValue::Kind::String, "");'
control contract src/instrument/count_mode.cpp 'auto s = editor.user_string(u"{\"token\": \"0x");'

# The compiler: what the typed rows allow, and what they refuse.
compiles() {
  printf '#include "metadata/module_editor.h"\nusing namespace cil;\nusing namespace cil::md;\n%s\n' "$1" > "$work/snippet.cpp"
  LC_ALL=C "$CXX" -std=c++20 -fsyntax-only -I"$ROOT/src" "$work/snippet.cpp" 2> "$work/snippet.err"
}
compiles 'MethodAttributes f(const Module& m) { return m.row<TableId::MethodDef>(1).flags() | MethodAttributes::Static; }
Expected<Token> g(ModuleEditor& e) { return e.add(TypeDefRow{.flags = TypeAttributes::Public, .type_name = "T"}); }' ||
  { cat "$work/snippet.err" >&2; fail "the control snippet does not compile"; }
# refused WHAT ERROR SNIPPET: the snippet fails to compile, with an error that says ERROR.
refused() {
  if compiles "$3"; then
    fail "compiles, but must not: $1"
  elif ! grep -q "error: .*$2" "$work/snippet.err"; then
    fail "$1: refused for another reason than '$2': $(grep -m1 error: "$work/snippet.err")"
  fi
}
refused "a TypeDef column of a MethodDef row" "has no member named 'type_name'" \
  'auto f(const Module& m) { return m.row<TableId::MethodDef>(1).type_name(); }'
refused "a TypeDef field in a MethodDef builder" "has no non-static data member named 'type_name'" \
  'MethodDefRow r{.type_name = "T"};'
refused "a TypeAttributes flag in MethodDef.Flags" "cannot convert 'cil::md::TypeAttributes' to 'cil::md::MethodAttributes'" \
  'MethodDefRow r{.flags = TypeAttributes::Public};'
refused "flag bits as a number" "no match for 'operator&'" \
  'bool f(const Module& m) { return (m.row<TableId::MethodDef>(1).flags() & 0x0400) != 0; }'
refused "a flag enum and an integer" "no match for 'operator|'" \
  'MethodAttributes f() { return MethodAttributes::Static | 0x0080; }'
finish
