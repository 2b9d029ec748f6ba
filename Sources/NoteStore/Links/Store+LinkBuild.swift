import GRDB

extension Store {
    /// How far the build of the link index has come, while one is in progress (a store made
    /// from a baseline of many notes builds it a part at a time, ``LinkIndex``), in notes; nil
    /// when the index is whole.
    public func linkIndexBuild() throws -> IndexBuild? {
        try read { db in
            guard let through = try LinkIndex.builtThrough(db) else { return nil }
            return IndexBuild(
                built: try SQLRequest<Int>(
                    literal: "SELECT COUNT(*) FROM item WHERE kind = 'note' AND id <= \(through)"
                ).fetchOne(db) ?? 0,
                items: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item WHERE kind = 'note'") ?? 0)
        }
    }

    /// Whether the link index is being built a part at a time: one read of `metadata`, where
    /// ``linkIndexBuild()`` also counts the notes.
    public func isBuildingLinkIndex() throws -> Bool {
        try read { db in try LinkIndex.builtThrough(db) != nil }
    }

    /// Builds a part of the link index, while a build is in progress: the rows of up to
    /// `notes` more notes, in one transaction that a power cut may undo (the index is derived,
    /// and the part comes again). Returns true when the index is whole.
    public func buildLinkIndex(notes: Int = 2_000) throws -> Bool {
        try write(durable: false) { db in try LinkIndex.build(notes: max(1, notes), db) }
    }

    /// Finishes a build of the link index in progress, a part at a time: whatever reads links
    /// calls it first, so that it reads them all, and so does `notes check`. Nothing to do, the
    /// usual case, costs a read.
    public func finishLinkIndex() throws {
        guard try isBuildingLinkIndex() else { return }
        try writeParts(finishing: "the link index") { db in try LinkIndex.build(notes: 20_000, db) }
    }
}
