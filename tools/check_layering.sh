#!/usr/bin/env bash
# Checks the layering rules of DESIGN.md / STYLE.md 8.2 on #include lines and UI code.
#   tools/check_layering.sh [ROOT]     check the tree at ROOT (default: the repository)
#   tools/check_layering.sh --self-test  plant one violation per rule and check each is caught
# Prints one "file:line: rule" per violation; exits 1 if there is any.
set -uo pipefail

# layer directory -> layers (under src/) it must never include.
declare -A FORBIDDEN=(
  [base]="xspace collect gpu remote importers analysis server cli"
  [xspace]="collect gpu remote importers analysis server cli"
  [collect]="analysis importers gpu remote server cli"
  [gpu]="analysis importers remote server cli"
  [remote]="analysis importers server cli"
  [importers]="collect gpu remote analysis server cli"
  [analysis]="collect gpu remote importers server cli"
  # hlo: the XLA program reader and cost model, analysis-side (the analysis links it).
  [hlo]="collect gpu remote importers analysis load server cli"
  # load: the one place that reads a profile for the CLI and the server (XSpace or trace file).
  [load]="collect gpu remote server cli"
  # server may use the remote capture *client* (stepscope_remote_client links no collector;
  # CMake enforces that), for the UI's "Capture profile" dialog.
  [server]="collect gpu cli"
)

PYTHON_FORBIDDEN="analysis importers load server cli"

check_tree() {
  local root="$1" layer bad violations=0 file line spec target _
  for layer in "${!FORBIDDEN[@]}"; do
    [ -d "$root/src/$layer" ] || continue
    for bad in ${FORBIDDEN[$layer]}; do
      while IFS=: read -r file line _; do
        echo "${file#"$root"/}:$line: src/$layer must not include src/$bad"
        violations=$((violations + 1))
      done < <(grep -rnE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[\"<]src/$bad/" "$root/src/$layer" 2>/dev/null)
    done
  done
  # python/: bindings over the recording API and the remote capture client (docs/python.md);
  # analysis and serving stay in the CLI and the server.
  if [ -d "$root/python" ]; then
    for bad in $PYTHON_FORBIDDEN; do
      while IFS=: read -r file line _; do
        echo "${file#"$root"/}:$line: python/ must not include src/$bad"
        violations=$((violations + 1))
      done < <(grep -rnE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[\"<]src/$bad/" "$root/python" 2>/dev/null)
    done
  fi
  # The UI talks to the server only through /api: no other URLs, no imports outside ui/.
  if [ -d "$root/ui/src" ]; then
    while IFS=: read -r file line _; do
      echo "${file#"$root"/}:$line: ui/ may only fetch /api/..."
      violations=$((violations + 1))
    done < <(grep -rnoE "(fetch|EventSource|WebSocket|XMLHttpRequest)[[:space:]]*\([[:space:]]*.{0,6}" "$root/ui/src" |
             grep -vE "(fetch|EventSource|WebSocket)[[:space:]]*\([[:space:]]*[\`'\"]/api/")
    while IFS=: read -r file line _; do
      echo "${file#"$root"/}:$line: ui/ must not use absolute URLs (only the local /api)"
      violations=$((violations + 1))
    done < <(grep -rnE "[\`'\"](https?|wss?)://" "$root/ui/src" | grep -v "www.w3.org/")
    while IFS=: read -r file line spec; do
      spec=$(sed -E "s/.*from[[:space:]]*['\"]([^'\"]+)['\"].*/\1/; s/.*import[[:space:]]*\(?['\"]([^'\"]+)['\"].*/\1/" <<<"$spec")
      [[ "$spec" == .* ]] || continue
      target=$(realpath -m "$(dirname "$file")/$spec")
      if [[ "$target" != "$(realpath -m "$root/ui")"/* ]]; then
        echo "${file#"$root"/}:$line: ui/ must not import outside ui/ ($spec)"
        violations=$((violations + 1))
      fi
    done < <(grep -rnE "(from|import)[[:space:]]*\(?['\"]\.{1,2}/" "$root/ui/src")
  fi
  [ "$violations" -eq 0 ] && echo "layering: ok" && return 0
  echo "layering: $violations violation(s)" && return 1
}

self_test() {
  local tmp out failed=0 expected
  tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' RETURN
  mkdir -p "$tmp"/src/{base,xspace,collect,analysis/model,importers,server} "$tmp"/ui/src/pages
  echo '#include "src/xspace/xplane.h"' >"$tmp/src/base/a.h"
  echo '#include "src/analysis/model/x.h"' >"$tmp/src/xspace/b.cc"
  echo '#include "src/analysis/tool.h"' >"$tmp/src/collect/c.cc"
  echo '  #include "src/collect/session.h"' >"$tmp/src/analysis/model/d.cc"
  echo '#include <src/remote/capture_client.h>' >"$tmp/src/importers/e.cc"
  echo '#include "src/gpu/cupti_tracer.h"' >"$tmp/src/server/f.cc"
  echo 'fetch(`/api/runs`); fetch("/data/x"); const u = "https://cdn.example.com/x.js";' >"$tmp/ui/src/g.ts"
  echo "import { x } from '../../../src/cli/info';" >"$tmp/ui/src/pages/h.ts"
  echo "import { y } from '../g'; const ns = 'http://www.w3.org/2000/svg';" >"$tmp/ui/src/pages/ok.ts"
  mkdir -p "$tmp/python/src" && echo '#include "src/analysis/tool.h"' >"$tmp/python/src/i.cc"
  out=$(check_tree "$tmp")
  for expected in "src/base/a.h:1: src/base must not include src/xspace" \
      "src/xspace/b.cc:1: src/xspace must not include src/analysis" "src/collect/c.cc:1: src/collect must not include src/analysis" \
      "src/analysis/model/d.cc:1: src/analysis must not include src/collect" \
      "src/importers/e.cc:1: src/importers must not include src/remote" "src/server/f.cc:1: src/server must not include src/gpu" \
      "ui/src/g.ts:1: ui/ may only fetch /api/" "ui/src/g.ts:1: ui/ must not use absolute URLs" \
      "ui/src/pages/h.ts:1: ui/ must not import outside ui/" "python/src/i.cc:1: python/ must not include src/analysis" \
      "layering: 10 violation(s)"; do
    grep -qF "$expected" <<<"$out" || { echo "self-test: not reported: $expected"; failed=1; }
  done
  grep -q "ok.ts" <<<"$out" && { echo "self-test: false positive on ok.ts"; failed=1; }
  [ "$failed" -eq 0 ] && echo "layering self-test: ok"
  return "$failed"
}

if [ "${1:-}" = "--self-test" ]; then self_test; exit $?; fi
check_tree "$(realpath "${1:-$(dirname "${BASH_SOURCE[0]}")/..}")"
