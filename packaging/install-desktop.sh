#!/usr/bin/env bash
# Install BattleTracker into this user's desktop (no root needed): the menu entry, its icon,
# the AppStream metainfo, and the .battle file type, so a double-click on a saved game opens it.
#   packaging/install-desktop.sh [COMMAND]     COMMAND: the battletracker to start
#                                              (default: the one on PATH)
#   packaging/install-desktop.sh --uninstall   remove what the install put there
# Files go under ${XDG_DATA_HOME:-~/.local/share}.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
id=io.github.battletracker.BattleTracker
data="${XDG_DATA_HOME:-$HOME/.local/share}"
installed=(
  "$data/applications/$id.desktop"
  "$data/icons/hicolor/scalable/apps/$id.svg"
  "$data/metainfo/$id.metainfo.xml"
  "$data/mime/packages/$id.xml"
)

refresh() {  # let the desktop see the change, with whichever tools this system has
  if command -v update-mime-database >/dev/null; then update-mime-database "$data/mime"; fi
  if command -v update-desktop-database >/dev/null; then update-desktop-database "$data/applications"; fi
  if command -v gtk-update-icon-cache >/dev/null && [ -f "$data/icons/hicolor/index.theme" ]; then
    gtk-update-icon-cache --quiet --force "$data/icons/hicolor"
  fi
  return 0
}

if [ "${1:-}" = "--uninstall" ]; then
  rm -f "${installed[@]}"
  mkdir -p "$data/mime" "$data/applications"
  refresh
  echo "Removed the BattleTracker desktop entry, icon, metainfo and file type from $data"
  exit 0
fi

command="${1:-$(command -v battletracker || true)}"
if [ -z "$command" ] || [ ! -x "$command" ]; then
  echo "No battletracker program found${1:+ at $1}: give its path, for example" >&2
  echo "  packaging/install-desktop.sh ~/.local/bin/battletracker" >&2
  exit 1
fi
command="$(cd "$(dirname "$command")" && pwd)/$(basename "$command")"
case "$command" in
  *[\"\`\$\\]*) echo "Cannot put a path with quotes, \$ or \\ in a desktop entry: $command" >&2; exit 1 ;;
esac

install -Dm644 "$here/$id.desktop" "${installed[0]}"
# The entry starts this very program, wherever it was installed.
sed -i -e "s|^Exec=battletracker |Exec=\"$command\" |" -e "s|^TryExec=battletracker\$|TryExec=$command|" "${installed[0]}"
install -Dm644 "$here/../resources/icons/battletracker.svg" "${installed[1]}"
install -Dm644 "$here/$id.metainfo.xml" "${installed[2]}"
install -Dm644 "$here/$id.mime.xml" "${installed[3]}"
refresh
echo "Installed for $(id -un): BattleTracker in the desktop menu, starting $command;"
echo ".battle files open in it. Files under $data (remove with: $0 --uninstall)"
