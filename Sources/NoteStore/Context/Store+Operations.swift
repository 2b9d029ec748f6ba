import Foundation
import NoteText

/// One-step operations, each one context and one save, for callers that change one thing at a
/// time, such as the `notes` command.
extension Store {
    /// Inserts and saves a note.
    public func addNote(named name: String, body: String, in parent: UUID?) throws -> Item {
        try change { $0.insertNote(named: name, body: body, in: parent) }
    }

    /// Inserts and saves a collection.
    public func addCollection(named name: String, in parent: UUID?) throws -> Item {
        try change { $0.insertCollection(named: name, in: parent) }
    }

    /// Changes the name and/or body of an item; returns false when nothing changed. A note
    /// renamed takes the links that reach it along: in the same save, the bodies that link
    /// to it name it by its new name (``LinkRewriter``).
    @discardableResult
    public func edit(_ id: UUID, name: String? = nil, body: String? = nil) throws -> Bool {
        try change { context in
            if let name {
                let before = try context.object(with: id)
                let normalized = Item.normalizedName(name)
                if before.isNote, normalized != before.name {
                    try rewriteLinks(to: before, name: normalized, parent: before.parent, in: context)
                }
            }
            var item = try context.object(with: id)
            if let name { item.name = name }
            if let body {
                guard item.isNote else {
                    throw StoreError.invalidOperation(item: item.label, reason: "a collection has no body")
                }
                item.body = body
            }
            try context.update(item)
            return context.hasChanges
        }
    }

    /// Changes the body of a note read earlier as `read`, refusing with
    /// ``StoreError/changedElsewhere(item:properties:)`` if the body in the store is no longer
    /// the one read then (an import, or another process, changed it meanwhile).
    public func edit(_ id: UUID, expecting read: Item, body: String) throws {
        try change { context in
            try context.adopt(read)
            var item = try context.object(with: id)
            item.body = body
            try context.update(item)
        }
    }

    /// Saves a body edited from `read`; when the body changed in the store meanwhile (an
    /// import, another process), merges the two edits three-way against `read` and saves the
    /// merge, unless they changed the same lines: then nothing is saved and the error says so.
    /// Returns whether it merged.
    @discardableResult
    public func edit(_ id: UUID, expecting read: Item, mergingBody body: String) throws -> Bool {
        do {
            try edit(id, expecting: read, body: body)
            return false
        } catch StoreError.changedElsewhere(let label, let properties) where properties == ["body"] {
            let current = try item(id)
            let merged = ThreeWayMerge.merge(base: read.body ?? "", older: current.body ?? "", newer: body)
            guard merged.conflicts == 0 else { throw StoreError.changedElsewhere(item: label, properties: properties) }
            try edit(id, expecting: current, body: merged.text)
            return true
        }
    }

    /// Moves an item into a collection, or to the top level with nil. A note moved takes the
    /// links that reach it by its path along, in the same save.
    public func move(_ id: UUID, to parent: UUID?) throws {
        try change { context in
            let before = try context.object(with: id)
            if before.isNote, before.parent != parent {
                try rewriteLinks(to: before, name: before.name, parent: parent, in: context)
            }
            try context.move(id, to: parent)
        }
    }

    /// Rewrites, in the context, the bodies whose links reach `note` so that they reach it as
    /// `name` in `parent`: ordinary edits, with history, saved with the change itself.
    private func rewriteLinks(to note: Item, name: String, parent: UUID?, in context: ObjectContext) throws {
        // A link that reaches the note by one of its aliases still does: it stays as written.
        let backlinks = try
            (try self.backlinks(of: note.id) + (try links(of: note.id).filter { $0.resolved == note.id })).filter {
                link in
                try !reachesByAlias(link)
            }
        guard !backlinks.isEmpty else { return }
        let folder = try parent.map { try path(of: item($0, includingBody: false)) }
        let target = LinkRewriter.Target(
            name: name, path: folder.map { $0 + "/" + name } ?? name, renamed: name != note.name)
        for (source, links) in Dictionary(grouping: backlinks, by: \.source) {
            var linking = try context.object(with: source)
            guard let body = linking.body,
                let rewritten = LinkRewriter.rewrite(body, at: Set(links.map(\.position)), to: target)
            else { continue }
            linking.body = rewritten
            try context.update(linking)
        }
    }

    /// Moves an item (and a collection's contents) to the trash; returns how many items went.
    @discardableResult
    public func trash(_ id: UUID) throws -> Int {
        try change { context in
            try context.trash(id)
            return context.updatedObjects.count
        }
    }

    /// Takes an item out of the trash; returns how many items came back.
    @discardableResult
    public func restore(_ id: UUID) throws -> Int {
        try change { context in
            try context.restore(id)
            return context.updatedObjects.count
        }
    }

    /// Purges everything in the trash for good; returns how many items were purged.
    @discardableResult
    public func emptyTrash() throws -> Int {
        try change { context in
            let roots = try context.fetch(ItemRequest(trash: .only, includesBodies: false))
            for root in roots where context.deleted[root.id] == nil {
                try context.purge(root.id)
            }
            return context.deletedObjects.count
        }
    }

    /// Runs `body` on a new context and saves it.
    public func change<T>(_ body: (ObjectContext) throws -> T) throws -> T {
        let context = makeContext()
        let result = try body(context)
        try context.save()
        return result
    }
}
