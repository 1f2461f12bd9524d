#!/usr/bin/env bash
# The output's PE checksum against an independent computation (Python, every byte): right for
# inputs whose checksum is right (checked first), wrong by as much for an input whose checksum
# was made wrong by 5, and computed over every byte for one whose checksum cannot be right for
# its length (man page, the PE checksum in DESCRIPTION).
#   tests/scripts/pe_checksum_test.sh TOOL
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
tool=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fw=$(framework_dir)

# checksum.py FILE [set VALUE]: prints "stored computed" (hex), or stores VALUE in the field.
cat > "$work/checksum.py" <<'PY'
import array, struct, sys
path = sys.argv[1]
data = bytearray(open(path, "rb").read())
lfanew = struct.unpack_from("<I", data, 0x3C)[0]
field = lfanew + 24 + 64
if len(sys.argv) > 2:
    struct.pack_into("<I", data, field, int(sys.argv[3], 0))
    open(path, "wb").write(data)
    sys.exit(0)
stored = struct.unpack_from("<I", data, field)[0]
data[field:field + 4] = b"\0\0\0\0"
length = len(data)
if length % 2:
    data += b"\0"
words = array.array("H")
words.frombytes(bytes(data))
if sys.byteorder != "little":
    words.byteswap()
s = sum(words)
while s >> 16:
    s = (s & 0xFFFF) + (s >> 16)
print("%08x %08x" % (stored, (s + length) & 0xFFFFFFFF))
PY
sums() { python3 "$work/checksum.py" "$1"; }

checked=0
for name in System.Private.Xml System.Linq System.Runtime System.Private.CoreLib; do
  in="$fw/$name.dll"
  [ -f "$in" ] || continue
  read -r stored computed < <(sums "$in")
  [ "$stored" != 00000000 ] || { echo "note: $name has no checksum"; continue; }
  [ "$stored" = "$computed" ] || { fail "$name: the input's own checksum is $stored, not $computed"; continue; }
  "$tool" "$in" -o "$work/$name.dll" > /dev/null 2> "$work/err" || { fail "$name: instrument failed: $(cat "$work/err")"; continue; }
  read -r stored computed < <(sums "$work/$name.dll")
  [ "$stored" = "$computed" ] || fail "$name: the output's checksum is $stored, every byte gives $computed"
  checked=$((checked + 1))
done
[ "$checked" -ge 2 ] || fail "fewer than two framework inputs with a checksum ($checked)"

# An input whose checksum is 5 too high: the output's is 5 too high as well.
cp "$fw/System.Linq.dll" "$work/wrong.dll"
read -r stored computed < <(sums "$work/wrong.dll")
python3 "$work/checksum.py" "$work/wrong.dll" set "$((0x$computed + 5))"
"$tool" "$work/wrong.dll" -o "$work/wrong.out.dll" > /dev/null 2>&1 || fail "wrong checksum: instrument failed"
read -r stored computed < <(sums "$work/wrong.out.dll")
[ "$((0x$stored))" -eq "$((0x$computed + 5))" ] || fail "wrong checksum: the output's is $stored, every byte gives $computed (expected 5 more)"

# An input whose checksum is below its length (cannot be right): not used, every byte summed.
cp "$fw/System.Linq.dll" "$work/implausible.dll"
python3 "$work/checksum.py" "$work/implausible.dll" set 5
"$tool" "$work/implausible.dll" -o "$work/implausible.out.dll" > /dev/null 2>&1 || fail "implausible checksum: instrument failed"
read -r stored computed < <(sums "$work/implausible.out.dll")
[ "$stored" = "$computed" ] || fail "implausible checksum: the output's is $stored, every byte gives $computed"
finish
