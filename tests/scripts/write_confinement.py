#!/usr/bin/env python3
"""Random input trees (seeded, so every run builds the same ones) for write_confinement_test.sh.

Each case is a directory holding an input tree `in` (assemblies, PDBs, other files, nested
folders, hard links, links to files and folders inside and outside the tree, absolute and
relative, dangling links, links that loop) and a folder `lib` outside it that links point into.
Folder mode runs over it with the output in one of several places (beside the tree, inside it,
the tree inside the output, relative or absolute spellings); every entry of the case is
recorded before and after (type, link target, inode, mode, SHA-256), and:
  - nothing that was there changes (no input, nothing outside OUTDIR);
  - what is new is inside OUTDIR, and is exactly the planned outputs, each a regular file at the
    path of the file or link in the tree; a copied file has its input's bytes;
  - a refused run (a link or an input where an output goes) exits 2, prints one line, and
    changes nothing at all.
exec (and restore) run over a twin of each case: afterwards, and while the command runs,
everything outside the tree is as it was; afterwards the tree is too.

  write_confinement.py TOOL TESTDATA_BIN WORK [SEEDS]
Prints one line per failure and exits 1 when there was one.
"""
import hashlib
import os
import random
import shutil
import stat
import subprocess
import sys

if len(sys.argv) > 1 and sys.argv[1] == "--snapshot":  # exec's command: the case as it is, less the tree
    pass
else:
    TOOL, BIN, WORK = sys.argv[1], sys.argv[2], sys.argv[3]
    SEEDS = int(sys.argv[4]) if len(sys.argv) > 4 else 8
ASSEMBLIES = ["Basics.dll", "Library.dll", "Control.dll", "Generics.dll"]
WITH_PDB = "DebugInfo.Portable"  # .dll and .pdb
failures = []


def fail(case, message):
    failures.append(f"{case}: {message}")
    print(f"FAIL: {case}: {message}", flush=True)


