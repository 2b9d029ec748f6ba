import Foundation
import GRDB

/// Damage that every page check passes: two indexes of a database file made to read each
/// other's entries (their root pages swapped in the schema), every page where it belongs and
/// every record well formed. What the checks of a baseline's indexes must find.
public enum IndexRoots {
    /// Swaps the root pages of the indexes `first` and `second` in the database `file`, which
    /// no connection has open; the schema is read again when it is next opened.
    public static func swap(_ first: String, _ second: String, in file: URL) throws {
        let queue = try DatabaseQueue(path: file.path)
        defer { try? queue.close() }
        try queue.writeWithoutTransaction { db in
            var roots: [Int] = []
            for name in [first, second] {
                guard
                    let root = try SQLRequest<Int>(literal: "SELECT rootpage FROM sqlite_schema WHERE name = \(name)")
                        .fetchOne(db)
                else {
                    throw DatabaseError(message: "no index \(name) in \(file.path)")
                }
                roots.append(root)
            }
            try db.execute(
                literal: """
                    PRAGMA writable_schema = ON;
                    UPDATE sqlite_schema SET rootpage = \(roots[1]) WHERE name = \(first);
                    UPDATE sqlite_schema SET rootpage = \(roots[0]) WHERE name = \(second);
                    PRAGMA writable_schema = OFF
                    """)
        }
    }
}
