#!/usr/bin/env bash
# Writes store-trigram-positions.sqlite with a build of notes of model version 10 whose trigram
# index holds positions (detail = 'full'), the last release before the index went without them:
# notes in Japanese, in English and with symbols, one of them trashed. Later builds must make
# the index again without positions when they open it, and find the same notes through it.
#
# Usage: make-store-trigram-positions.sh NOTES_BINARY
set -euo pipefail
notes=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
N() { "$notes" --store "$work/store" "$@"; }

N add '日本語メモ' --body $'今日は東京に行きました。\n雨でした。' >/dev/null
N add 'Strings' --body 'concatenate them' >/dev/null
N add 'C' --body 'learning C++ today' >/dev/null
N add 'Apart' --body 'abc bcd cde' >/dev/null
N add 'Old plan' --body '大阪へ' >/dev/null
N rm 'Old plan' >/dev/null

# The store must be what it stands for: model 10, a trigram index with positions, one file.
check() { "$@" || { echo "the store is not as expected: $*" >&2; exit 1; }; }
db="$work/store/store.sqlite"
check test "$(sqlite3 "$db" "SELECT value FROM metadata WHERE key = 'model_version'")" = 10
check test "$(sqlite3 "$db" "SELECT COUNT(*) FROM sqlite_master WHERE name = 'item_trigram' AND sql LIKE '%detail = ''full''%'")" = 1
check test "$(sqlite3 "$db" "SELECT COUNT(*) FROM item_trigram_docsize")" = 5
sqlite3 "$db" "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE" >/dev/null
cp "$db" "$here/store-trigram-positions.sqlite"
