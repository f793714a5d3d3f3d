#!/usr/bin/env bash
# `npm run test:node24`: the unit and server suites and a smoke e2e run on Node.js 24 (the current
# LTS; the machine's own Node 20 is past its end of life). Node 24's binary and headers come from
# the npm registry's `node-linux-<arch>` package (what the registry's `node` package installs), so
# nothing is downloaded from anywhere else; better-sqlite3 is built against those headers.
#
# The work happens in a copy of this checkout (tracked and new files, not node_modules), so the
# Node 20 install here is left as it is. .ci/run calls it.
#   NODE24_VERSION=24.9.0 npm run test:node24     # another 24.x (default: the newest 24)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
VERSION="${NODE24_VERSION:-24}"
case "$(uname -m)" in
  x86_64) ARCH=x64 ;;
  aarch64 | arm64) ARCH=arm64 ;;
  *) echo "test:node24: no node-linux package for $(uname -m)" >&2; exit 1 ;;
esac

# The exact version, then the package once per version (kept between runs).
EXACT="$(npm view "node-linux-${ARCH}@${VERSION}" version | tail -n1 | sed -E "s/.*'([^']+)'.*/\1/")"
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/manna/node-${EXACT}-linux-${ARCH}"
if [ ! -x "$CACHE/package/bin/node" ]; then
  mkdir -p "$CACHE"
  (cd "$CACHE" && npm pack --silent "node-linux-${ARCH}@${EXACT}" >/dev/null && tar xzf ./*.tgz && rm -f ./*.tgz)
fi
NODE24="$CACHE/package"
echo "test:node24: Node $("$NODE24/bin/node" --version) from node-linux-${ARCH}@${EXACT}"

WORK="$(mktemp -d -t manna-node24-XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
(cd "$ROOT" && git ls-files -z --cached --others --exclude-standard | xargs -0 tar cf - --ignore-failed-read 2>/dev/null) |
  (cd "$WORK" && tar xf -)
cd "$WORK"
export PATH="$NODE24/bin:$PATH"
# node-gyp builds native modules (better-sqlite3) against these headers instead of downloading them
export npm_config_nodedir="$NODE24"
[ "$(node --version | cut -d. -f1)" = "v24" ] || { echo "test:node24: node on PATH is $(node --version)" >&2; exit 1; }

echo "test:node24: npm ci"
npm ci --no-audit --no-fund --loglevel=error
node -e "require('better-sqlite3')(':memory:').prepare('select 1').get(); console.log('test:node24: better-sqlite3 loads on', process.version)"

echo "test:node24: unit and server suites"
report="$WORK/vitest.json"
npx vitest run --reporter=dot --reporter=json "--outputFile.json=$report"
node scripts/check-floor.mjs "$report" "unit+server tests"

echo "test:node24: build and a smoke e2e (the server itself on Node 24)"
MANNA_DIST="$WORK/dist" npm run build --silent
MANNA_DIST="$WORK/dist" E2E_WORKERS=2 npx playwright test tests/e2e/shell.spec.ts
echo "test:node24: ok"
