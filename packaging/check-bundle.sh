#!/usr/bin/env bash
# Use an installed BattleTracker as a player would, before it ships: the standalone bundle (`make dist`
# runs this before packing) or a wheel's `battletracker` (.ci/smoke-install).
#   packaging/check-bundle.sh APP RESOURCES
# RESOURCES is the installation's own copy of resources/. APP starts offscreen on each demo there and
# on the played game of each ruleset (tests/fixtures/played_*.battle): each must paint, load its rules
# features and draw an odds plot. It replays each played game, and exports each one's report to HTML
# and PDF and its map to SVG and PNG. Any exit but 0, or anything printed on stderr, fails the check.
set -euo pipefail
app="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
resources="$(cd "$2" && pwd)"
repo="$(cd "$(dirname "$0")/.." && pwd)"
games=("$repo"/tests/fixtures/played_*.battle)
# The modules the app finds by walking its packages (each ruleset package's modules, each feature), read from the
# checkout's files: an installation lacking one starts without an error, so each must be among those it loaded.
discoverable="$(cd "$repo" && for f in battletracker/rules/*/*.py battletracker/ui/features/*.py \
  battletracker/ui/features/*/__init__.py; do f="${f%.py}"; f="${f%/__init__}"; echo "${f//\//.}"; done \
  | grep -vx "battletracker.ui.features" | sort -u)"
home="$(mktemp -d "${TMPDIR:-/tmp}/battletracker-check.XXXXXX")"
trap 'rm -rf "$home"' EXIT
cd "$home"
export HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_DATA_HOME="$home/.local/share" QT_QPA_PLATFORM=offscreen
unset PYTHONPATH PYTHONHOME

run() {  # run ARGS...: the app's stdout in $out; it must exit 0 and print nothing on stderr
  local code=0
  out="$(timeout 120 "$app" "$@" 2> "$home/stderr")" || code=$?
  if [ "$code" -ne 0 ] || [ -s "$home/stderr" ]; then
    echo "FAIL: battletracker $* exited $code; its stdout: $out; its stderr:" >&2
    cat "$home/stderr" >&2
    exit 1
  fi
}

expect_paint() {  # expect_paint ARGS...: the window paints, the features and the odds plot load
  run "$@" --quit-after-paint
  grep -qx "loaded the rules features and the odds plot" <<< "$out" || { echo "FAIL: $*: $out" >&2; exit 1; }
  local missing
  missing="$(comm -23 <(echo "$discoverable") <(sed -n 's/^discovered: //p' <<< "$out" | tr ' ' '\n' | sort -u))"
  [ -z "$missing" ] || { echo "FAIL: $*: these modules did not load: $(echo $missing)" >&2; exit 1; }
  echo "ok: ${1##*/} -> $(head -1 <<< "$out"), $(wc -l <<< "$discoverable") discovered modules loaded"
}

expect_kind() {  # expect_kind FILE WHAT PATTERN: FILE begins (in its first 512 bytes) with PATTERN
  head -c 512 "$1" | LC_ALL=C grep -aq "$3" || { echo "FAIL: $1 is not $2" >&2; exit 1; }
}

shopt -s nullglob
demos=("$resources"/demo/*.json)
[ "${#demos[@]}" -ge 3 ] || { echo "FAIL: only ${#demos[@]} demos in $resources/demo" >&2; exit 1; }
[ "${#games[@]}" -ge 3 ] || { echo "FAIL: only ${#games[@]} played games in tests/fixtures" >&2; exit 1; }
for demo in "${demos[@]}"; do
  expect_paint "$demo"
done
expect_paint --demo

for game in "${games[@]}"; do
  name="$(basename "$game" .battle)"
  expect_paint "$game"
  run replay "$game"
  echo "ok: replay $name -> $out"
  run export "$game" "$home/$name.html" "$home/$name.pdf" "$home/$name.svg" "$home/$name.png"
  expect_kind "$home/$name.html" "an HTML report" "<html"
  expect_kind "$home/$name.pdf" "a PDF" "^%PDF"
  expect_kind "$home/$name.svg" "an SVG map" "<svg"
  expect_kind "$home/$name.png" "a PNG map" "PNG"
  echo "ok: export $name -> HTML $(wc -c < "$home/$name.html"), PDF $(wc -c < "$home/$name.pdf"), SVG $(wc -c < "$home/$name.svg"), PNG $(wc -c < "$home/$name.png") bytes"
done
echo "installation check passed: ${#demos[@]} demos, ${#games[@]} played games replayed and exported"
