#!/usr/bin/env bash
# Builds Countersign's two images from this repository with podman, on a machine that reaches the
# npm registry and the Debian mirrors but no container registry (CI here):
#   ghcr.io/countersign/countersign:$TAG            the default target (every component but the converter)
#   ghcr.io/countersign/countersign-converter:$TAG  the `converter` target (the same, with LibreOffice)
# the names the dev overlay (deploy/overlays/dev) deploys. The base, `node:24-bookworm-slim`, is the
# stand-in node-base.sh makes once and caches; with a registry, `docker build` as in the Dockerfile's
# header does the same with the real base.
#
# Run as root. Debian packages (apt-get install --no-install-recommends):
#   podman buildah debootstrap runc uidmap fuse-overlayfs slirp4netns containers-storage
#   golang-github-containers-common catatonit iptables netavark aardvark-dns conmon
# and an npm on the PATH (node-base.sh fetches Node and npm with it).
#
# Usage: deploy/docker/build-images.sh [TAG]      (TAG defaults to dev)
# Prints each image's size and what it adds to the base.
set -euo pipefail

TAG=${1:-dev}
HERE=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")
REPO=$(cd "$HERE/../.." && pwd)
IMAGE=ghcr.io/countersign/countersign:$TAG
CONVERTER=ghcr.io/countersign/countersign-converter:$TAG

log() { echo "build-images: $*" >&2; }

BASE=$("$HERE/node-base.sh")

VERSION=$(node -p 'require(process.argv[1]).version' "$REPO/package.json")
REVISION=$(git -C "$REPO" rev-parse HEAD 2>/dev/null || echo unknown)
# Measured on these machines: crun (Debian's default when installed) fails with "cgroups in hybrid
# mode", runc works; the build's RUN steps need the host's network (no CNI bridge to the proxy) and
# limits within the hard ones here (podman's defaults are above them, and runc refuses those).
# --pull=never: the base is local, and no registry is reachable to ask for a newer one.
BUILD=(
  podman build --pull=never --runtime /usr/sbin/runc --network host
  --ulimit nofile=20000:20000 --ulimit nproc=1024:1024
  --build-arg "VERSION=$VERSION" --build-arg "REVISION=$REVISION"
  --build-arg "SOURCE=https://github.com/countersign/countersign"
  -f "$REPO/deploy/docker/Dockerfile"
)

started=$SECONDS
log "$IMAGE"
"${BUILD[@]}" -t "$IMAGE" "$REPO"
log "$IMAGE built in $((SECONDS - started)) s"
started=$SECONDS
# The stages the two targets share are cached from the first build: only LibreOffice is new.
log "$CONVERTER"
"${BUILD[@]}" --target converter -t "$CONVERTER" "$REPO"
log "$CONVERTER built in $((SECONDS - started)) s"

size() { podman image inspect --format '{{.Size}}' "$1"; }
base_size=$(size "$BASE")
for image in "$BASE" "$IMAGE" "$CONVERTER"; do
  bytes=$(size "$image")
  printf '%-50s %5d MB  (+%d MB over the base)\n' "$image" $((bytes / 1000000)) \
    $(((bytes - base_size) / 1000000))
done
