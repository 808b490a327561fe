#!/usr/bin/env bash
# A newcomer's first run: install an engine if none is there, install the dependencies,
# build the command line, and dig book.horu from the initial position until Ctrl-C.
# Extra arguments go to `horu dig` (e.g. --positions 100, --nodes 300000).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v fairy-stockfish >/dev/null 2>&1 && [ ! -x /usr/games/fairy-stockfish ] && [ ! -x /usr/games/gpsusi ]; then
  echo "quickstart: installing fairy-stockfish (Debian/Ubuntu package)"
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update
  $sudo apt-get install -y fairy-stockfish
fi
if [ ! -d node_modules/better-sqlite3 ]; then
  ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm ci --no-audit --no-fund
fi
npm run --silent build:node
exec node bin/horu.js dig --book "${HORU_BOOK:-book.horu}" "$@"
