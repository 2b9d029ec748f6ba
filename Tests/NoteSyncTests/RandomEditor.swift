import Foundation
import NoteStore
import NoteSync
import NoteTestSupport

/// Makes random changes to stores, as a person using several devices would, and remembers what
/// was created and purged anywhere, so that a test can tell what every device must end with.
///
/// Every operation picks its targets among what the store it runs on shows at that moment, so
/// that operations on different devices are concurrent edits of shared objects. A change the
/// store refuses (a move into its own contents, a note added to a trashed collection) is
/// counted, not failed on: refusing it is the store's job.
final class RandomEditor {
    var random: SplitMix64
    /// Every item saved on any device.
    private(set) var created: Set<UUID> = []
    /// Every item a device purged (with the contents that went with it there).
    private(set) var purged: Set<UUID> = []
    /// Every attachment added on any device, with its note.
    private(set) var attached: [UUID: UUID] = [:]
    /// Attachments removed on their own.
    private(set) var detached: Set<UUID> = []
    /// Every body saved on any device, per note: each must stay recoverable from history.
    private(set) var savedBodies: [UUID: Set<String>] = [:]
    private(set) var refused = 0
    /// How many of each operation the stores accepted.
    private(set) var performed: [Operation: Int] = [:]

    static let images = ["plain.png", "indexed.png", "animated.gif", "still.gif", "baseline.jpg", "lossy.webp"]
    /// Few tags, so that devices add and remove the same ones concurrently.
    static let tags = ["home", "work", "later"]
    /// Few keys and values, for the same reason.
    static let propertyKeys = ["status", "aliases", "rating"]
    static let propertyValues: [PropertyValue] = [
        .string("draft"), .string("done"), .integer(3), .list([.string("Pot"), .string("Stew")]),
    ]
    static let words = ["Soup", "Plans", "Trip", "Ideas", "Books", "Garden", "Work", "Music", "Tax", "Bike"]
    /// Files of other kinds than images (attached as `FileAttachment`), few so that devices
    /// attach the same bytes concurrently.
    static let otherFiles: [(name: String, bytes: Data)] = [
        ("plan.pdf", Data("%PDF-1.7\n% the plan\n%%EOF\n".utf8)),
        ("map.svg", Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="12" height="8"/>"#.utf8)),
        ("list.txt", Data("milk\neggs\n".utf8)),
        ("noise.bin", Data((0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 7919) })),
    ]
    /// Where the files of ``otherFiles`` are written once, to be attached from.
    let scratch = TemporaryFolder("notes-random-files")

    /// Operations made three times as often as their weight says.
    let favoured: Set<Operation>

    init(seed: UInt64, favouring favoured: Set<Operation> = []) {
        random = SplitMix64(seed: seed)
        self.favoured = favoured
    }

    /// The operations, with their weights.
    enum Operation: CaseIterable {
        case addNote, addCollection, editName, editBody, move, trash, restore, purge, attach, attachFile, detach, tag,
            untag
        case setProperty, removeProperty

        var weight: Int {
            switch self {
            case .addNote: return 4
            case .addCollection, .move: return 3
            case .editName, .editBody, .trash, .tag, .setProperty: return 2
            case .restore, .purge, .attach, .attachFile, .detach, .untag, .removeProperty: return 1
            }
        }
    }

    /// Adds a few collections and notes, some nested, to give concurrent changes on other
    /// devices something to meet on once they are synced.
    func populate(_ store: Store) throws {
        for _ in 0..<3 { try perform(.addCollection, on: store) }
        for _ in 0..<3 { try perform(.addNote, on: store) }
    }

    /// Makes one random change to `store`.
    func change(_ store: Store) throws {
        func weight(_ operation: Operation) -> Int { operation.weight * (favoured.contains(operation) ? 3 : 1) }
        var roll = Int.random(in: 0..<Operation.allCases.map(weight).reduce(0, +), using: &random)
        let operation =
            Operation.allCases.first { operation in
                roll -= weight(operation)
                return roll < 0
            } ?? .addNote
        do {
            if try perform(operation, on: store) { performed[operation, default: 0] += 1 }
        } catch let error as StoreError where error.isBadInput {
            refused += 1
        }
    }

