#!/usr/bin/env python3
"""The layering check: which code may include which (docs/architecture.md, "Layers").

  tools/check_layering.py [ROOT]                      the folder rules and the UI rules
  tools/check_layering.py --build-dir BUILD [ROOT]    ... and the target rule, from the
                                                      target list CMake wrote into BUILD
  tools/check_layering.py --self-test                 plants one violation of each kind in a
                                                      scratch tree; fails unless each is caught

Rules, in the spirit of Perfetto's tools/check_include_violations and `gn check`:

1. Folder rule. Every C/C++ file belongs to one layer (LAYERS below: the longest matching
   path wins). A layer may include its own files and those of the layers ALLOW names for it;
   everything else is refused. Test files (TEST_FILE) may also include what TEST_ALLOW adds.
2. Spelling rule. A repository header is included by its path from the repository root
   ("src/base/status_macros.h"), or as "stepscope/<name>.h" for the public API in include/.
   "../" and names resolved next to the including file ("foo.h") are refused: they would
   hide which layer a header belongs to.
3. Target rule (with --build-dir). A header belongs to the target that compiles its .cc (a
   header without one: to the libraries with sources in its folder; HEADER_OWNERS names the
   rest). A file compiled into target T may include only headers of T itself and of the
   targets T links directly or reaches through PUBLIC links - what CMake would give T the
   include directories of, if each target exported only its own headers.
4. UI rule. ui/src talks to the server only through /api: fetch/EventSource/WebSocket only
   with a literal "/api/..." URL, no absolute URLs, no imports from outside ui/.

Prints one "path:line: message" per violation and exits 1 if there is any; 2 when it cannot
run (a missing target list names what to do).
"""

import argparse
import json
import os
import re
import shutil
import sys
import tempfile

# ---------------------------------------------------------------------------------------
# The allow-list. This table is the source of truth for the layering; docs/architecture.md
# describes it.

# Layer -> the paths it is made of (folders end in "/").
LAYERS = {
    # The Status type every library returns. It lives with the public API (include/) because
    # the API returns it, and is implemented in src/base/status.cc.
    "status": ["include/stepscope/status.h"],
    # The public recording API (installed; implemented by collect, and remote for
    # profiler_server.h).
    "api": ["include/stepscope/"],
    # Headers generated from proto/stepscope/*.proto ("proto/stepscope/x.pb.h").
    "proto": ["proto/"],
    "base": ["src/base/"],
    "xspace": ["src/xspace/"],
    "hlo": ["src/hlo/"],
    "collect": ["src/collect/"],
    "gpu": ["src/gpu/"],
    "remote": ["src/remote/"],
    "importers": ["src/importers/"],
    "analysis/model": ["src/analysis/model/"],
    "analysis/output": ["src/analysis/output/"],
    "analysis/trace": ["src/analysis/trace/"],
    # The tools, with the Tool interface and the tool registry (src/analysis/tool*.h): one
    # target, stepscope_analysis.
    "analysis/tools": ["src/analysis/tools/", "src/analysis/"],
    "load": ["src/load/"],
    "server": ["src/server/"],
    "cli": ["src/cli/"],
    "package": ["src/package/"],
    # stepscope.load's bindings (_analysis), apart from the recorder's.
    "python/analysis": ["python/src/analysis/"],
    "python": ["python/"],
    "examples": ["examples/"],
    "bench": ["bench/"],
    "tests": ["tests/"],
}

# Every layer of src/ with the public API: for the layers that may use any of them.
_ALL_LIBRARIES = ["status", "api", "proto", "base", "xspace", "hlo", "collect", "gpu", "remote",
                  "importers", "analysis/model", "analysis/output", "analysis/trace",
                  "analysis/tools", "load", "server", "cli"]

