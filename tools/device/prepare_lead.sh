#!/usr/bin/env bash
# Fills .device/release/ (ignored by git; run after tools/device/prepare.sh, which empties
# .device/) with what tools/device/lead_checks.sh needs on a machine
# without our Debian packages: the Release stepscope, the shared libraries it links that
# such a machine lacks, the import and analysis benchmarks, and the 15 MB Kineto trace of
# ../shared (as .device/release/shared/testdata/traces/, the layout STEPSCOPE_SHARED_DIR names).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
B="$ROOT/build/release/bin/stepscope"
[ -x "$B" ] || { echo "build the Release CLI first: ./dev bench (or cmake --build build/release --target stepscope)" >&2; exit 2; }
D="$ROOT/.device/release"
rm -rf "$D"; mkdir -p "$D/bin" "$D/lib" "$D/shared/testdata/traces"
for bin in "$B" "$(dirname "$B")/import_benchmark" "$(dirname "$B")/analysis_benchmark"; do
  cp "$bin" "$D/bin/"
  for lib in $(ldd "$bin" | awk '/=>/ {print $3}'); do
    case "$(basename "$lib")" in libc.so*|libm.so*|libgcc_s.so*|libstdc++.so*|ld-linux*) continue ;; esac
    cp -L "$lib" "$D/lib/"
  done
done
cp "$ROOT/../shared/testdata/traces/hta_ns_resolution_rank-0.pt.trace.json.gz" "$D/shared/testdata/traces/"
grep -qx "/.device/" "$ROOT/.git/info/exclude" 2>/dev/null || echo "/.device/" >> "$(git -C "$ROOT" rev-parse --git-common-dir)/info/exclude"
du -sh "$D"
