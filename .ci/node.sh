# shellcheck shell=bash
# Sourced by .ci/run. `use_node <major>` puts Node <major> first on PATH for the rest of the shell:
# the machine's own node when it is that major, else the newest <major>.x of Node's official
# binaries from the npm registry (node-linux-<arch>; npm checks the tarball against the registry's
# integrity hash), kept in .cache/node/v<version>/ (git-ignored). A later run finds it there and
# needs no network; delete .cache/node to pick up a newer patch release.
# Why the npm registry: .ci/README.md ("Node from the npm registry").

NODE_CACHE_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.cache/node"

use_node() {
  local major="$1" dir
  if [[ "$(node --version 2>/dev/null || true)" != "v$major."* ]]; then
    dir="$(cached_node_dir "$major")"
    if [[ -z "$dir" ]]; then
      download_node "$major"
      dir="$(cached_node_dir "$major")"
      [[ -n "$dir" ]] || { echo "ci: the downloaded Node $major does not run here" >&2 && return 1; }
    fi
    export PATH="$dir/bin:$PATH"
    hash -r
  fi
  echo "ci: node $(node --version) ($(command -v node))"
}

# The highest cached v<major>.x.y whose binary runs and reports that version; empty when none.
cached_node_dir() {
  local major="$1" dir
  while read -r dir; do
    if [[ "$("$dir/bin/node" --version 2>/dev/null)" == "$(basename "$dir")" ]]; then
      echo "$dir"
      return
    fi
  done < <(find "$NODE_CACHE_DIR" -mindepth 1 -maxdepth 1 -name "v$major.*" 2>/dev/null | sort -rV)
}

download_node() {
  local major="$1" arch tmp tarball version unpacked
  case "$(uname -m)" in
    x86_64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) echo "ci: no Node binary package for $(uname -m) on the npm registry" >&2 && return 1 ;;
  esac
  tmp="$(mktemp -d)"
  echo "ci: fetching node-linux-$arch@$major from the npm registry"
  # Run from the empty temp dir so the project's .npmrc and package.json play no part.
  tarball="$(cd "$tmp" && npm pack --loglevel=error "node-linux-$arch@$major")"
  version="${tarball#"node-linux-$arch-"}"
  version="${version%.tgz}"
  # Unpacked next to its final place and renamed there in one step (same file system), so an
  # interrupted run never leaves a half-written version that a later run would take.
  mkdir -p "$NODE_CACHE_DIR"
  unpacked="$(mktemp -d "$NODE_CACHE_DIR/.unpacking.XXXXXX")"
  chmod 755 "$unpacked"
  tar -xzf "$tmp/$tarball" -C "$unpacked" --strip-components=1 package/bin/node package/LICENSE
  rm -rf "$tmp"
  if [[ -e "$NODE_CACHE_DIR/v$version" ]]; then rm -rf "$unpacked"; else mv "$unpacked" "$NODE_CACHE_DIR/v$version"; fi
}
