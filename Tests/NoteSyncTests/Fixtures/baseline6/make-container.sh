#!/usr/bin/env bash
# Writes the compacted container of this folder with a build of notes of model version 6 (history
# kept compact), the release before the retention of history: two devices, notes, a collection,
# an image, a tag, concurrent edits of one body that merge, a trash and a purge, then
# 'sync compact' on both devices, so that the container holds a baseline of model version 6 and
# the early logs it covers are removed; then more edits (among them concurrent ones of one body,
# which merge on a base the baseline holds) in logs after the baseline. Kept as fixtures: later
# builds must join this container from its model-6 baseline and the logs after it, since the
# early logs are gone.
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
plan=$(A add Plan --body $'one\ntwo\nthree\n')
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
A rm Draft >/dev/null
A empty-trash --yes >/dev/null
B sync now >/dev/null
A sync now >/dev/null
B sync now >/dev/null
# Each compaction rewrites the registration with what its device applied, so the second one of
# the laptop may remove what the desktop's compaction said it had applied.
A sync compact >/dev/null
B sync compact >/dev/null
A sync compact >/dev/null
B sync now >/dev/null
# After the baseline: concurrent edits of Plan's first line and of its end (they merge, on a base
# that only the baseline holds), an edit of Soup from its merged version, a rename and a new note.
A edit "$plan" --body $'ONE\ntwo\nthree\n'
B edit "$plan" --body $'one\ntwo\nthree\nfour\n'
B edit "$soup" --body $'Two leeks\nPotatoes\nSalt\nWhite pepper\nStock\n'
B edit "$groceries" --name 'Shopping list'
later=$(B add Later --in Recipes --body $'Written after\nthe baseline\n')
A sync now >/dev/null
B sync now >/dev/null
A sync now >/dev/null

# The container must be what it stands for: a baseline of model 6, the first logs of both
# devices gone, and logs of both after the baseline.
container="$cloud/NoteCollector"
check() { "$@" || { echo "the container is not as expected: $*" >&2; exit 1; }; }
check grep -q '"modelVersion":6,' "$container"/baselines/*/*.json
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