# Layer -> the layers (or single files) it may include besides itself. Nothing else.
ALLOW = {
    "status": [],
    # Installed headers name nothing outside include/stepscope.
    "api": ["status"],
    "proto": [],
    "base": ["status"],
    "xspace": ["status", "base", "proto"],
    # XLA's compiled programs as the analysis reads them (columnar XSpace + HLO messages).
    "hlo": ["status", "base", "xspace", "proto"],
    # The recorder behind the public API; writes XSpace.
    "collect": ["status", "api", "base", "xspace"],
    # The CUPTI tracer registers with collect's tracer registry.
    "gpu": ["status", "api", "base", "xspace", "collect"],
    # The profiler server runs a Session through the public API (stepscope_remote links
    # collect, which implements it); the capture client needs neither (the target rule
    # keeps stepscope_remote_client off collect).
    "remote": ["status", "api", "base", "xspace", "proto"],
    "importers": ["status", "base", "xspace"],
    # The analysis never sees the collector, the importers or the loader: it works on any
    # XSpace, ours or TensorFlow's.
    "analysis/model": ["status", "base", "xspace", "hlo"],
    "analysis/output": ["status", "base"],
    # The trace viewer's index walks the columnar events, not the model.
    "analysis/trace": ["status", "base", "xspace", "analysis/output"],
    "analysis/tools": ["status", "base", "xspace", "hlo", "analysis/model", "analysis/output"],
    # (logdir, run, host) or a trace file -> model / trace index, for the CLI and the server.
    "load": ["status", "base", "xspace", "importers", "analysis/model", "analysis/trace"],
    # The capture dialog uses remote's capture client (the target rule: only
    # stepscope_remote_client, never the profiler server and its collector).
    "server": ["status", "base", "xspace", "analysis/model", "analysis/output", "analysis/trace",
               "analysis/tools", "load", "remote"],
    # The command line: every library layer but the recorder's (it captures through the
    # remote capture client, and never records itself).
    "cli": [layer for layer in _ALL_LIBRARIES if layer not in ("cli", "gpu", "collect", "api")],
    # libstepscope.so: the public API and what implements it.
    "package": ["status", "api", "base", "collect", "remote"],
    # Bindings over the recording API and the remote capture client (docs/python.md);
    # analysis and serving stay in the CLI and the server.
    # (python/src/analysis/analysis_bindings.h: the one header of stepscope.load's bindings.)
    "python": ["status", "api", "base", "collect", "remote", "python/analysis"],
    # stepscope.load's bindings: the CLI's loader and tools over a profile, never the
    # recorder; errors through the recorder bindings' exception classes (python/src/errors.h).
    "python/analysis": ["status", "base", "xspace", "analysis/model", "analysis/output", "analysis/tools", "load",
                        "python"],
    # Programs written as a user would: the public API, and the CLI's flag parser so their
    # flags read like the CLI's.
    "examples": ["status", "api", "src/cli/flags.h"],
    # Benchmarks measure every layer; the server benchmark reuses the tests' HTTP client.
    "bench": _ALL_LIBRARIES + ["tests"],
    "tests": _ALL_LIBRARIES + ["examples"],
}

# Layer -> what its test files (TEST_FILE) may include in addition.
TEST_ALLOW = {
    "analysis/model": ["proto"],
    "analysis/tools": ["proto"],
    # The fuzz check shares the fuzzers' column comparison (tests/fuzz/same_columns.h).
    "importers": ["tests"],
    # The server's tests read exports back with the importers, capture a profiler server
    # in the test process (the public API), and reuse the integration tests' HTTP client.
    "server": ["importers", "api", "tests"],
    # A profile read from bytes must give every tool the result the file gives.
    "load": ["analysis/tools"],
    # The examples' own tests read the profiles they write.
    "examples": ["xspace"],
}

TEST_FILE = re.compile(r"(_test\.cc|_test_util\.h|_for_test\.h)$|(^|/)testing/")

# Headers whose target the general rule (the target compiling the .cc of the same name, else
# the one library compiling sources in the header's folder) does not find: path or folder
# prefix -> owning targets. A header without a .cc in a folder of several libraries must be
# named here (the check says so).
HEADER_OWNERS = {
    # The public API: implemented by collect (remote: the profiler server; base: Status),
    # and by the shared libraries that carry them whole: libstepscope.so and the Python
    # extension _stepscope (the one recorder in a Python process, which _torch links).
    "include/stepscope/status.h": ["stepscope_base", "stepscope_shared", "_stepscope"],
    "include/stepscope/profiler_server.h": ["stepscope_remote", "stepscope_shared", "_stepscope"],
    "include/stepscope/": ["stepscope_collect", "stepscope_shared", "_stepscope"],
    "src/xspace/xplane.h": ["stepscope_xspace"],  # the generated messages' alias header
    "src/xspace/read_rules.h": ["stepscope_xspace_schema"],
    "src/xspace/columnar/columnar_memory_apply.h": ["stepscope_xspace_columnar"],
    "src/xspace/columnar/pod_array.h": ["stepscope_xspace_columnar"],
    "src/xspace/columnar/xplane_fields.h": ["stepscope_xspace_columnar"],
    "src/gpu/activity_records.h": ["stepscope_gpu_convert"],  # CUPTI-free records
    "src/server/result_cache.h": ["stepscope_server"],
    "src/cli/commands.h": ["stepscope_cli_core"],  # the command table's declarations
    "examples/mnist_mlp/random.h": ["mnist_mlp_data"],
    "python/src/op_name_cache.h": ["_torch"],
}

