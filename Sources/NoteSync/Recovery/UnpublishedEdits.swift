import Foundation
import NoteStore

/// A device that comes back into its container without a registration (forgotten with
/// `notes sync disable --forget`, or a copy of a store that takes a new id) may hold edits of
/// names and bodies it never published, made from versions that a baseline has since dropped.
/// The devices that started from that baseline could not merge such an edit as the others do
/// (they lack its bases), so, when the container has dropped history, the device keeps each
/// such edit as a note of its own instead, and takes the edit back: its note returns to what it
/// had published, and the kept note carries the text to every device
/// (docs/sync-format.md, "Retention of history").
struct UnpublishedEdits {
    let store: Store

    /// Keeps the unpublished edits as notes (``keepAsNotes(deviceName:only:)``) when this store
    /// or a baseline of `container` says that history was dropped, and notes it in the store;
    /// returns for how many items it kept edits. What a device that comes back runs before it publishes.
    func keepIfHistoryWasDropped(in container: CloudContainer, deviceName: String? = nil) throws -> Int {
        let dropped =
            try HistoryRetention.wasDropped(in: store)
            || HistoryRetention.wasDropped(in: BaselineCatalog.read(container, containerID: container.identity))
        guard dropped else { return 0 }
        try HistoryRetention.noteDropped(in: store)
        return try keepAsNotes(deviceName: deviceName)
    }

    /// Keeps the unpublished edits of notes and collections that have published versions as
    /// notes of their own, named `<name> (kept, <device>, <time> UTC)` after the withdrawn
    /// name when there is one (which, when the label would cut it, also opens the body), in
    /// the same collection; returns for how many items it kept edits. Edits of items made
    /// since the last publish (all of whose versions are unpublished) are left to sync as they
    /// are.
    ///
    /// `deviceName` names the device in the notes' names (by default, the name the store
    /// records); `only`: the objects to look at (all by default). Safe to run again after it
    /// stopped half way: a kept note already made (same name and body) is not made twice.
    func keepAsNotes(deviceName: String? = nil, only: Set<UUID>? = nil) throws -> Int {
        let record = try store.syncRecord()
        let deviceName = deviceName ?? record.deviceName
        // A store that took a new id (a copy, a backup) saved them under its former one.
        var devices = [store.deviceID]
        if let former = record.replacedDevice {
            devices.append(former)
        }
        var unpublished: [UUID: [HistoryProperty: Set<ChangeStamp>]] = [:]
        for entry in try store.outboxEntries()
        where entry.operation != .delete && only.map({ $0.contains(entry.object) }) ?? true {
            for property in HistoryProperty.allCases where entry.changes[property.rawValue] != nil {
                for device in devices {
                    unpublished[entry.object, default: [:]][property, default: []].insert(
                        ChangeStamp(clock: entry.clock, device: device))
                }
            }
        }
        guard !unpublished.isEmpty else { return 0 }
        var made = Set(
            try store.fetch(ItemRequest(trash: .included)).filter { $0.name.contains(" (kept") }.map {
                "\($0.name)\n\($0.body ?? "")"
            })
        var kept = 0
        for (object, properties) in unpublished.sorted(by: { $0.key.storeString < $1.key.storeString }) {
            let history = try store.history(of: object)
            var withdrawn: [HistoryProperty: Set<ChangeStamp>] = [:]
            for (property, stamps) in properties {
                let versions = history.filter { $0.property == property }
                let held = stamps.intersection(versions.map(\.stamp))
                guard !held.isEmpty, versions.contains(where: { !stamps.contains($0.stamp) }) else { continue }
                withdrawn[property] = held
            }
            guard !withdrawn.isEmpty else { continue }
            let item = try? store.item(object)
            func newest(_ property: HistoryProperty) throws -> String? {
                guard let stamp = withdrawn[property]?.max() else { return nil }
                return try store.text(of: object, property, at: stamp)
            }
            // The name this device gave, when it is withdrawn (the current name may be another
            // device's, later by stamp); else the current one.
            let withdrawnName = try newest(.name)
            let name = withdrawnName ?? item?.name
            let body = try item?.body ?? newest(.body) ?? ""
            let time = withdrawn.values.flatMap { $0 }.max().map { HybridClock.date(of: $0.clock) } ?? Date()
            let parent = item?.parent.flatMap { try? store.item($0, includingBody: false) }.flatMap {
                $0.isCollection ? $0.id : nil
            }
            let keptName = ConflictCopy.labelled(name, "kept", device: deviceName, id: store.deviceID, time: time)
            var keptNotes = [(name: keptName, body: body)]
            // A withdrawn name too long to stay whole beside the label opens the body; when the
            // body has no room left for it, it is the body of a note of its own.
            if let withdrawnName, !keptName.hasPrefix(withdrawnName + " (") {
                let opened = "\(withdrawnName)\n\n\(body)"
                if opened.utf8.count <= Item.maximumBodyBytes {
                    keptNotes = [(keptName, opened)]
                } else {
                    keptNotes.append(
                        (
                            ConflictCopy.labelled(
                                withdrawnName, "kept name", device: deviceName, id: store.deviceID, time: time),
                            withdrawnName
                        ))
                }
            }
            for note in keptNotes where made.insert("\(note.name)\n\(note.body)").inserted {
                _ = try store.addNote(named: note.name, body: note.body, in: parent)
            }
            let entity: Entity = item?.isCollection == true ? .collection : .note
            try store.merge { replica in
                let merger = HistoryMerger(replica: replica)
                for (property, stamps) in withdrawn {
                    try replica.withdrawUnpublishedVersions(stamps, of: object, property)
                    let graph = VersionGraph(try replica.versions(of: object, property))
                    try replica.setHeads(Set(graph.heads), of: object, property)
                    try merger.refresh(object, property, entity: entity)
                }
            }
            kept += 1
        }
        return kept
    }
}
