# shellcheck shell=bash
# Sourced by .ci/run (run from the repository's root). Sets the two inputs of the deploy checks
# (`npm run test:deploy`, deploy/checks/run.ts) for this machine; why: .ci/README.md.
#
# prepare_node_image: NODE_IMAGE, the base image. Kept when given. Else `docker pull` of the
#   Dockerfile's default (bounded: CI_PULL_TIMEOUT_S, 300 s); when it fails because no registry
#   answers (name resolution, connection, time-out, TLS, proxy) and Docker does not already have
#   the image, NODE_IMAGE becomes the local stand-in CI_STANDIN_IMAGE
#   (local/node-standin:24-bookworm-slim): reused when Docker has it, else built once by
#   .ci/node-standin/build.ts (debootstrap installed first if missing; needs `npm ci` done).
#   A pull refused by a registry that answered stops the run: a stand-in would hide it.
# choose_docker_cli: DOCKER, the Docker CLI. Kept when given; left unset when `docker` has buildx
#   or is older than 23 (it builds with BuildKit itself); else /usr/bin/docker when that one is
#   older than 23 (Debian 12's docker.io 20.10).

CI_STANDIN_IMAGE="${CI_STANDIN_IMAGE:-local/node-standin:24-bookworm-slim}"
CI_PULL_TIMEOUT_S="${CI_PULL_TIMEOUT_S:-300}"
CI_STANDIN_TIMEOUT_S="${CI_STANDIN_TIMEOUT_S:-3600}"

# Whether docker pull's error says no registry was reached, rather than that one answered "no".
registry_unreachable() {
  grep -qiE 'no such host|dial tcp|i/o timeout|connection refused|connection reset|network is unreachable|no route to host|TLS handshake timeout|proxyconnect|context deadline exceeded|Client\.Timeout|server misbehaving' <<<"$1"
}

prepare_node_image() {
  local official out rc=0
  if [[ -n "${NODE_IMAGE:-}" ]]; then
    echo "ci: NODE_IMAGE=$NODE_IMAGE (given)"
    return
  fi
  official="$(sed -n 's/^ARG NODE_IMAGE=\([^[:space:]]*\).*/\1/p' Dockerfile | head -1)"
  [[ -n "$official" ]] || { echo "ci: the Dockerfile has no ARG NODE_IMAGE=<default>" >&2 && return 1; }

  out="$(timeout --kill-after=10 "$CI_PULL_TIMEOUT_S" docker pull --quiet "$official" 2>&1)" || rc=$?
  if ((rc == 0)); then
    echo "ci: docker pull $official: done; the deploy checks build on it"
    return
  fi
  if ((rc == 124 || rc == 137)); then
    out="no answer in $CI_PULL_TIMEOUT_S s"
  elif ! registry_unreachable "$out"; then
    echo "ci: docker pull $official failed, and not for want of a registry:" >&2
    echo "$out" >&2
    return 1
  fi
  if docker image inspect "$official" >/dev/null 2>&1; then
    echo "ci: no image registry answers ($(tail -1 <<<"$out")); Docker has $official, the deploy checks build on it"
    return
  fi
  echo "ci: no image registry answers ($(tail -1 <<<"$out")); base: the local stand-in $CI_STANDIN_IMAGE"
  if docker image inspect "$CI_STANDIN_IMAGE" >/dev/null 2>&1; then
    echo "ci: $CI_STANDIN_IMAGE is there, reused (created $(docker image inspect --format '{{.Created}}' "$CI_STANDIN_IMAGE"); docker rmi it to rebuild)"
  else
    if ! command -v debootstrap >/dev/null && [[ ! -x /usr/sbin/debootstrap ]]; then
      echo "ci: apt-get install debootstrap"
      DEBIAN_FRONTEND=noninteractive apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
    fi
    # One node process (tsx as a loader, not npx): timeout's signal reaches it, and it kills its
    # commands' process groups on the way out.
    PATH="$PATH:/usr/sbin" timeout --kill-after=30 "$CI_STANDIN_TIMEOUT_S" \
      node --import tsx .ci/node-standin/build.ts "$CI_STANDIN_IMAGE" || {
      echo "ci: the stand-in was not built" >&2
      return 1
    }
  fi
  export NODE_IMAGE="$CI_STANDIN_IMAGE"
  echo "ci: NODE_IMAGE=$NODE_IMAGE"
}

# The major version of a Docker CLI's client, empty when it does not answer.
docker_client_major() {
  timeout 30 "$1" version --format '{{.Client.Version}}' 2>/dev/null | sed -n 's/^\([0-9][0-9]*\)\..*/\1/p'
}

choose_docker_cli() {
  local major
  if [[ -n "${DOCKER:-}" ]]; then
    echo "ci: DOCKER=$DOCKER (given)"
    return
  fi
  if timeout 30 docker buildx version >/dev/null 2>&1; then
    echo "ci: docker has buildx: the deploy checks build with docker buildx build"
    return
  fi
  major="$(docker_client_major docker)"
  if [[ -n "$major" ]] && ((major < 23)); then
    echo "ci: docker is a $major.x CLI: the deploy checks build with DOCKER_BUILDKIT=1 docker build"
    return
  fi
  major="$(docker_client_major /usr/bin/docker)"
  if [[ -n "$major" ]] && ((major < 23)); then
    export DOCKER=/usr/bin/docker
    echo "ci: docker ($(command -v docker)) lacks buildx; DOCKER=$DOCKER, a $major.x CLI that builds with BuildKit itself"
    return
  fi
  echo "ci: no Docker CLI here builds with BuildKit: docker lacks buildx and /usr/bin/docker is not older than 23" >&2
  return 1
}