# Test helpers without a .cc beside the tests (test_util.h, foo_test_util.h, foo_for_test.h)
# belong to no target: the tests including them are checked, the helpers by the folder rule.
TEST_HELPER = re.compile(r"(_test_util|_for_test|(^|/)test_util)\.h$")

# Top-level folders of the repository: an include naming one of them is a repository path.
REPO_DIRS = ("src/", "include/", "proto/", "python/", "examples/", "bench/", "tests/", "tools/",
             "ui/")
CXX_FILE = re.compile(r"\.(h|hh|hpp|c|cc|cpp|cxx|cu|cuh|inc)$")
SKIP_DIRS = {"node_modules", "corpus", "corpus_sources", ".git", "__pycache__"}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]')
LIBRARY_TYPES = {"STATIC_LIBRARY", "SHARED_LIBRARY", "OBJECT_LIBRARY", "INTERFACE_LIBRARY"}


def layer_of(path):
    best, best_len = None, -1
    for layer, prefixes in LAYERS.items():
        for prefix in prefixes:
            if (path == prefix or (prefix.endswith("/") and path.startswith(prefix))) \
                    and len(prefix) > best_len:
                best, best_len = layer, len(prefix)
    return best


def cxx_files(root):
    """Repository-relative paths of the C/C++ files the folder rule covers."""
    tops = sorted({prefix.split("/")[0] for prefixes in LAYERS.values() for prefix in prefixes})
    for top in tops:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
            for name in sorted(filenames):
                if CXX_FILE.search(name):
                    yield os.path.relpath(os.path.join(dirpath, name), root)


def includes_of(root, path):
    """(line, spelled name, repository path or None, problem or None) per #include."""
    result = []
    try:
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            lines = f.readlines()
    except OSError:
        return result
    here = os.path.dirname(path)
    for number, line in enumerate(lines, 1):
        m = INCLUDE.match(line)
        if not m:
            continue
        delimiter, name = m.groups()
        parts = name.split("/")
        if ".." in parts or parts[0] == ".":
            result.append((number, name, None,
                           f'relative include "{name}": include it by its path from the '
                           f'repository root'))
        elif name.startswith(REPO_DIRS):
            result.append((number, name, os.path.normpath(name), None))
        elif parts[0] == "stepscope" and os.path.isfile(os.path.join(root, "include", name)):
            result.append((number, name, "include/" + name, None))
        elif delimiter == '"' and os.path.isfile(os.path.join(root, here, name)):
            rooted = os.path.normpath(os.path.join(here, name))
            result.append((number, name, None,
                           f'include "{name}" is not rooted at the repository: write "{rooted}"'))
        # Anything else is outside the repository (the standard library, gtest, protobuf).
    return result


def allowed(from_layer, path, to_layer, is_test):
    if from_layer == to_layer:
        return True
    names = ALLOW.get(from_layer, []) + (TEST_ALLOW.get(from_layer, []) if is_test else [])
    return to_layer in names or path in names


def check_folders(root):
    violations = []
    for path in cxx_files(root):
        from_layer = layer_of(path)
        if from_layer is None:
            continue
        is_test = bool(TEST_FILE.search(path))
        for number, name, target, problem in includes_of(root, path):
            if problem:
                violations.append((path, number, problem))
                continue
            if target is None:
                continue
            to_layer = layer_of(target)
            if to_layer is None:
                violations.append((path, number, f'"{name}" belongs to no layer (LAYERS in '
                                   'tools/check_layering.py)'))
            elif not allowed(from_layer, target, to_layer, is_test):
                may = ", ".join(ALLOW.get(from_layer, [])) or "nothing else"
                violations.append((path, number, f"{from_layer} must not include {to_layer} "
                                   f'("{name}"; {from_layer} may include: {may})'))
    return violations


# ---------------------------------------------------------------------------------------
# The target rule.