def snapshot(top, skip=None):
    """Every entry under top: relative path -> (type, detail). Links are never followed."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(top, followlinks=False):
        for name in dirnames + filenames:
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, top)
            if skip and (rel == skip or rel.startswith(skip + "/")):
                continue
            st = os.lstat(path)
            if stat.S_ISLNK(st.st_mode):
                out[rel] = ("link", os.readlink(path))
            elif stat.S_ISDIR(st.st_mode):
                out[rel] = ("dir", stat.S_IMODE(st.st_mode))
            elif stat.S_ISREG(st.st_mode):
                with open(path, "rb") as f:
                    digest = hashlib.sha256(f.read()).hexdigest()
                out[rel] = ("file", st.st_ino, stat.S_IMODE(st.st_mode), digest)
            else:
                out[rel] = ("other", st.st_mode)
    return out


def copy(src, dst):
    shutil.copyfile(src, dst)


def build_tree(case_dir, rng, tree_rel="in"):
    """The case: lib/ (outside the tree) and the tree at tree_rel. Same rng state, same tree."""
    lib = os.path.join(case_dir, "lib")
    tree = os.path.join(case_dir, tree_rel)
    os.makedirs(os.path.join(lib, "deep"))
    os.makedirs(tree)
    copy(os.path.join(BIN, "Basics.dll"), os.path.join(lib, "Calc.dll"))
    copy(os.path.join(BIN, WITH_PDB + ".dll"), os.path.join(lib, "Dbg.dll"))
    copy(os.path.join(BIN, WITH_PDB + ".pdb"), os.path.join(lib, "Dbg.pdb"))
    with open(os.path.join(lib, "notes.txt"), "w") as f:
        f.write("outside the tree\n")
    with open(os.path.join(lib, "deep", "more.txt"), "w") as f:
        f.write("deeper outside\n")
    dirs = [""]
    for i in range(rng.randint(2, 5)):
        parent = rng.choice(dirs)
        d = os.path.join(parent, f"d{i}")
        os.makedirs(os.path.join(tree, d))
        dirs.append(d)
    files = []
    for i, name in enumerate(rng.sample(ASSEMBLIES, rng.randint(1, len(ASSEMBLIES)))):
        d = rng.choice(dirs)
        copy(os.path.join(BIN, name), os.path.join(tree, d, name))
        files.append(os.path.join(d, name))
    d = rng.choice(dirs)
    copy(os.path.join(BIN, WITH_PDB + ".dll"), os.path.join(tree, d, "Dbg.dll"))
    copy(os.path.join(BIN, WITH_PDB + ".pdb"), os.path.join(tree, d, "Dbg.pdb"))
    for i in range(rng.randint(2, 6)):
        d = rng.choice(dirs)
        p = os.path.join(d, f"f{i}.txt")
        with open(os.path.join(tree, p), "w") as f:
            f.write(f"file {i} {rng.random()}\n")
        files.append(p)
    # libx.so -> libx.so.1 (a link inside one folder), as the tester's run refused.
    d = rng.choice(dirs)
    with open(os.path.join(tree, d, "libx.so.1"), "w") as f:
        f.write("native\n")
    os.symlink("libx.so.1", os.path.join(tree, d, "libx.so"))
    links = []  # (relative path in the tree, target)
    for i in range(rng.randint(3, 8)):
        d = rng.choice(dirs)
        up = os.path.relpath(case_dir, os.path.join(tree, d)) + "/"  # from the link's folder to the case
        kind = rng.choice(["in_file", "out_file", "out_file_abs", "out_asm", "out_asm_abs", "in_dir", "out_dir",
                           "dangling", "loop", "up", "etc"])
        name = os.path.join(d, f"l{i}" + (".dll" if "asm" in kind else ".txt" if "file" in kind else ""))
        if kind == "in_file":
            target = os.path.relpath(os.path.join(tree, rng.choice(files)), os.path.join(tree, d))
        elif kind == "out_file":
            target = up + "lib/notes.txt"
        elif kind == "out_file_abs":
            target = os.path.join(lib, "deep", "more.txt")
        elif kind == "out_asm":
            target = up + "lib/Calc.dll"
        elif kind == "out_asm_abs":
            target = os.path.join(lib, "Dbg.dll")
        elif kind == "in_dir":
            target = os.path.relpath(os.path.join(tree, rng.choice(dirs)), os.path.join(tree, d))
        elif kind == "out_dir":
            target = up + "lib"
        elif kind == "dangling":
            target = up + "lib/absent.dll"
        elif kind == "loop":
            target = "."
        elif kind == "up":
            target = ".."
        else:
            target = "/etc/hostname" if os.path.isfile("/etc/hostname") else "/etc/passwd"
        os.symlink(target, os.path.join(tree, name))
        links.append(name)
    # The tester's exact case: a link at the top to ../lib/Calc.dll.
    os.symlink(os.path.relpath(os.path.join(lib, "Calc.dll"), tree), os.path.join(tree, "Calc.dll"))
    # Hard links: one to a file of the tree, one to a file outside it.
    if files:
        src = rng.choice(files)
        os.link(os.path.join(tree, src), os.path.join(tree, rng.choice(dirs), "hard-" + os.path.basename(src)))
    os.link(os.path.join(lib, "notes.txt"), os.path.join(tree, rng.choice(dirs), "hard-notes.txt"))


def planned(tree, skip_real=None):
    """What folder mode writes for the tree: relative path -> the file read (links followed)."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(tree, followlinks=False):
        keep = []
        for name in dirnames:
            path = os.path.join(dirpath, name)
            if os.path.islink(path) or name.startswith(".cil-instrument"):
                continue
            if skip_real and os.path.realpath(path) == skip_real:
                continue
            keep.append(name)
        dirnames[:] = keep
        for name in filenames + [n for n in os.listdir(dirpath) if os.path.islink(os.path.join(dirpath, n))]:
            path = os.path.join(dirpath, name)
            if name.startswith(".cil-instrument") or not os.path.isfile(path):
                continue
            out[os.path.relpath(path, tree)] = path
    return out


def run(args, cwd):
    return subprocess.run([TOOL] + args, cwd=cwd, capture_output=True, text=True)


