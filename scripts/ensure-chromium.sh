#!/usr/bin/env bash
# Installs Debian's Chromium where it is missing (Playwright drives it; it never downloads its own):
# the browser (/usr/bin/chromium) and its headless shell, which the journeys use when present
# (playwright.config.ts; decision 0030). A missing shell is not an error: the journeys then run
# in the full browser, about half as fast.
set -euo pipefail
BROWSER="${CHROMIUM_PATH:-/usr/bin/chromium}"
SHELL_BINARY=/usr/lib/chromium/chromium-headless-shell
if [ -x "$BROWSER" ] && [ -x "$SHELL_BINARY" ]; then exit 0; fi
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq || true
if [ ! -x "$BROWSER" ]; then
  echo "Chromium is missing: installing Debian's package."
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium fonts-noto-core >/dev/null
fi
if [ ! -x "$SHELL_BINARY" ]; then
  echo "Chromium's headless shell is missing: installing Debian's package."
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium-headless-shell >/dev/null ||
    echo "chromium-headless-shell could not be installed: the journeys run in the full browser."
fi