class Targets:
    """The targets of one build (CMake's layering/targets.json), by repository path."""

    def __init__(self, manifest, root):
        self.root = root
        source_dir = os.path.realpath(manifest["source_dir"])
        generated_dir = os.path.realpath(manifest["generated_dir"])
        aliases = manifest.get("aliases", {})
        raw = manifest["targets"]
        self.types = {name: t["TYPE"] for name, t in raw.items()}

        def repo_path(source, base):
            if "$<" in source:
                return None
            full = os.path.realpath(os.path.join(base, source))
            for prefix, mapped in ((generated_dir, ""), (source_dir, "")):
                if full.startswith(prefix + os.sep):
                    return mapped + os.path.relpath(full, prefix)
            return None

        def links(values):
            public, private = [], []
            for value in values:
                m = re.fullmatch(r"\$<(LINK_ONLY|BUILD_INTERFACE):(.*)>", value)
                kind, name = (m.group(1), m.group(2)) if m else ("", value)
                name = aliases.get(name, name)
                if "$<" in name or name not in raw:
                    continue  # not one of ours (system libraries, imported targets)
                (private if kind == "LINK_ONLY" else public).append(name)
            return public, private

        self.sources = {}     # target -> [repository path]
        self.compiled_by = {}  # repository path -> {target}
        self.direct = {}      # target -> targets it links (PUBLIC and PRIVATE)
        self.public = {}      # target -> targets it passes on to its users
        for name, t in raw.items():
            base = t["SOURCE_DIR"]
            paths = [p for p in (repo_path(s, base) for s in t["SOURCES"] + t["INTERFACE_SOURCES"])
                     if p]
            self.sources[name] = sorted(set(paths))
            for p in paths:
                self.compiled_by.setdefault(p, set()).add(name)
            linked_public, _ = links(t["LINK_LIBRARIES"])
            iface_public, _ = links(t["INTERFACE_LINK_LIBRARIES"])
            self.direct[name] = set(linked_public) | set(iface_public)
            self.public[name] = set(iface_public)
        self._visible = {}

    def visible(self, target):
        """The target, what it links, and what those pass on through PUBLIC links."""
        if target not in self._visible:
            seen, stack = {target}, list(self.direct.get(target, ()))
            while stack:
                t = stack.pop()
                if t in seen:
                    continue
                seen.add(t)
                stack.extend(self.public.get(t, ()))
            self._visible[target] = seen
        return self._visible[target]

    def owners(self, header):
        """(the targets a header belongs to, or empty when none in this build; the candidate
        libraries when its folder has several and HEADER_OWNERS names none)."""
        for prefix in sorted(HEADER_OWNERS, key=len, reverse=True):
            if header == prefix or (prefix.endswith("/") and header.startswith(prefix)):
                return {t for t in HEADER_OWNERS[prefix] if t in self.types}, set()
        if header in self.compiled_by:
            return set(self.compiled_by[header]), set()
        stem = os.path.splitext(header)[0]
        for ext in (".cc", ".cpp", ".cu", ".c"):
            if stem + ext in self.compiled_by:
                return set(self.compiled_by[stem + ext]), set()
            if os.path.isfile(os.path.join(self.root, stem + ext)):
                return set(), set()  # its .cc is compiled by no target in this build
        if TEST_HELPER.search(header):
            return set(), set()
        folder = os.path.dirname(header)
        libraries = {t for p, ts in self.compiled_by.items() if os.path.dirname(p) == folder
                     for t in ts if self.types[t] in LIBRARY_TYPES}
        if len(libraries) > 1:
            return set(), libraries
        return libraries, set()


def check_targets(root, targets):
    violations = []
    # A source must be fine for each target compiling it; a header for one of its owners.
    compiled = {}
    for target, paths in targets.sources.items():
        for path in paths:
            compiled.setdefault(path, set()).add(target)
    owned = {}
    for path in cxx_files(root):
        if path in compiled or not path.endswith((".h", ".hh", ".hpp", ".cuh", ".inc")):
            continue
        owners, candidates = targets.owners(path)
        if candidates:
            violations.append((path, 1, (
                "header without a .cc in a folder of several libraries "
                f"({', '.join(sorted(candidates))}): name its target in HEADER_OWNERS "
                "(tools/check_layering.py)")))
        elif owners:
            owned[path] = owners

    def blind_user(users, owners, each_user):
        """The user (target) that may not include a header of `owners`, or None."""
        blind = [user for user in sorted(users) if not owners & targets.visible(user)]
        if each_user or len(blind) == len(users):
            return blind[0] if blind else None
        return None

    files = [(path, users, True) for path, users in sorted(compiled.items())]
    files += [(path, users, False) for path, users in sorted(owned.items())]
    for path, users, each_user in files:
        if not os.path.isfile(os.path.join(root, path)):
            continue
        for number, name, header, problem in includes_of(root, path):
            if problem or header is None:
                continue
            owners, _ = targets.owners(header)
            user = blind_user(users, owners, each_user) if owners else None
            if user:
                violations.append((path, number, (
                    f'target {user} includes "{name}" of {"/".join(sorted(owners))}, which '
                    f"it does not link (link it in {user}'s target_link_libraries, PUBLIC "
                    "if its headers need it)")))
    return violations