    /// Performs one operation; returns false when the store had nothing to perform it on.
    @discardableResult
    private func perform(_ operation: Operation, on store: Store) throws -> Bool {
        let items = try store.fetch(ItemRequest(trash: .included, includesBodies: false))
        let collections = items.filter(\.isCollection)
        let notes = items.filter(\.isNote)
        switch operation {
        case .addNote:
            let parent = random.chance(40) ? random.pick(collections)?.id : nil
            let text = body(linkingTo: notes)
            let id = try store.addNote(named: name(), body: text, in: parent).id
            created.insert(id)
            savedBodies[id, default: []].insert(text)
        case .addCollection:
            let parent = random.chance(50) ? random.pick(collections)?.id : nil
            created.insert(try store.addCollection(named: name(), in: parent).id)
        case .editName:
            guard let item = random.pick(items) else { return false }
            try store.edit(item.id, name: name())
        case .editBody:
            guard var note = random.pick(notes) else { return false }
            let long = random.chance(40)
            if long, random.chance(70), let longer = random.pick(try longNotes(in: store)) { note = longer }
            let text = long ? try longBody(editing: note.id, on: store) : body(linkingTo: notes)
            if try store.edit(note.id, body: text) { savedBodies[note.id, default: []].insert(text) }
        case .move:
            // Mostly collections, so that concurrent moves make cycles for the merge to break.
            guard let item = random.pick(random.chance(60) ? collections : items) else { return false }
            try store.move(item.id, to: random.chance(25) ? nil : random.pick(collections)?.id)
        case .trash:
            guard let item = random.pick(items.filter { !$0.isTrashed }) else { return false }
            try store.trash(item.id)
        case .restore:
            guard let item = random.pick(items.filter(\.isTrashed)) else { return false }
            try store.restore(item.id)
        case .purge:
            guard let item = random.pick(items) else { return false }
            try purge(item, on: store)
        case .attach:
            guard let note = random.pick(notes.filter { !$0.isTrashed }), let image = random.pick(Self.images) else {
                return false
            }
            for attachment in try store.attachImages([SampleFiles.image(image)], to: note.id) {
                attached[attachment.id] = note.id
            }
        case .attachFile:
            guard let note = random.pick(notes.filter { !$0.isTrashed }), let file = random.pick(Self.otherFiles) else {
                return false
            }
            let url = scratch.appending(file.name)
            if !FileManager.default.fileExists(atPath: url.path) { try file.bytes.write(to: url) }
            for attachment in try store.attach([url], to: note.id) {
                attached[attachment.id] = note.id
            }
        case .detach:
            guard let note = random.pick(notes), let attachment = random.pick(try store.attachments(of: note.id)) else {
                return false
            }
            try store.detach(attachment.id)
            detached.insert(attachment.id)
        case .tag:
            guard let note = random.pick(notes), let tag = random.pick(Self.tags) else { return false }
            try store.tag(note.id, with: [tag])
        case .untag:
            let tagged = try store.tags(ofItems: notes.map(\.id)).sorted { $0.key.uuidString < $1.key.uuidString }
            guard let (note, tags) = random.pick(tagged), let tag = random.pick(tags) else { return false }
            try store.untag(note, [tag])
        case .setProperty:
            guard let note = random.pick(notes), let key = random.pick(Self.propertyKeys),
                let value = random.pick(Self.propertyValues)
            else { return false }
            try store.setProperty(note.id, key, to: value)
        case .removeProperty:
            let having = try store.properties(ofItems: notes.map(\.id)).sorted { $0.key.uuidString < $1.key.uuidString }
            guard let (note, properties) = random.pick(having), let property = random.pick(properties) else {
                return false
            }
            try store.removeProperty(note, property.key)
        }
        return true
    }

    /// Edits the body of one random note `times` times in a row, so that its history grows
    /// deep enough for a baseline to drop some of it; returns whether there was a note.
    @discardableResult
    func editOneBody(on store: Store, times: Int) throws -> Bool {
        let notes = try store.fetch(ItemRequest(trash: .included, includesBodies: false)).filter(\.isNote)
        guard let note = random.pick(notes) else { return false }
        for _ in 0..<times {
            let text = body()
            if try store.edit(note.id, body: text) { savedBodies[note.id, default: []].insert(text) }
        }
        return true
    }

    /// Trashes the item unless it is in the trash, then purges it: the whole trash, or just it.
    private func purge(_ item: Item, on store: Store) throws {
        if !item.isTrashed { try store.trash(item.id) }
        let before = try ids(in: store)
        if random.chance(50) {
            try store.emptyTrash()
        } else {
            let context = store.makeContext()
            try context.purge(item.id)
            try context.save()
        }
        purged.formUnion(before.subtracting(try ids(in: store)))
    }

    func ids(in store: Store) throws -> Set<UUID> {
        Set(try store.fetch(ItemRequest(trash: .included, includesBodies: false)).map(\.id))
    }

    private func name() -> String {
        "\(random.pick(Self.words) ?? "Note") \(Int.random(in: 1...99, using: &random))"
    }

    /// The notes whose body is long enough to travel as a delta.
    private func longNotes(in store: Store) throws -> [Item] {
        try store.fetch(ItemRequest(trash: .included, includesBodies: true)).filter {
            $0.isNote && ($0.body?.utf8.count ?? 0) >= BodyDelta.minimumBodyBytes
        }
    }

