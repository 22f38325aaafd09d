#!/usr/bin/env bash
# Start the standalone bundle offscreen on each shipped demo, as `make dist` does before packing:
# each must paint, load its rules features, draw an odds plot and quit with exit 0.
#   packaging/check-bundle.sh dist/battletracker/battletracker
set -euo pipefail
app="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
demos="$(dirname "$app")/_internal/battletracker/resources/demo"
home="$(mktemp -d "${TMPDIR:-/tmp}/battletracker-bundle.XXXXXX")"
trap 'rm -rf "$home"' EXIT
cd "$home"
export HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_DATA_HOME="$home/.local/share" QT_QPA_PLATFORM=offscreen
unset PYTHONPATH PYTHONHOME
shopt -s nullglob
checked=0
for demo in "$demos"/*.json; do
  out="$(timeout 120 "$app" "$demo" --quit-after-paint)" || { echo "FAIL: the bundle did not open $demo" >&2; exit 1; }
  grep -qx "loaded the rules features and the odds plot" <<< "$out" || { echo "FAIL: $demo: $out" >&2; exit 1; }
  echo "ok: $(basename "$demo") -> $(head -1 <<< "$out")"
  checked=$((checked + 1))
done
[ "$checked" -ge 3 ] || { echo "FAIL: only $checked demos found in $demos" >&2; exit 1; }
out="$(timeout 120 "$app" --demo --quit-after-paint)" || { echo "FAIL: the bundle did not open --demo" >&2; exit 1; }
echo "ok: --demo -> $(head -1 <<< "$out")"
