#!/usr/bin/env bash
# Build fc-solve (Freecell Solver) with room for Fan's 18 stacks, for the side-by-side benchmark.
#
# Debian's freecell-solver-bin is compiled for at most 10 stacks and refuses Fan, so this fetches
# Debian's freecell-solver source package and builds it with -DMAX_NUM_STACKS=20 into a cache
# directory outside the repository (never commit the peer's source or binaries).
#
# Usage: benchmarks/build_fcsolve.sh            (prints the path of the fc-solve binary)
# Environment: FANFOLD_FCSOLVE_CACHE (default ~/.cache/fanfold/fc-solve).
set -euo pipefail

CACHE="${FANFOLD_FCSOLVE_CACHE:-$HOME/.cache/fanfold/fc-solve}"
BINARY="$CACHE/build/fc-solve"
if [[ -x "$BINARY" ]]; then
    echo "$BINARY"
    exit 0
fi
mkdir -p "$CACHE"
SUDO=""
if [[ "$(id -u)" != 0 ]]; then SUDO="sudo"; fi

# A deb-src line for the release's main archive, if none is configured yet.
if ! grep -rqs '^Types:.*deb-src\|^deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    codename="$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")"
    keyring=/usr/share/keyrings/debian-archive-keyring.gpg
    # The source archive is the one the machine's binary packages already come from.
    uri="$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)"
    if [[ -z "$uri" ]]; then
        uri="$(awk '$1 == "deb" {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)"
    fi
    printf 'Types: deb-src\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: %s\n' \
        "$uri" "$codename" "$keyring" | $SUDO tee /etc/apt/sources.list.d/fanfold-deb-src.sources >/dev/null
fi
$SUDO apt-get update -qq >&2
$SUDO apt-get install -y -qq build-essential cmake gperf libgmp-dev perl python3 time \
    libpath-tiny-perl libtemplate-perl dpkg-dev >&2 || true

cd "$CACHE"
if ! ls -d freecell-solver-*/ >/dev/null 2>&1; then
    # The Debian packaging tarball only carries packaging files; when the mirror lacks it,
    # the upstream tarball that apt fetched first is all the build needs.
    if ! apt-get source -qq freecell-solver >&2; then
        orig="$(ls freecell-solver_*.orig.tar.* 2>/dev/null | head -n 1)"
        if [[ -z "$orig" ]]; then
            echo "could not download the freecell-solver source package" >&2
            exit 1
        fi
        tar xf "$orig"
    fi
fi
SOURCE="$(ls -d "$CACHE"/freecell-solver-*/ | head -n 1)"
mkdir -p "$CACHE/build"
cd "$CACHE/build"
cmake "$SOURCE" -DCMAKE_BUILD_TYPE=Release -DMAX_NUM_STACKS=20 -DFCS_WITH_TEST_SUITE=OFF \
    -DBUILD_STATIC_LIBRARY=OFF -DFCS_BUILD_DOCS=OFF >&2
make -j"$(nproc)" fc-solve >&2
echo "$BINARY"
