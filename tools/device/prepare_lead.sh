#!/usr/bin/env bash
# Fills .device/ (ignored by git) with what tools/device/lead_checks.sh needs on a machine
# without our Debian packages: the Release stepscope, the shared libraries it links that
# such a machine lacks, and the 15 MB Kineto trace of ../shared.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
B="$ROOT/build/release/bin/stepscope"
[ -x "$B" ] || { echo "build the Release CLI first: ./dev bench (or cmake --build build/release --target stepscope)" >&2; exit 2; }
rm -rf "$ROOT/.device"; mkdir -p "$ROOT/.device/bin" "$ROOT/.device/lib"
cp "$B" "$ROOT/.device/bin/"
for lib in $(ldd "$B" | awk '/=>/ {print $3}'); do
  case "$(basename "$lib")" in libc.so*|libm.so*|libgcc_s.so*|libstdc++.so*|ld-linux*) continue ;; esac
  cp -L "$lib" "$ROOT/.device/lib/"
done
cp "$ROOT/../shared/testdata/traces/hta_ns_resolution_rank-0.pt.trace.json.gz" "$ROOT/.device/"
grep -qx "/.device/" "$ROOT/.git/info/exclude" 2>/dev/null || echo "/.device/" >> "$(git -C "$ROOT" rev-parse --git-common-dir)/info/exclude"
du -sh "$ROOT/.device"
