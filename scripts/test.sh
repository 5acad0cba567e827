#!/usr/bin/env bash
# Install everything the tests need (Python packages, Debian's Chromium for the browser tests,
# PostgreSQL for the storage tests, HAProxy for the several-processes test and jemalloc for
# the server's --allocator), then run lint,
# format check, type check and the whole suite.
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/lib/postgresql/15/bin/initdb ] || missing+=(postgresql)
[ -x /usr/sbin/haproxy ] || missing+=(haproxy)
python3 -c 'import ctypes.util, sys; sys.exit(ctypes.util.find_library("jemalloc") is None)' \
  || missing+=(libjemalloc2)
if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing Debian packages: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
python3 -m pip install --quiet --disable-pip-version-check -e '.[test,envs,ray,balance]'
echo "== ruff check" && ruff check .
echo "== ruff format --check" && ruff format --check .
echo "== mypy --strict" && mypy
echo "== pytest" && python3 -m pytest -n auto "$@"
