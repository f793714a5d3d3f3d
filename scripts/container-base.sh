#!/usr/bin/env bash
# Makes the Node 24 base images the Dockerfile builds on, from Debian's packages and the npm
# registry alone, for machines that reach no registry of base images (this one, CI):
#
#   localhost/manna-base:24-bookworm        Debian 12 (debootstrap minbase, trimmed like
#                                           debian:bookworm-slim) with Node 24 in /usr/local/bin
#   localhost/manna-base:24-bookworm-build  the same with npm and Node's headers (for node-gyp)
#
# They stand in for the official image the Dockerfile defaults to (node:24-slim, which holds node,
# npm and the headers in /usr/local): pass them as the build arguments
#   podman build --build-arg BASE=localhost/manna-base:24-bookworm \
#                --build-arg BUILD_BASE=localhost/manna-base:24-bookworm-build .
# Node comes from the npm registry's node-linux-<arch> package (what its `node` package installs),
# npm from its `npm` package. An image that already exists is kept (FORCE=1 makes them again).
#   NODE24_VERSION=24.9.0 scripts/container-base.sh     # another 24.x (default: the newest 24)
# Needs root, debootstrap and podman (scripts/test-container.mjs installs them when missing).
set -euo pipefail
# debootstrap lives in /usr/sbin, which a PATH may lack
export PATH="$PATH:/usr/sbin:/sbin"
PODMAN=(podman --runtime "${PODMAN_RUNTIME:-runc}")
RUNTIME_TAG=localhost/manna-base:24-bookworm
BUILD_TAG=localhost/manna-base:24-bookworm-build
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"

if [ -z "${FORCE:-}" ] && "${PODMAN[@]}" image exists "$RUNTIME_TAG" && "${PODMAN[@]}" image exists "$BUILD_TAG"; then
  echo "container-base: $RUNTIME_TAG and $BUILD_TAG exist (FORCE=1 to make them again)"
  exit 0
fi

case "$(uname -m)" in
  x86_64) ARCH=x64 ;;
  aarch64 | arm64) ARCH=arm64 ;;
  *) echo "container-base: no node-linux package for $(uname -m)" >&2; exit 1 ;;
esac
VERSION="$(npm view "node-linux-${ARCH}@${NODE24_VERSION:-24}" version | tail -n1 | sed -E "s/.*'([^']+)'.*/\1/")"
NPM_VERSION="$(npm view npm@11 version | tail -n1 | sed -E "s/.*'([^']+)'.*/\1/")"

WORK="$(mktemp -d -t manna-base-XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
ROOTFS="$WORK/rootfs"

echo "container-base: debootstrap --variant=minbase bookworm"
started=$SECONDS
debootstrap --variant=minbase bookworm "$ROOTFS" "$MIRROR" >"$WORK/debootstrap.log" 2>&1 ||
  { tail -n 20 "$WORK/debootstrap.log" >&2; echo "container-base: debootstrap failed" >&2; exit 1; }
echo "container-base: debootstrap done in $((SECONDS - started)) s"
# what debian:bookworm-slim leaves out: package lists and caches, documentation, manuals, locales
rm -rf "$ROOTFS"/var/cache/apt/* "$ROOTFS"/var/lib/apt/lists/* "$ROOTFS"/var/log/* \
  "$ROOTFS"/usr/share/doc/* "$ROOTFS"/usr/share/man/* "$ROOTFS"/usr/share/info/* \
  "$ROOTFS"/usr/share/locale/* "$ROOTFS"/tmp/*
mkdir -p "$ROOTFS/etc/dpkg/dpkg.cfg.d"
printf '%s\n' 'path-exclude /usr/share/doc/*' 'path-exclude /usr/share/man/*' \
  'path-exclude /usr/share/info/*' 'path-exclude /usr/share/locale/*' \
  >"$ROOTFS/etc/dpkg/dpkg.cfg.d/docker-slim"

echo "container-base: Node ${VERSION} from node-linux-${ARCH}, npm ${NPM_VERSION}"
(cd "$WORK" && npm pack --silent "node-linux-${ARCH}@${VERSION}" "npm@${NPM_VERSION}" >/dev/null)
mkdir -p "$WORK/node" "$WORK/npm"
tar xzf "$WORK"/node-linux-"${ARCH}"-*.tgz -C "$WORK/node"
tar xzf "$WORK"/npm-*.tgz -C "$WORK/npm"
install -D -m 0755 "$WORK/node/package/bin/node" "$ROOTFS/usr/local/bin/node"
strip "$ROOTFS/usr/local/bin/node"
"$ROOTFS/usr/local/bin/node" --version >/dev/null

import_tree() { # rootfs tag
  tar -C "$1" --numeric-owner -cf - . |
    "${PODMAN[@]}" import \
      --change 'ENV=PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
      --change "ENV=NODE_VERSION=${VERSION}" \
      --change 'CMD=["node"]' - "$2" >/dev/null 2>&1
}
import_tree "$ROOTFS" "$RUNTIME_TAG"

# the build image: npm and the headers node-gyp builds better-sqlite3 against, where the official
# image keeps them
mkdir -p "$ROOTFS/usr/local/lib/node_modules" "$ROOTFS/usr/local/include"
cp -a "$WORK/npm/package" "$ROOTFS/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$ROOTFS/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$ROOTFS/usr/local/bin/npx"
cp -a "$WORK/node/package/include/node" "$ROOTFS/usr/local/include/node"
import_tree "$ROOTFS" "$BUILD_TAG"

for tag in "$RUNTIME_TAG" "$BUILD_TAG"; do
  size=$("${PODMAN[@]}" image inspect --format '{{.Size}}' "$tag")
  echo "container-base: $tag ($((size / 1000000)) MB)"
done
