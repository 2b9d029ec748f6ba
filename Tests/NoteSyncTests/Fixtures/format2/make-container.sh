#!/usr/bin/env bash
# Writes the format-2 container of this folder with a build of notes from before baselines
# (model version 4, registrations without 'applied' and 'synced'): two devices, notes, a
# collection, an image, concurrent edits of one body that merge and that conflict, a rename,
# a trash and a purge. Kept as fixtures: later builds must read this container.
#
# Usage: make-container.sh NOTES_BINARY
# Writes ./container (logs, blobs, container.json, devices), replacing it.
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
plan=$(A add Plan --body $'one\ntwo\nthree\n')
A add Groceries --body $'Milk\nBread\n' >/dev/null
A attach Recipes/Soup "$here/../../../../Samples/images/indexed.png" >/dev/null
A add Draft --body 'to be purged' >/dev/null
A sync enable --cloud "$cloud" --device-name laptop >/dev/null
B sync enable --cloud "$cloud" --device-name desktop >/dev/null
A sync now >/dev/null
# Concurrent edits: of Soup's first and last lines (they merge), of Plan's second line (a conflict).
B edit "$soup" --body $'Leeks\nPotatoes\nSalt\nPepper\nStock\n'
A edit "$soup" --body $'Two leeks\nPotatoes\nSalt\nPepper\nWater\n'
B edit "$plan" --body $'one\nTWO from the desktop\nthree\n'
A edit "$plan" --body $'one\ntwo from the laptop\nthree\n'
B edit Groceries --name 'Shopping list'
A rm Draft >/dev/null
A empty-trash --yes >/dev/null
B sync now >/dev/null
A sync now >/dev/null
B sync now >/dev/null
rm -rf "$here/container"
cp -R "$cloud/NoteCollector" "$here/container"
echo "soup $soup plan $plan"
