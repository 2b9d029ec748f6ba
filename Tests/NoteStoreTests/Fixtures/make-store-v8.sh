#!/usr/bin/env bash
# Writes store-v8.sqlite with a build of notes of model version 8 (history in lines, with the
# link index), the release before properties: the notes of make-store-v5.sh (a long note edited
# five times, its versions deltas; a short note renamed, then its first name restored; a tag),
# and a note that links to the long one. Later builds must open it with every version of history
# intact and add the tables of properties.
#
# Usage: make-store-v7.sh NOTES_BINARY
set -euo pipefail
notes=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
N() { "$notes" --store "$work/store" "$@"; }

long=""
for line in $(seq 1 60); do long+="line $line of the long note"$'\n'; done
N add Long --body "$long" >/dev/null
body="$long"
for edit in 1 2 3 4 5; do
    body+="edit $edit"$'\n'
    N edit Long --body "$body"
done
N add Short --body 'short' >/dev/null
N edit Short --name 'Short renamed'
first=$(N history 'Short renamed' --json | python3 -c 'import json,sys; print([v["id"] for v in json.load(sys.stdin) if v["property"]=="name"][-1])')
N history 'Short renamed' --restore "$first" >/dev/null
N tag Long history >/dev/null
N add Linking --body 'See [[Long]].' >/dev/null

# The store must be what it stands for: model 8, history in lines, one file.
check() { "$@" || { echo "the store is not as expected: $*" >&2; exit 1; }; }
check test "$(sqlite3 "$work/store/store.sqlite" "SELECT value FROM metadata WHERE key = 'model_version'")" = 8
check test "$(sqlite3 "$work/store/store.sqlite" "SELECT COUNT(*) FROM history_line")" -ge 2
check test "$(sqlite3 "$work/store/store.sqlite" "SELECT COUNT(*) FROM link")" = 1
sqlite3 "$work/store/store.sqlite" "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE" >/dev/null
cp "$work/store/store.sqlite" "$here/store-v8.sqlite"
