#!/usr/bin/env bash
# Builds the images of the distributed-mode suites' infrastructure with podman, from Debian bookworm's
# packages on the base deploy/docker/node-base.sh makes and caches (no container registry needed):
#   localhost/countersign-test/postgres:15   postgres.Containerfile, Debian's postgresql-15
#   localhost/countersign-test/nats:2.9      nats.Containerfile, Debian's nats-server 2.9
# The tag is the Debian version the build installs. test/support/container-infra.ts runs this before
# it starts the containers and takes their names from what it prints: one `component=image` line each.
#
# Made once and cached, as the base is: each image carries a key made of its Containerfile, this
# script, containers.conf and the base's key. An image with the current key is kept; otherwise it is
# built again and the image it replaces removed. Measured on a 2-core machine with the base made:
# 70 s the first time (PostgreSQL's packages 55 s, NATS's 11 s), 3.5 min while another build drew
# on the mirror too; 0.4 s to find both current.
#
# Run as root, with what node-base.sh needs (podman, buildah, runc, debootstrap…).
# Usage: test/containers/build-images.sh
set -euo pipefail

HERE=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")
SELF=$HERE/$(basename "${BASH_SOURCE[0]}")
REPO=$(cd "$HERE/../.." && pwd)
CACHE=${COUNTERSIGN_IMAGE_CACHE:-$HOME/.cache/countersign/images}
IMAGES=(
  "postgres localhost/countersign-test/postgres:15"
  "nats localhost/countersign-test/nats:2.9"
)
# The RUN steps in runc, as the containers run (crun fails here), with the containers' limits.
export CONTAINERS_CONF=$HERE/containers.conf

log() { echo "test-images: $*" >&2; }
label() { podman image inspect --format "{{index .Labels \"$2\"}}" "$1" 2>/dev/null || true; }

# Suites that start at once build once: the others wait here, then find the images current.
mkdir -p "$CACHE"
exec 9>"$CACHE/test-images.lock"
flock 9

BASE=$("$REPO/deploy/docker/node-base.sh")
BASE_KEY=$(label "$BASE" countersign.base-key)

for entry in "${IMAGES[@]}"; do
  read -r component image <<<"$entry"
  file=$HERE/$component.Containerfile
  key=$(cat "$file" "$SELF" "$HERE/containers.conf" <(echo "$BASE_KEY") | sha256sum | cut -c1-16)
  if [[ "$(label "$image" countersign.test-image-key)" != "$key" ]]; then
    previous=$(podman image inspect --format '{{.Id}}' "$image" 2>/dev/null || true)
    build_log=$(mktemp "${TMPDIR:-/tmp}/test-image.XXXXXX")
    started=$SECONDS
    # The host's network: RUN steps reach the Debian mirrors (or their proxy) only through it.
    podman build --pull=never --network host --build-arg "VERSION=${image##*:}" \
      --label "countersign.test-image-key=$key" -f "$file" -t "$image" "$HERE" >"$build_log" 2>&1 || {
      tail -40 "$build_log" >&2
      exit 1
    }
    rm -f "$build_log"
    log "$image built in $((SECONDS - started)) s ($(podman image inspect --format '{{.Size}}' "$image" |
      numfmt --to=si)B, key $key)"
    current=$(podman image inspect --format '{{.Id}}' "$image")
    if [[ -n "$previous" && "$previous" != "$current" ]]; then
      podman image rm "$previous" >/dev/null 2>&1 || true
    fi
  fi
  echo "$component=$image"
done
