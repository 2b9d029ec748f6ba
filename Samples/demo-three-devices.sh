#!/usr/bin/env bash
# Three devices (stores) share one cloud folder in a temporary folder, each with a
# 'notes watch' in the background: notes added on each appear on the others; then the cloud's
# sentinel is removed and every device reports that sync is off; then sync is enabled again and
# the devices converge. It cleans up and stops only the processes it started.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
notes=${NOTES:-$(command -v notes || true)}
for candidate in "$here/.build/release/notes" "$here/.build/debug/notes"; do
    [ -n "$notes" ] && break
    [ -x "$candidate" ] && notes=$candidate
done
[ -n "$notes" ] || { echo "demo-three-devices.sh: no notes command: run ./install.sh first" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/notes-demo.XXXXXX")
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

# Waits until a command succeeds, for at most 10 seconds.
until_true() {
    local deadline=$((SECONDS + 10))
    until "$@" >/dev/null 2>&1; do
        [ $SECONDS -lt $deadline ] || { echo "demo-three-devices.sh: timed out waiting for: $*" >&2; exit 1; }
        sleep 0.01
    done
}
has_note() { "$notes" --store "$work/$1" ls --json | grep -q "\"name\" : \"$2\""; }
is_off() { "$notes" --store "$work/$1" sync status | grep -q '^state: *off'; }

mkdir -p "$work/cloud"
devices=(laptop desktop tablet)
for device in "${devices[@]}"; do
    "$notes" --store "$work/$device" sync enable --cloud "$work/cloud" --device-name "$device" >/dev/null
    "$notes" --store "$work/$device" watch &
    pids+=($!)
done
for device in "${devices[@]}"; do
    until_true sh -c "'$notes' --store '$work/$device' sync status | grep -q 'watcher: *running'"
done
echo "three devices share $work/cloud, each with a watcher"

for device in "${devices[@]}"; do
    "$notes" --store "$work/$device" add "Note from the $device" --body "written on the $device" >/dev/null
    for other in "${devices[@]}"; do
        until_true has_note "$other" "Note from the $device"
    done
    echo "the $device's note reached every device"
done

rm "$work/cloud/NoteCollector/container.json"
echo "container.json removed"
for device in "${devices[@]}"; do
    until_true is_off "$device"
    echo "the $device says: $("$notes" --store "$work/$device" sync status | head -1 | sed 's/^state: *//')"
done

for device in "${devices[@]}"; do
    "$notes" --store "$work/$device" sync enable --cloud "$work/cloud" --device-name "$device" >/dev/null
done
for device in "${devices[@]}"; do
    until_true sh -c "[ \$('$notes' --store '$work/$device' ls --json | grep -c '\"name\"') -eq 3 ]"
done
echo "sync enabled again: every device has the same 3 notes"
