#!/usr/bin/env bash
# Writes the format-1 container of this folder with a build of notes that writes sync format 1
# (model version 3): two devices, notes, a collection, an image, concurrent edits of one body,
# a rename, a trash and a purge. Kept as fixtures: later builds must import these logs.
#
# Usage: make-container.sh NOTES_BINARY
# Writes ./container (logs, blobs, container.json, devices) and ./store-v3.sqlite (device A's
# store at the end), replacing them.
set -euo pipefail
notes=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
a="$work/a" b="$work/b" cloud="$work/cloud"
mkdir -p "$cloud"
A() { "$notes" --store "$a" "$@"; }
B() { "$notes" --store "$b" "$@"; }

A mkcol Recipes >/dev/null
soup=$(A add Soup --in Recipes --body $'Leeks\nPotatoes\nSalt\nPepper\nWater\n')
A add Groceries --body $'Milk\nBread\n' >/dev/null
A attach Recipes/Soup "$here/../../../../Samples/images/indexed.png" >/dev/null
A add Draft --body 'to be purged' >/dev/null
A sync enable --cloud "$cloud" --device-name laptop >/dev/null
B sync enable --cloud "$cloud" --device-name desktop >/dev/null
A sync now >/dev/null
# Concurrent edits of Soup: B changes the last line, then A the first line.
B edit "$soup" --body $'Leeks\nPotatoes\nSalt\nPepper\nStock\n'
A edit "$soup" --body $'Two leeks\nPotatoes\nSalt\nPepper\nWater\n'
B edit Groceries --name 'Shopping list'
A rm Draft >/dev/null
A empty-trash --yes >/dev/null
B sync now >/dev/null
A sync now >/dev/null
B sync now >/dev/null
rm -rf "$here/container" "$here/store-v3.sqlite"
cp -R "$cloud/NoteCollector" "$here/container"
sqlite3 "$a/store.sqlite" "PRAGMA wal_checkpoint(TRUNCATE);" >/dev/null 2>&1 || true
cp "$a/store.sqlite" "$here/store-v3.sqlite"
echo "soup $soup"
A ls -l 2>/dev/null || A ls