def check_accepted(case, before, after, out_rel, expected, result, case_dir):
    if result.returncode != 0:
        fail(case, f"exit {result.returncode}: {result.stderr.strip()}")
    for rel, entry in before.items():
        if after.get(rel) != entry:
            fail(case, f"{rel} changed: {entry} -> {after.get(rel)}")
    new = {rel: e for rel, e in after.items() if rel not in before}
    for rel, entry in new.items():
        if not (rel == out_rel or rel.startswith(out_rel + "/")):
            fail(case, f"{rel} was written outside the output directory {out_rel}")
        elif entry[0] not in ("file", "dir"):
            fail(case, f"{rel} in the output is {entry[0]}, not a regular file")
    written = {os.path.relpath(rel, out_rel) for rel, e in new.items() if e[0] == "file"}
    want = set(expected)
    for rel in sorted(want - written):
        fail(case, f"{rel} was not written to the output")
    for rel in sorted(written - want):
        fail(case, f"{os.path.join(out_rel, rel)} was written but not planned")
    for rel, source in expected.items():
        if rel.endswith((".dll", ".pdb")):
            continue
        target = os.path.join(case_dir, out_rel, rel)
        if os.path.isfile(target):
            with open(target, "rb") as a, open(source, "rb") as b:
                if a.read() != b.read():
                    fail(case, f"{rel}: the copy differs from {source}")


def check_refused(case, before, after, result):
    if result.returncode != 2:
        fail(case, f"exit {result.returncode}, not 2 (refused): {result.stderr.strip()}")
    lines = result.stderr.strip().splitlines()
    if lines[1:] == ["Try 'cil-instrument --help'."]:  # a usage error's hint
        lines = lines[:1]
    if len(lines) != 1:
        fail(case, f"not one line: {result.stderr!r}")
    if before != after:
        changed = sorted(set(before.items()) ^ set(after.items()))
        fail(case, f"a refused run changed {changed[:4]}")


