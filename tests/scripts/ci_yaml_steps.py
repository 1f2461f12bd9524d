#!/usr/bin/env python3
"""The commands of a CI recipe in docs/ci as a bash script, for ci_recipe_test.sh.

Reads the top-level `env:` (GitHub Actions) or `variables:` (GitLab CI) block and every
`run: |` block or `script:` list, in order, without PyYAML (it may not be installed): the
recipes keep to that simple form. When PyYAML is there, its reading must agree (a recipe that
only this reader understands would not run in CI). KEY=VALUE arguments replace the recipe's
variables. Each step runs as CI runs it: in bash with -e and pipefail, the script stopping at
the first step that fails, with its status.
  ci_yaml_steps.py RECIPE.yml [KEY=VALUE...]
"""
import shlex
import sys


def unquote(value):
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def indent(line):
    return len(line) - len(line.lstrip(" "))


def read(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    variables, steps = {}, []
    i = 0
    while i < len(lines):
        line = lines[i]
        text = line.strip()
        key = text[2:] if text.startswith("- ") else text
        if indent(line) == 0 and text in ("env:", "variables:"):
            i += 1
            while i < len(lines) and (not lines[i].strip() or indent(lines[i]) > 0):
                if lines[i].strip() and not lines[i].strip().startswith("#"):
                    name, _, value = lines[i].strip().partition(":")
                    variables[name] = unquote(value)
                i += 1
            continue
        if key == "run: |":  # a block: the lines indented deeper than the key
            base, block = indent(line) + (2 if text.startswith("- ") else 0), []
            i += 1
            while i < len(lines) and (not lines[i].strip() or indent(lines[i]) > base):
                block.append(lines[i])
                i += 1
            depth = min(indent(b) for b in block if b.strip())
            steps.append("\n".join(b[depth:] for b in block).strip("\n"))
            continue
        if key.startswith("run:"):
            sys.exit(f"{path}:{i + 1}: write `run: |` and the commands below it")
        if text == "script:":  # a list: one command a line
            base = indent(line)
            i += 1
            while i < len(lines) and (not lines[i].strip() or indent(lines[i]) > base):
                item = lines[i].strip()
                if item.startswith("- "):
                    steps.append(unquote(item[2:]))
                elif item and not item.startswith("#"):
                    sys.exit(f"{path}:{i + 1}: a script line that is not `- COMMAND`")
                i += 1
            continue
        i += 1
    return variables, steps


def read_with_yaml(path):
    import yaml
    doc = yaml.safe_load(open(path, encoding="utf-8"))
    variables = {k: str(v) for k, v in (doc.get("env") or doc.get("variables") or {}).items()}
    steps = []
    for name, job in doc.items():
        if name == "jobs":
            for each in job.values():
                steps += [s["run"].strip("\n") for s in each.get("steps", []) if "run" in s]
        elif isinstance(job, dict) and "script" in job:
            steps += job["script"]
    return variables, steps


path = sys.argv[1]
variables, steps = read(path)
try:
    import yaml  # noqa: F401
    theirs = read_with_yaml(path)
    if theirs != (variables, steps):
        sys.exit(f"{path}: PyYAML reads it otherwise: {theirs} != {(variables, steps)}")
except ImportError:
    pass
if not steps:
    sys.exit(f"{path}: no `run: |` block or `script:` list")
for setting in sys.argv[2:]:
    name, _, value = setting.partition("=")
    variables[name] = value
for name, value in variables.items():
    print(f"export {name}={shlex.quote(value)}")
for step in steps:
    print(f"bash -eo pipefail -c {shlex.quote(step)} || exit $?")
