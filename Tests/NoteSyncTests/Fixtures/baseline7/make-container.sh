#!/usr/bin/env bash
# Writes the compacted container of this folder with a build of notes of model version 7 (history
# retention: baselines drop old versions and record the cuts in 'history_cut'), the release before
# history lines and the packed storage of history: two devices, notes, a collection, an image, a
# tag, concurrent edits of one body that merge, more edits of Soup, Plan and Groceries and a
# rename, a trash and a purge; then, with both devices synced (the container quiet),
# 'sync compact --keep-versions 1 --keep-days 0' on both devices, so that the container holds a
# baseline of model version 7 that dropped history (its manifest says "historyDropped") and the
# early logs it covers are removed; then more edits (among them concurrent ones of one body,
# which merge on a base the baseline holds, a cut) in logs after the baseline. Kept as fixtures:
# later builds must join this container from its model-7 baseline, with its cuts, and the logs
# after it, since the early logs and the dropped versions are gone.
#
# Usage: make-container.sh NOTES_BINARY
# Writes ./container (baselines, logs, blobs, container.json, devices), replacing it.
set -euo pipefail
notes=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
a="$work/a" b="$work/b" cloud="$work/cloud"
mkdir -p "$cloud"
A() { "$notes" --store "$a" "$@"; }
B() { "$notes" --store "$b" "$@"; }

recipes=$(A mkcol Recipes)
soup=$(A add Soup --in Recipes --body $'Leeks\nPotatoes\nSalt\nPepper\nWater\n')
plan=$(A add Plan --body $'one\ntwo\n')
groceries=$(A add Groceries --body $'Milk\nBread\n')
image=$(A attach Recipes/Soup "$here/../../../../Samples/images/indexed.png")
draft=$(A add Draft --body 'to be purged')
A tag Recipes/Soup hot
A sync enable --cloud "$cloud" --device-name laptop >/dev/null
B sync enable --cloud "$cloud" --device-name desktop >/dev/null
A sync now >/dev/null
# Concurrent edits of Soup's first and last lines: they merge.
B edit "$soup" --body $'Leeks\nPotatoes\nSalt\nPepper\nStock\n'
A edit "$soup" --body $'Two leeks\nPotatoes\nSalt\nPepper\nWater\n'
A edit "$plan" --body $'one\ntwo\nthree\n'
A rm Draft >/dev/null
A empty-trash --yes >/dev/null
B sync now >/dev/null
A sync now >/dev/null
B sync now >/dev/null
# More versions, each from the one before: Soup's merged body gets a line and loses it again (so
# the text is the merge's), Groceries' body grows twice and it is renamed. The retention below
# keeps only the newest version of each, the cut, and drops the versions before it.
A edit "$soup" --body $'Two leeks\nPotatoes\nSalt\nPepper\nStock\nThyme\n'
A edit "$groceries" --body $'Milk\nBread\nEggs\n'
A sync now >/dev/null
B sync now >/dev/null
B edit "$soup" --body $'Two leeks\nPotatoes\nSalt\nPepper\nStock\n'
B edit "$groceries" --body $'Milk\nBread\nEggs\nButter\n'
B edit "$groceries" --name 'Grocery list'
B sync now >/dev/null
A sync now >/dev/null
B sync now >/dev/null
# Each compaction rewrites the registration with what its device applied (and, its outbox empty,
# says it is clean), so the second one of the laptop may remove what the desktop's compaction said
# it had applied. Both devices synced with empty outboxes: the container is quiet, and the
# baselines drop every version before each cut.
compacted=$(A sync compact --keep-versions 1 --keep-days 0)
compacted+=$'\n'$(B sync compact --keep-versions 1 --keep-days 0)
compacted+=$'\n'$(A sync compact --keep-versions 1 --keep-days 0)
B sync now >/dev/null
# After the baseline: concurrent edits of Plan's first line and of its end (they merge, on a base
# that only the baseline holds, its cut), an edit of Soup from the cut, a rename and a new note.
A edit "$plan" --body $'ONE\ntwo\nthree\n'
B edit "$plan" --body $'one\ntwo\nthree\nfour\n'
B edit "$soup" --body $'Two leeks\nPotatoes\nSalt\nWhite pepper\nStock\n'
B edit "$groceries" --name 'Shopping list'
later=$(B add Later --in Recipes --body $'Written after\nthe baseline\n')
A sync now >/dev/null
B sync now >/dev/null
A sync now >/dev/null

# The container must be what it stands for: baselines of model 7 that dropped history, the first
# logs of both devices gone, and logs of both after the baseline.
container="$cloud/NoteCollector"
check() { "$@" || { echo "the container is not as expected: $*" >&2; echo "$compacted" >&2; exit 1; }; }
check grep -q '^dropped [0-9]* old version' <<<"$compacted"
for manifest in "$container"/baselines/*/*.json; do
    check grep -q '"modelVersion":7,' "$manifest"
    check grep -q '"historyDropped":true' "$manifest"
    if command -v sqlite3 >/dev/null; then
        check test "$(sqlite3 -readonly "${manifest%.json}.sqlite" 'select count(*) from history_cut')" -gt 0
    fi
done
check test -z "$(find "$container/logs" -name 000000000001.log)"
for device in "$container"/devices/*.json; do
    id=$(basename "$device" .json)
    check test -n "$(find "$container/logs/$id" -name '*.log')"
done

rm -rf "$here/container"
cp -R "$container" "$here/container"
# A baseline folder emptied by compaction is not kept: git keeps no empty folder.
find "$here/container" -mindepth 2 -type d -empty -delete
echo "recipes $recipes soup $soup plan $plan groceries $groceries later $later draft $draft image $image"