# ---------------------------------------------------------------------------------------
# The UI rule.

UI_CALL = re.compile(r"(fetch|EventSource|WebSocket|XMLHttpRequest)\s*\(\s*(.{0,6})")
UI_API_CALL = re.compile(r"""(fetch|EventSource|WebSocket)\s*\(\s*[`'"]/api/""")
UI_ABSOLUTE_URL = re.compile(r"""[`'"](https?|wss?)://""")
UI_IMPORT = re.compile(r"""(?:from|import)\s*\(?\s*['"](\.{1,2}/[^'"]*)['"]""")


def check_ui(root):
    violations = []
    ui_src = os.path.join(root, "ui", "src")
    ui_root = os.path.realpath(os.path.join(root, "ui"))
    for dirpath, dirnames, filenames in os.walk(ui_src):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
        for filename in sorted(filenames):
            full = os.path.join(dirpath, filename)
            path = os.path.relpath(full, root)
            try:
                with open(full, encoding="utf-8", errors="replace") as f:
                    lines = f.readlines()
            except OSError:
                continue
            for number, line in enumerate(lines, 1):
                for m in UI_CALL.finditer(line):
                    if not UI_API_CALL.match(line, m.start()):
                        violations.append((path, number, "ui/ may only fetch /api/... (a literal "
                                           f"URL): {m.group(0).strip()}"))
                for m in UI_ABSOLUTE_URL.finditer(line):
                    if not line.startswith("www.w3.org/", m.end()):
                        violations.append((path, number, "ui/ must not use absolute URLs (only "
                                           "the local /api)"))
                for m in UI_IMPORT.finditer(line):
                    target = os.path.realpath(os.path.join(dirpath, m.group(1)))
                    if not target.startswith(ui_root + os.sep):
                        violations.append((path, number, "ui/ must not import outside ui/ "
                                           f"({m.group(1)})"))
    return violations


# ---------------------------------------------------------------------------------------

def load_manifest(build_dir):
    path = os.path.join(build_dir, "layering", "targets.json")
    if not os.path.isfile(path):
        sys.exit(f"layering: FAILED: {path} is missing; CMake writes it at the end of every "
                 "configure (cmake/StepscopeLayering.cmake): re-run cmake on that build directory")
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def check(root, manifest):
    violations = check_folders(root) + check_ui(root)
    if manifest is not None:
        violations += check_targets(root, Targets(manifest, root))
    return sorted(set(violations))


def report(violations, what):
    for path, number, message in violations:
        print(f"{path}:{number}: {message}")
    if violations:
        print(f"layering: {len(violations)} violation(s)")
    else:
        print(f"layering: ok ({what})")


# ---------------------------------------------------------------------------------------
# The self-test: a small tree with the real layers and a target list, clean, then with one
# violation of each kind planted.

