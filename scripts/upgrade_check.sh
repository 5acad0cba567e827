#!/usr/bin/env bash
# Check an upgrade with a schema change (docs/upgrade.md, "Expand and contract"): the previous
# release PREV_TAG, checked out in a git worktree under /tmp, must start and answer /ready on a
# store whose schema this checkout brought up to date, as a process of the release before does
# while a rolling upgrade replaces them one at a time.
#
#   scripts/upgrade_check.sh PREV_TAG [STORE_URL]
#
# STORE_URL (default: a new SQLite file under /tmp; a PostgreSQL URL checks what a site runs)
# is created or upgraded by this checkout first. PREV_TAG is a tag (`git tag` lists them) or any
# commit. The previous release runs on this checkout's virtual environment (.venv), so a
# release whose dependencies changed is checked on the new ones. Exit status 0: the previous
# release served the new schema (or there is no previous tag: a note says so); 1: it did not
# (78 from it: a contract migration since PREV_TAG, so every old process must stop before the
# first new one starts).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
python="$root/.venv/bin/python"
[ -x "$python" ] || python="$(command -v python3)"

previous="${1:-}"
if [ -z "$previous" ] || ! git rev-parse --verify --quiet "$previous^{commit}" >/dev/null; then
  tags="$(git tag --sort=-creatordate | head -n 5 | tr '\n' ' ')"
  echo "note: no previous release to check${previous:+ ($previous is no tag or commit here)};" \
    "tags here: ${tags:-none}. Usage: scripts/upgrade_check.sh PREV_TAG [STORE_URL]"
  exit 0
fi

work="$(mktemp -d /tmp/fanfold-upgrade-check.XXXXXX)"
server=""
cleanup() {
  if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
  fi
  git worktree remove --force "$work/tree" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

url="${2:-sqlite:///$work/fanfold.db}"
echo "== upgrading the store with this checkout ($(git describe --always --dirty))"
PYTHONPATH="$root/src" "$python" -c '
import sys
from fanfold.server.store import Store
from fanfold.server.store.engine import serves_from
Store(sys.argv[1]).close()
oldest, release = serves_from()
print("the schema serves releases from revision", oldest, "on, release", release)
' "$url"

echo "== checking out $previous in $work/tree"
git worktree add --detach --quiet "$work/tree" "$previous"

loaded="$(PYTHONPATH="$work/tree/src" "$python" -c 'import fanfold; print(fanfold.__file__)')"
case "$loaded" in
  "$work/tree/"*) ;;
  *) echo "FAIL: $previous's code is not the one loaded ($loaded)" >&2; exit 1 ;;
esac
port="$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
echo "== starting $previous on port $port"
FANFOLD_DB_URL="$url" PYTHONPATH="$work/tree/src" FANFOLD_NO_PACKAGED_CACHE=1 \
  "$python" -m fanfold serve --port "$port" --bot-workers 1 >"$work/serve.log" 2>&1 &
server=$!

deadline=$((SECONDS + ${UPGRADE_CHECK_SECONDS:-180}))
while [ "$SECONDS" -lt "$deadline" ]; do
  if ! kill -0 "$server" 2>/dev/null; then
    status=0
    wait "$server" || status=$?
    server=""
    tail -n 5 "$work/serve.log" >&2
    if [ "$status" -eq 78 ]; then
      echo "FAIL: $previous refuses the new schema (status 78): a contract migration since it;" \
        "stop every $previous process before the first new one starts (docs/upgrade.md)" >&2
    else
      echo "FAIL: $previous stopped with status $status before /ready answered" >&2
    fi
    exit 1
  fi
  if "$python" -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)' \
    "http://127.0.0.1:$port/ready" 2>/dev/null; then
    echo "ok: $previous started on the schema of $(git describe --always --dirty) and /ready answered 200"
    exit 0
  fi
  sleep 1
done
tail -n 5 "$work/serve.log" >&2
echo "FAIL: $previous did not answer /ready within ${UPGRADE_CHECK_SECONDS:-180} s" >&2
exit 1
