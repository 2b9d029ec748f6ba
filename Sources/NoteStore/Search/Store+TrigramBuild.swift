import GRDB

extension Store {
    /// How far the build of the trigram index has come, while one is in progress (a store made
    /// from a baseline of many items builds it a part at a time, ``TrigramIndex``); nil when the
    /// index is whole. Until then, searches read the text of the items it has not reached.
    public func trigramIndexBuild() throws -> IndexBuild? {
        try read { db in
            guard let through = try TrigramIndex.builtThrough(db) else { return nil }
            return IndexBuild(
                built: try SQLRequest<Int>(literal: "SELECT COUNT(*) FROM item WHERE rowid <= \(through)").fetchOne(db)
                    ?? 0,
                items: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") ?? 0)
        }
    }

    /// Builds a part of the trigram index, while a build is in progress: the entries of up to
    /// `items` more items, in one transaction that a power cut may undo (the index is derived,
    /// and the part comes again). Returns true when the index is whole.
    public func buildTrigramIndex(items: Int = 2_000) throws -> Bool {
        try write(durable: false) { db in try TrigramIndex.build(items: max(1, items), db) }
    }
}