CLEAN_FILES = {
    "include/stepscope/status.h": "",
    "include/stepscope/session.h": '#include "stepscope/status.h"\n',
    "src/base/logging.h": '#include "stepscope/status.h"\n',
    "src/base/logging.cc": '#include "src/base/logging.h"\n',
    "src/xspace/schema.h": '#include "src/base/logging.h"\n',
    "src/xspace/schema.cc": '#include "src/xspace/schema.h"\n',
    "src/xspace/xplane.h": '#include "proto/stepscope/xplane.pb.h"\n',
    "src/xspace/xplane.cc": '#include "src/xspace/xplane.h"\n#include "src/xspace/schema.h"\n',
    "src/xspace/columnar/columnar_reader.h": '#include "src/xspace/schema.h"\n',
    "src/xspace/columnar/columnar_reader.cc": '#include "src/xspace/columnar/columnar_reader.h"\n',
    "src/hlo/hlo_module.h": '#include "src/xspace/columnar/columnar_reader.h"\n',
    "src/hlo/hlo_module.cc": '#include "src/hlo/hlo_module.h"\n',
    "src/collect/session.cc": '#include "stepscope/session.h"\n#include "src/xspace/xplane.h"\n',
    "src/gpu/cupti_tracer.h": '#include "src/collect/tracer.h"\n',
    "src/gpu/cupti_tracer.cc": '#include "src/gpu/cupti_tracer.h"\n',
    "src/collect/tracer.h": '#include "src/xspace/xplane.h"\n',
    "src/remote/capture_client.h": '#include "src/xspace/xplane.h"\n',
    "src/remote/capture_client.cc": '#include "src/remote/capture_client.h"\n',
    "src/remote/profiler_service.h": '#include "stepscope/session.h"\n',
    "src/remote/profiler_service.cc": '#include "src/remote/profiler_service.h"\n',
    "src/importers/importer.h": '#include "src/xspace/xplane.h"\n',
    "src/importers/importer.cc": '#include "src/importers/importer.h"\n',
    "src/analysis/model/profile_model.h": '#include "src/hlo/hlo_module.h"\n',
    "src/analysis/model/profile_model.cc": '#include "src/analysis/model/profile_model.h"\n',
    "src/analysis/output/json_writer.h": '#include "src/base/logging.h"\n',
    "src/analysis/output/json_writer.cc": '#include "src/analysis/output/json_writer.h"\n',
    "src/analysis/trace/trace_index.h": '#include "src/analysis/output/json_writer.h"\n',
    "src/analysis/trace/trace_index.cc": '#include "src/analysis/trace/trace_index.h"\n',
    "src/analysis/tool.h": '#include "src/analysis/model/profile_model.h"\n',
    "src/analysis/tools/overview_page.h": '#include "src/analysis/tool.h"\n',
    "src/analysis/tools/overview_page.cc": ('#include "src/analysis/tools/overview_page.h"\n'
                                            '#include "src/analysis/output/json_writer.h"\n'),
    "src/load/profile_loader.h": '#include "src/analysis/model/profile_model.h"\n',
    "src/load/profile_loader.cc": ('#include "src/load/profile_loader.h"\n'
                                   '#include "src/importers/importer.h"\n'),
    "src/server/http_server.h": '#include "src/analysis/tools/overview_page.h"\n',
    "src/server/http_server.cc": ('#include "src/server/http_server.h"\n'
                                  '#include "src/remote/capture_client.h"\n'
                                  '#include "src/load/profile_loader.h"\n'),
    "src/server/http_server_test.cc": '#include "src/importers/importer.h"\n',
    "src/cli/flags.h": '#include "src/base/logging.h"\n',
    "src/cli/flags.cc": '#include "src/cli/flags.h"\n',
    "src/cli/main.cc": ('#include "src/server/http_server.h"\n#include <vector>\n'
                        '#include "gtest/gtest.h"\n'),
    "python/src/bindings.h": '#include "stepscope/session.h"\n',
    "python/src/bindings.cc": ('#include "python/src/bindings.h"\n'
                               '#include "src/remote/capture_client.h"\n'),
    "examples/mnist/main.cc": '#include "stepscope/session.h"\n#include "src/cli/flags.h"\n',
    "ui/src/main.ts": ("import { y } from './pages/page';\nfetch(`/api/runs`);\n"
                       "const ns = 'http://www.w3.org/2000/svg';\n"),
    "ui/src/pages/page.ts": "export const y = new EventSource('/api/events');\n",
}

