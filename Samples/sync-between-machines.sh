#!/usr/bin/env bash
# Two "machines" on this one: two Syncthing instances, each with a home and a copy of one
# shared folder of its own, on loopback addresses only (no discovery, relays or NAT), each
# knowing the other; a notes device with 'notes watch' on each copy. Notes added on one side
# appear on the other, with the time each took (Syncthing carries a file in about a second
# after its 1-second watcher delay). Needs Debian's syncthing. It cleans up and stops only the
# processes it started.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
notes=${NOTES:-$(command -v notes || true)}
for candidate in "$here/.build/release/notes" "$here/.build/debug/notes"; do
    [ -n "$notes" ] && break
    [ -x "$candidate" ] && notes=$candidate
done
[ -n "$notes" ] || { echo "sync-between-machines.sh: no notes command: run ./install.sh first" >&2; exit 1; }
command -v syncthing >/dev/null || { echo "sync-between-machines.sh: needs syncthing (apt-get install syncthing)" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/notes-machines.XXXXXX")
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

# Waits until a command succeeds, for at most 30 seconds.
until_true() {
    local deadline=$((SECONDS + 30))
    until "$@" >/dev/null 2>&1; do
        [ $SECONDS -lt $deadline ] || { echo "sync-between-machines.sh: timed out waiting for: $*" >&2; exit 1; }
        sleep 0.05
    done
}

now_ms() { date +%s%3N; }

echo "== two Syncthing instances on loopback"
base=$((20000 + RANDOM % 20000))
ids=()
for side in a b; do
    ids+=("$(syncthing generate --home "$work/$side-syncthing" --no-default-folder 2>&1 | sed -n 's/.*Device ID: //p')")
    mkdir -p "$work/$side-cloud"
done
for index in 0 1; do
    side=$([ $index = 0 ] && echo a || echo b)
    cat >"$work/$side-syncthing/config.xml" <<CONFIG
<configuration version="36">
    <folder id="notes" label="notes" path="$work/$side-cloud" type="sendreceive" rescanIntervalS="3600" fsWatcherEnabled="true" fsWatcherDelayS="1">
        <device id="${ids[0]}"></device><device id="${ids[1]}"></device>
        <maxConflicts>10</maxConflicts>
    </folder>
    <device id="${ids[0]}" name="machine-a"><address>tcp://127.0.0.1:$base</address></device>
    <device id="${ids[1]}" name="machine-b"><address>tcp://127.0.0.1:$((base + 1))</address></device>
    <gui enabled="false"><address>127.0.0.1:$((base + 2 + index))</address></gui>
    <options>
        <listenAddress>tcp://127.0.0.1:$((base + index))</listenAddress>
        <globalAnnounceEnabled>false</globalAnnounceEnabled>
        <localAnnounceEnabled>false</localAnnounceEnabled>
        <relaysEnabled>false</relaysEnabled>
        <natEnabled>false</natEnabled>
        <reconnectionIntervalS>1</reconnectionIntervalS>
        <startBrowser>false</startBrowser>
        <urAccepted>-1</urAccepted>
        <autoUpgradeIntervalH>0</autoUpgradeIntervalH>
        <crashReportingEnabled>false</crashReportingEnabled>
    </options>
</configuration>
CONFIG
    STNOUPGRADE=1 syncthing serve --home "$work/$side-syncthing" --no-browser --no-restart >"$work/$side-syncthing.log" 2>&1 &
    pids+=($!)
done
echo probe >"$work/a-cloud/probe"
until_true test -f "$work/b-cloud/probe"
echo "   connected; a file crosses from machine A to machine B"

echo "== a notes device on each machine, with notes watch"
"$notes" --store "$work/laptop" sync enable --cloud "$work/a-cloud" --device-name laptop
until_true test -f "$work/b-cloud/NoteCollector/container.json"
"$notes" --store "$work/desktop" sync enable --cloud "$work/b-cloud" --device-name desktop
for store in laptop desktop; do
    "$notes" --store "$work/$store" watch &
    pids+=($!)
    until_true sh -c "'$notes' --store '$work/$store' sync status | grep -q 'watcher:   running'"
done

travel() {
    local from=$1 to=$2 name=$3 start
    start=$(now_ms)
    "$notes" --store "$work/$from" add "$name" --body "written on the $from" >/dev/null
    until_true sh -c "'$notes' --store '$work/$to' ls | grep -q '$name'"
    echo "   '$name' written on the $from, readable on the $to after $(($(now_ms) - start)) ms"
}
echo "== notes travel"
travel laptop desktop "Groceries"
travel desktop laptop "Meeting notes"
travel laptop desktop "Ideas"
echo "== the desktop holds"
"$notes" --store "$work/desktop" ls
