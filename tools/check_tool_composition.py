#!/usr/bin/env python3
"""Tools compose through the model, not through each other (docs/architecture.md).

  tools/check_tool_composition.py [ROOT]     checks ROOT (default: this repository)
  tools/check_tool_composition.py --self-test  plants violations in a scratch tree; fails
                                               unless each is caught and nothing else is

A tool is a header in src/analysis/tools/ that declares a `Make...Tool()`; its result
functions are the `Compute...(` it declares. No other file of src/analysis/tools/ may call
them: a number two tools need is a derivation of the model
(src/analysis/model/derivations.h), computed once per model, that both read. (Sharing a
tool's presentation, e.g. WriteFindingsJson or StepTimeTable, is fine; recomputing its
result is what this refuses: `analyze --tool all` would compute it twice.)

Tests (*_test.cc) may call any tool. Prints one "path:line: message" per violation and
exits 1 if there is any.
"""

import os
import re
import sys
import tempfile

TOOLS_DIR = os.path.join("src", "analysis", "tools")

MAKE_TOOL = re.compile(r"\bstd::unique_ptr<Tool>\s+Make\w*Tool\s*\(\s*\)\s*;")
# A declaration at namespace scope: a return type, then Compute...( at the line's start.
DECLARED_COMPUTE = re.compile(r"^[A-Za-z_][\w:<>,\s*&]*?[\s*&](Compute\w*)\s*\(", re.M)
CALL = re.compile(r"\b(Compute\w*)\s*\(")


def strip_comments_and_strings(text):
    """Blanks comments and string/char literals, keeping line breaks (so lines still count)."""
    out = []
    i, n = 0, len(text)
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
        elif text.startswith('R"', i):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = ")" + m.group(1) + '"'
            j = text.find(end, i + m.end())
            j = n if j < 0 else j + len(end)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(" " * (j - i))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def tool_results(root):
    """{tool header stem: set of Compute* names it declares} for the tool headers."""
    tools = {}
    folder = os.path.join(root, TOOLS_DIR)
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".h"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            text = strip_comments_and_strings(f.read())
        if not MAKE_TOOL.search(text):
            continue
        tools[name[:-2]] = set(DECLARED_COMPUTE.findall(text))
    return tools


def check(root):
    tools = tool_results(root)
    owner = {}
    for stem, names in tools.items():
        for name in names:
            owner.setdefault(name, set()).add(stem)
    errors = []
    folder = os.path.join(root, TOOLS_DIR)
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".cc") or name.endswith("_test.cc"):
            continue
        stem = name[:-3]
        path = os.path.join(TOOLS_DIR, name)
        with open(os.path.join(root, path), encoding="utf-8") as f:
            text = strip_comments_and_strings(f.read())
        for m in CALL.finditer(text):
            owners = owner.get(m.group(1), set())
            if not owners or stem in owners:
                continue
            line = text.count("\n", 0, m.start()) + 1
            errors.append(
                "%s:%d: calls %s, the result of tool %s: tools compose through the model; read the "
                "model's derivation (src/analysis/model/derivations.h) instead, or make one"
                % (path, line, m.group(1), "/".join(sorted(owners))))
    return errors


def self_test():
    files = {
        "a.h": "std::unique_ptr<Tool> MakeATool();\nAResult ComputeA(const ProfileModel& model);\n",
        "a.cc": "AResult ComputeA(const ProfileModel& m) { return {}; }\n"
                "void F() { ComputeA(m); }  // its own: fine\n",
        "b.h": "std::unique_ptr<Tool> MakeBTool();\nstd::vector<Row> ComputeBRows(const ProfileModel& m,\n"
               "    int x);\n",
        "b.cc": "// ComputeA(model) in a comment is fine\nconst char* s = \"ComputeA(\";\n"
                "void G() {\n  auto r = ComputeA(model);\n}\n",
        "c.cc": "void H() { x = ComputeBRows(model, 1); }\n",
        "helper.h": "Thing ComputeHelper(const ProfileModel& model);  // not a tool: shareable\n",
        "d.cc": "void I() { ComputeHelper(model); }\n",
        "a_test.cc": "TEST(A, B) { ComputeBRows(model, 1); }\n",
    }
    expected = {("b.cc", 4, "ComputeA"), ("c.cc", 1, "ComputeBRows")}
    with tempfile.TemporaryDirectory() as root:
        folder = os.path.join(root, TOOLS_DIR)
        os.makedirs(folder)
        for name, text in files.items():
            with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
                f.write(text)
        errors = check(root)
    found = set()
    for e in errors:
        m = re.match(r".*/(\w+\.cc):(\d+): calls (\w+)", e)
        found.add((m.group(1), int(m.group(2)), m.group(3)))
    for item in sorted(expected & found):
        print("caught: %s:%d calls %s" % item)
    if found != expected:
        print("self-test FAILED: expected %s, got %s" % (sorted(expected), sorted(found)), file=sys.stderr)
        return 1
    print("self-test passed")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    root = argv[1] if len(argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    errors = check(root)
    for e in errors:
        print(e)
    if errors:
        print("tool composition: %d violation(s)" % len(errors), file=sys.stderr)
        return 1
    print("tool composition: no tool calls another tool's Compute* (%d tools)" % len(tool_results(root)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