# target -> (sources, PUBLIC links, PRIVATE links), as CMake would list them.
CLEAN_TARGETS = {
    "stepscope_base": (["src/base/logging.cc"], [], []),
    "stepscope_proto_xplane": (["proto/stepscope/xplane.pb.cc", "proto/stepscope/xplane.pb.h"],
                               [], []),
    "stepscope_xspace_schema": (["src/xspace/schema.cc"], ["stepscope_base"], []),
    "stepscope_xspace": (["src/xspace/xplane.cc"],
                         ["stepscope_xspace_schema", "stepscope_proto_xplane"], []),
    "stepscope_xspace_columnar": (["src/xspace/columnar/columnar_reader.cc"],
                                  ["stepscope_xspace_schema"], []),
    "stepscope_hlo": (["src/hlo/hlo_module.cc"], ["stepscope_xspace_columnar"], []),
    "stepscope_collect": (["src/collect/session.cc"], ["stepscope_xspace"], []),
    "stepscope_gpu": (["src/gpu/cupti_tracer.cc"], ["stepscope_collect"], []),
    "stepscope_remote_client": (["src/remote/capture_client.cc"], ["stepscope_xspace"], []),
    "stepscope_remote": (["src/remote/profiler_service.cc"],
                         ["stepscope_remote_client", "stepscope_collect"], []),
    "stepscope_importers": (["src/importers/importer.cc"], ["stepscope_xspace"], []),
    "stepscope_analysis_model": (["src/analysis/model/profile_model.cc"], ["stepscope_hlo"], []),
    "stepscope_analysis_output": (["src/analysis/output/json_writer.cc"], ["stepscope_base"], []),
    "stepscope_analysis_trace": (["src/analysis/trace/trace_index.cc"], [],
                                 ["stepscope_analysis_output"]),
    "stepscope_analysis": (["src/analysis/tools/overview_page.cc"],
                           ["stepscope_analysis_model", "stepscope_analysis_output"], []),
    "stepscope_load": (["src/load/profile_loader.cc"], ["stepscope_analysis_model"],
                       ["stepscope_importers"]),
    "stepscope_server": (["src/server/http_server.cc"], ["stepscope_analysis", "stepscope_load"],
                         ["stepscope_remote_client"]),
    "stepscope_server_test": (["src/server/http_server_test.cc"], [],
                              ["stepscope_server", "stepscope_importers"]),
    "stepscope_cli_flags": (["src/cli/flags.cc"], ["stepscope_base"], []),
    "stepscope": (["src/cli/main.cc"], [], ["stepscope_server", "stepscope_cli_flags"]),
    "_stepscope": (["python/src/bindings.cc"], [], ["stepscope_remote"]),
    "mnist": (["examples/mnist/main.cc"], [], ["stepscope_collect", "stepscope_cli_flags"]),
}

# (kind, path, content, what the report must say). Each is planted in its own file.
PLANTS = [
    ("analysis -> load", "src/analysis/tools/p01_load.cc",
     '#include "src/load/profile_loader.h"\n', "analysis/tools must not include load"),
    ("base -> hlo", "src/base/p02_hlo.cc",
     '#include "src/hlo/hlo_module.h"\n', "base must not include hlo"),
    ("remote -> gpu", "src/remote/p03_gpu.cc",
     '#include "src/gpu/cupti_tracer.h"\n', "remote must not include gpu"),
    ("remote -> collect's internals (only through the public API)", "src/remote/p03b_collect.cc",
     '#include "src/collect/tracer.h"\n', "remote must not include collect"),
    ("analysis/model -> analysis/tools", "src/analysis/model/p04_tools.cc",
     '#include "src/analysis/tools/overview_page.h"\n',
     "analysis/model must not include analysis/tools"),
    ("analysis -> public recording header", "src/analysis/tools/p05_api.cc",
     '#include "stepscope/session.h"\n', "analysis/tools must not include api"),
    ('relative include "../"', "src/analysis/model/p06_relative.cc",
     '#include "../output/json_writer.h"\n', 'relative include "../output/json_writer.h"'),
    ("base -> anything (xspace)", "src/base/p07_xspace.h",
     '#include "src/xspace/schema.h"\n', "base must not include xspace"),
    ("xspace -> analysis", "src/xspace/p08_analysis.cc",
     '#include "src/analysis/model/profile_model.h"\n', "xspace must not include analysis/model"),
    ("server -> cli", "src/server/p09_cli.cc",
     '#include "src/cli/flags.h"\n', "server must not include cli"),
    ("python -> analysis", "python/src/p10_analysis.cc",
     '#include "src/analysis/tool.h"\n', "python must not include analysis/tools"),
    ("header of a target not linked (server -> profiler service)", "src/server/p11_capture.cc",
     '#include "src/remote/profiler_service.h"\n',
     'target stepscope_server includes "src/remote/profiler_service.h" of stepscope_remote'),
    ("header of a target not linked (columnar -> XSpace messages)",
     "src/xspace/columnar/p12_messages.cc", '#include "src/xspace/xplane.h"\n',
     "target stepscope_xspace_columnar includes \"src/xspace/xplane.h\" of stepscope_xspace"),
    ("header of a target linked only PRIVATE-ly by a dependency (cli -> importers via load)",
     "src/cli/p13_private.cc", '#include "src/importers/importer.h"\n',
     'target stepscope includes "src/importers/importer.h" of stepscope_importers'),
    ("include not rooted at the repository", "src/analysis/trace/p14_unrooted.cc",
     '#include "trace_index.h"\n', 'write "src/analysis/trace/trace_index.h"'),
    ("angle-bracket include (importers -> remote)", "src/importers/p15_angle.cc",
     "#include <src/remote/capture_client.h>\n", "importers must not include remote"),
    ("collect -> analysis", "src/collect/p16_analysis.cc",
     '#include "src/analysis/tool.h"\n', "collect must not include analysis/tools"),
    ("public header -> src/", "include/stepscope/p17_src.h",
     '#include "src/base/logging.h"\n', "api must not include base"),
    ("a test-only allowance used outside tests (server -> importers)", "src/server/p18_import.cc",
     '#include "src/importers/importer.h"\n', "server must not include importers"),
    ("a file in no layer", "src/load/p19_nolayer.cc",
     '#include "tools/device/helper.h"\n', '"tools/device/helper.h" belongs to no layer'),
    ("header of no known target (no .cc, folder of several libraries)", "src/xspace/p20_owner.h",
     '#include "src/base/logging.h"\n', "name its target in HEADER_OWNERS"),
    ("UI fetch of a non-/api URL", "ui/src/p21_fetch.ts",
     'fetch("/data/x");\n', "ui/ may only fetch /api/"),
    ("UI absolute URL", "ui/src/p22_url.ts",
     'const u = "https://cdn.example.com/x.js";\n', "ui/ must not use absolute URLs"),
    ("UI import outside ui/", "ui/src/pages/p23_import.ts",
     "import { x } from '../../../src/cli/info';\n", "ui/ must not import outside ui/"),
]