    /// A body long enough to travel as a delta (``BodyDelta/minimumBodyBytes``): a new one
    /// in place of a short body, else the note's body with one line changed, added or removed.
    private func longBody(editing note: UUID, on store: Store) throws -> String {
        var lines = (try store.item(note, includingBody: true).body ?? "").split(separator: "\n").map(String.init)
        guard lines.count >= 150 else {
            return (1...200).map { "line \($0) of a long body: \(random.pick(Self.words) ?? "")\n" }.joined()
        }
        let index = Int.random(in: 0..<lines.count, using: &random)
        let line = "\(random.pick(Self.words) ?? "") \(Int.random(in: 1...99, using: &random))"
        switch Int.random(in: 0..<3, using: &random) {
        case 0: lines[index] = line
        case 1: lines.insert(line, at: index)
        default: if lines.count > 150 { lines.remove(at: index) } else { lines[index] = line }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A few words; often with a link to one of `notes` (by name, by path, or by a name no
    /// note may have), so that renames and moves rewrite links and resolve them on every device.
    private func body(linkingTo notes: [Item] = []) -> String {
        guard !random.chance(20) else { return "" }
        var words = (0..<Int.random(in: 1...4, using: &random)).map { _ in random.pick(Self.words) ?? "" }
        if random.chance(40) {
            if let target = random.pick(notes), random.chance(80) {
                words.append("[[\(target.name)]]")
            } else {
                words.append("[[\(name())]]")
            }
        }
        return words.joined(separator: " ")
    }

    /// Per note of `store`, the notes its links reach: the same on every device in step.
    func linkResolutions(in store: Store) throws -> [UUID: [UUID?]] {
        var resolved: [UUID: [UUID?]] = [:]
        for note in try store.fetch(ItemRequest(kind: .note, trash: .included, includesBodies: false)) {
            let links = try store.links(of: note.id)
            if !links.isEmpty { resolved[note.id] = links.map(\.resolved) }
        }
        return resolved
    }

    // MARK: What every device must show

    /// The items every device must have: every one created and not purged.
    var survivors: Set<UUID> { created.subtracting(purged) }

    /// The attachments every device must have: those not removed whose note survives.
    var survivingAttachments: Set<UUID> {
        Set(attached.filter { survivors.contains($0.value) && !detached.contains($0.key) }.keys)
    }

    /// The bodies saved on any device that the history of `store` cannot give back.
    func lostBodies(in store: Store) throws -> [String] {
        var lost: [String] = []
        for (note, bodies) in savedBodies {
            var kept: Set<String> = []
            for version in try store.history(of: note) where version.property == .body {
                if let text = try store.text(of: note, .body, at: version.stamp) { kept.insert(text) }
            }
            for body in bodies.subtracting(kept) { lost.append("note \(note.storeString): \(body.debugDescription)") }
        }
        return lost
    }

    /// What is wrong with `store` against what was created and purged; empty when all is well.
    func problems(in store: Store) throws -> [String] {
        var problems: [String] = []
        let present = try ids(in: store)
        for id in survivors.subtracting(present) { problems.append("item \(id.storeString) is missing") }
        // Conflict copies are made by merges, not by the editor (which may attach images to
        // them like to any note); an item purged on one device
        // stays when another changed it concurrently (causal deletes): the devices agreeing on
        // it is checked by comparing them.
        let kept = present.intersection(purged).union(try store.conflictCopies())
        for id in present.subtracting(survivors).subtracting(kept) {
            problems.append("item \(id.storeString) should not be there")
        }
        var attachments: Set<UUID> = []
        for note in present {
            for attachment in try store.attachments(of: note) { attachments.insert(attachment.id) }
        }
        let allowed = survivingAttachments.union(
            attached.filter { kept.contains($0.value) && !detached.contains($0.key) }.keys)
        for id in survivingAttachments.subtracting(attachments) {
            problems.append("attachment \(id.storeString) is missing")
        }
        for id in attachments.subtracting(allowed) {
            problems.append("attachment \(id.storeString) should not be there")
        }
        return problems + (try hierarchyProblems(in: store))
    }

    /// What breaks the shown hierarchy: a parent that is not a collection there, or a cycle.
    func hierarchyProblems(in store: Store) throws -> [String] {
        let items = try store.fetch(ItemRequest(trash: .included, includesBodies: false))
        let byID = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0) })
        var problems: [String] = []
        for item in items {
            var seen: Set<UUID> = [item.id]
            var next = item.parent
            while let id = next {
                guard let parent = byID[id], parent.isCollection else {
                    problems.append("item \(item.id.storeString) is shown in \(id.storeString), which is no collection")
                    break
                }
                guard seen.insert(id).inserted else {
                    problems.append("item \(item.id.storeString) is on a cycle of collections")
                    break
                }
                next = parent.parent
            }
        }
        return problems
    }
}
