#!/usr/bin/env bash
# Installs Debian's Chromium where it is missing (Playwright drives it; it never downloads its own):
# the browser (/usr/bin/chromium) and its headless shell, which the journeys use when present
# (playwright.config.ts; decision 0030). A missing shell is not an error: the journeys then run
# in the full browser, about half as fast. With CHROMIUM_PATH set, only that binary is needed. A
# shell that could not be installed is not tried again until node_modules is installed afresh.
set -euo pipefail
cd "$(dirname "$0")/.."
BROWSER="${CHROMIUM_PATH:-/usr/bin/chromium}"
SHELL_BINARY=/usr/lib/chromium/chromium-headless-shell
NO_SHELL_MARK=node_modules/.cache/no-chromium-headless-shell
want_shell=true
if [ -n "${CHROMIUM_PATH:-}" ] || [ -x "$SHELL_BINARY" ] || [ -e "$NO_SHELL_MARK" ]; then want_shell=false; fi
if [ -x "$BROWSER" ] && [ "$want_shell" = false ]; then exit 0; fi
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq || true
if [ ! -x "$BROWSER" ]; then
  echo "Chromium is missing: installing Debian's package."
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium fonts-noto-core >/dev/null
fi
if [ "$want_shell" = true ]; then
  echo "Chromium's headless shell is missing: installing Debian's package."
  if ! DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium-headless-shell >/dev/null; then
    echo "chromium-headless-shell could not be installed: the journeys run in the full browser."
    mkdir -p "$(dirname "$NO_SHELL_MARK")" && touch "$NO_SHELL_MARK"
  fi
fi