# Plants the target rule sees: compiled into these targets.
PLANT_SOURCES = {
    "src/server/p11_capture.cc": "stepscope_server",
    "src/xspace/columnar/p12_messages.cc": "stepscope_xspace_columnar",
    "src/cli/p13_private.cc": "stepscope",
}


def synthetic_manifest(root, extra_sources):
    generated = os.path.join(root, "_build", "gen")
    targets = {}
    for name, (sources, public, private) in CLEAN_TARGETS.items():
        sources = sources + [p for p, t in extra_sources.items() if t == name]
        targets[name] = {
            "TYPE": "EXECUTABLE" if name in ("stepscope", "mnist", "stepscope_server_test")
                    else "STATIC_LIBRARY",
            "SOURCE_DIR": root,
            "SOURCES": [os.path.join(generated, s) if s.startswith("proto/") else s
                        for s in sources],
            "INTERFACE_SOURCES": [],
            "LINK_LIBRARIES": public + private,
            "INTERFACE_LINK_LIBRARIES": public + [f"$<LINK_ONLY:{p}>" for p in private],
        }
    return {"source_dir": root, "binary_dir": os.path.join(root, "_build"),
            "generated_dir": generated, "aliases": {}, "targets": targets}


def write_tree(root, files):
    for path, content in files.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as f:
            f.write(content)


def self_test():
    failed = False
    with tempfile.TemporaryDirectory(prefix="stepscope-layering-") as tmp:
        root = os.path.realpath(tmp)
        write_tree(root, CLEAN_FILES)
        clean = check(root, synthetic_manifest(root, {}))
        if clean:
            failed = True
            print("self-test: the clean tree is reported:")
            report(clean, "")
        else:
            print("self-test: clean tree: nothing reported")

        write_tree(root, {path: content for _, path, content, _ in PLANTS})
        found = check(root, synthetic_manifest(root, PLANT_SOURCES))
        for kind, path, _, expected in PLANTS:
            hits = [message for p, _, message in found if p == path and expected in message]
            if hits:
                print(f"caught      {kind}: {path}:1: {hits[0]}")
            else:
                failed = True
                print(f"NOT CAUGHT  {kind}: {path} (expected: {expected})")
        planted = {path for _, path, _, _ in PLANTS}
        for path, number, message in found:
            if path not in planted:
                failed = True
                print(f"self-test: false positive: {path}:{number}: {message}")
        shutil.rmtree(root, ignore_errors=True)
    print(f"layering self-test: {'FAILED' if failed else 'ok'} ({len(PLANTS)} kinds planted)")
    return 1 if failed else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("root", nargs="?",
                        default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    parser.add_argument("--build-dir",
                        help="a configured CMake build of ROOT: adds the target rule")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    root = os.path.realpath(args.root)
    manifest = load_manifest(args.build_dir) if args.build_dir else None
    if manifest is not None and os.path.realpath(manifest["source_dir"]) != root:
        sys.exit(f"layering: FAILED: {args.build_dir} is a build of {manifest['source_dir']}, "
                 f"not of {root}")
    violations = check(root, manifest)
    what = "folders, UI" + (f", {len(manifest['targets'])} targets" if manifest else
                            "; no --build-dir: target rule not checked")
    report(violations, what)
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
