#!/usr/bin/env bash
# Install everything the tests need, then run lint, format check, type check and the whole suite.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check -e '.[test]'
echo "== ruff check" && ruff check .
echo "== ruff format --check" && ruff format --check .
echo "== mypy --strict" && mypy
echo "== pytest" && python3 -m pytest -n auto "$@"
