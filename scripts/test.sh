#!/usr/bin/env bash
# Install everything the tests need and run the whole suite: Debian's Chromium for the browser
# tests, PostgreSQL for the storage tests, HAProxy for the several-processes test, jemalloc
# for the server's --allocator, Prometheus (promtool, and a real scrape) for the monitoring
# files, systemd-analyze for the units and logrotate for the log's rotation; the Python
# packages in the checkout's own virtual environment (.venv, made here when missing: nothing
# to activate); then lint, format check,
# type check and pytest (which lists its 40 slowest tests at the end). The Python install is skipped while pyproject.toml and setup.py are what it installed
# (a stamp in .venv), so a second run reaches its first test at once. Arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/lib/postgresql/15/bin/initdb ] || missing+=(postgresql)
[ -x /usr/sbin/haproxy ] || missing+=(haproxy)
[ -x /usr/bin/promtool ] || missing+=(prometheus)  # promtool checks the alert rules
command -v systemd-analyze >/dev/null || missing+=(systemd)  # checks the units, starts none
[ -x /usr/sbin/logrotate ] || missing+=(logrotate)  # rotates a log with docs/logs.md's block
python3 -c 'import ctypes.util, sys; sys.exit(ctypes.util.find_library("jemalloc") is None)' \
  || missing+=(libjemalloc2)
if [ ${#missing[@]} -gt 0 ]; then
  command="apt-get update && apt-get install -y ${missing[*]}"
  if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    SUDO="sudo"
  else
    echo "The tests need Debian packages that are missing: ${missing[*]}" >&2
    echo "Install them as root, then run this again:" >&2
    echo "  sudo sh -c '$command'" >&2
    exit 1
  fi
  echo "== installing Debian packages: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# The checkout's virtual environment: its python and tools first on PATH for this script and
# every process the tests start.
if [ ! -x .venv/bin/python ]; then
  echo "== making the virtual environment .venv"
  python3 -m venv .venv
fi
export PATH="$PWD/.venv/bin:$PATH"
stamp=.venv/fanfold-installed
wanted="$(cat pyproject.toml setup.py | sha256sum | cut -d' ' -f1)"
if [ "$(cat "$stamp" 2>/dev/null || true)" != "$wanted" ]; then
  echo "== installing fanfold and what its tests need into .venv (the compiled code takes a few minutes the first time)"
  python -m pip install --quiet --disable-pip-version-check -e '.[test,envs,ray,balance]'
  echo "$wanted" >"$stamp"
else
  echo "== .venv is current (pyproject.toml and setup.py unchanged since its install)"
fi

echo "== ruff check" && python -m ruff check .
echo "== ruff format --check" && python -m ruff format --check .
echo "== mypy --strict" && python -m mypy
echo "== pytest" && python -m pytest -n auto --durations=40 "$@"