def folder_case(seed):
    rng = random.Random(seed)
    case = f"seed {seed}"
    case_dir = os.path.join(WORK, f"case{seed}")
    os.makedirs(case_dir)
    layout = ["sibling", "sibling_abs", "inside_input", "input_inside", "files"][seed % 5]
    tree_rel = "out/in" if layout == "input_inside" else "in"
    build_tree(case_dir, rng, tree_rel)
    tree = os.path.join(case_dir, tree_rel)
    spelling = rng.choice(["rel", "dot", "abs"])

    def spell(rel):
        if spelling == "abs":
            return os.path.join(case_dir, rel)
        return ("./" + rel + "/") if spelling == "dot" else rel

    if layout == "sibling":
        args, out_rel = [spell("in"), "-o", spell("out")], "out"
    elif layout == "sibling_abs":
        args, out_rel = [spell("in"), "-o", os.path.join(case_dir, "out")], "out"
    elif layout == "inside_input":
        args, out_rel = [spell("in"), "-o", spell("in/out")], "in/out"
    elif layout == "input_inside":
        args, out_rel = [spell("out/in"), "-o", spell("out")], "out"
    if layout != "files":
        expected = planned(tree)
    else:
        names = sorted(n for n in os.listdir(tree) if os.path.isfile(os.path.join(tree, n)))
        args, out_rel = [spell(os.path.join("in", n)).rstrip("/") for n in names] + ["-o", spell("out").rstrip("/") + "/"], "out"
        expected = {n: os.path.join(tree, n) for n in names}
    label = f"{case} ({layout}, {spelling}: {' '.join(args)})"
    before = snapshot(case_dir)
    result = run(args + ["-j", "2"], case_dir)
    after = snapshot(case_dir)
    check_accepted(label, before, after, out_rel, expected, result, case_dir)

    # Refusals, over the output just made: each changes nothing, and is undone before the next.
    out_dir = os.path.join(case_dir, out_rel)
    sub = next((d for d in sorted(expected) if "/" in d), None)

    def clear(path):  # what the accepted run left there (if it did its work)
        os.makedirs(out_dir, exist_ok=True)
        if os.path.islink(path) or os.path.isfile(path):
            os.unlink(path)
        elif os.path.isdir(path):
            shutil.rmtree(path)

    def link_in_outdir():
        top = sub.split("/")[0]
        clear(os.path.join(out_dir, top))
        os.symlink(os.path.relpath(os.path.join(case_dir, "lib"), out_dir), os.path.join(out_dir, top))
        return lambda: os.unlink(os.path.join(out_dir, top))

    def hard_link_to_input():
        clear(os.path.join(out_dir, "Calc.dll"))
        os.link(os.path.join(case_dir, "lib", "Calc.dll"), os.path.join(out_dir, "Calc.dll"))
        return lambda: None

    def link_as_output():
        clear(os.path.join(out_dir, "Calc.dll"))
        os.symlink("/etc/passwd", os.path.join(out_dir, "Calc.dll"))
        return lambda: os.unlink(os.path.join(out_dir, "Calc.dll"))

    nothing = lambda: (lambda: None)
    refusals = []
    if sub:
        refusals.append(("a link to a folder outside, inside OUTDIR", link_in_outdir, args))
    refusals.append(("a link to /etc/passwd where an output goes", link_as_output, args))
    refusals.append(("a hard link to an input where its output goes", hard_link_to_input, args))
    refusals.append(("OUTDIR is the tree", nothing, [spell(tree_rel), "-o", spell(tree_rel)]))
    top_files = sorted(n for n in os.listdir(tree) if os.path.isfile(os.path.join(tree, n)))
    refusals.append(("files given by name to their own folder", nothing,
                     [os.path.join(tree_rel, n) for n in top_files] + ["-o", tree_rel + "/"]))
    refusals.append(("files given by name to their own folder, as ./", nothing,
                     [n for n in top_files] + ["-o", "./"]))
    for what, setup, refused_args in refusals:
        undo = setup()
        cwd = tree if refused_args[-1] == "./" else case_dir
        before = snapshot(case_dir)
        result = run(refused_args, cwd)
        after = snapshot(case_dir)
        check_refused(f"{case}: {what}: {' '.join(refused_args)}", before, after, result)
        undo()


def exec_case(seed):
    rng = random.Random(seed)
    case = f"seed {seed} exec"
    case_dir = os.path.join(WORK, f"exec{seed}")
    os.makedirs(case_dir)
    build_tree(case_dir, rng)
    before = snapshot(case_dir)
    during = os.path.join(WORK, f"exec{seed}.during")
    result = subprocess.run([TOOL, "exec", "--assemblies", "*", os.path.join(case_dir, "in"), "--", sys.executable,
                             os.path.abspath(__file__), "--snapshot", case_dir, "in", during],
                            cwd=WORK, capture_output=True, text=True)
    if result.returncode != 0:
        fail(case, f"exit {result.returncode}: {result.stderr.strip()}")
    after = snapshot(case_dir)
    if before != after:
        fail(case, f"the case is not as before: {sorted(set(before.items()) ^ set(after.items()))[:4]}")
    outside_before = {k: v for k, v in before.items() if not (k == "in" or k.startswith("in/"))}
    if os.path.exists(during):
        with open(during) as f:
            outside_during = eval(f.read())
        if outside_during != outside_before:
            fail(case, f"outside the folder changed while the command ran: {sorted(set(outside_before.items()) ^ set(outside_during.items()))[:4]}")
    else:
        fail(case, "the command did not run")
    result = subprocess.run([TOOL, "restore", os.path.join(case_dir, "in")], cwd=WORK, capture_output=True, text=True)
    if snapshot(case_dir) != before:
        fail(case, "restore changed the case")


if sys.argv[1] == "--snapshot":
    with open(sys.argv[4], "w") as f:
        f.write(repr(snapshot(sys.argv[2], sys.argv[3])))
    sys.exit(0)
for seed in range(SEEDS):
    folder_case(seed)
    exec_case(seed)
print(f"{SEEDS} seeds, {len(failures)} failures")
sys.exit(1 if failures else 0)
