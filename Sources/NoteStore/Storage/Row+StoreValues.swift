import Foundation
import GRDB

extension Row {
    /// The row's own id, read from its `id` column, and the text it was read from, which names
    /// the row in errors (read once: the text of an id is too long to be kept inline).
    func storeRowID(table: String) throws -> (id: UUID, text: String) {
        let text: String = self["id"]
        guard let id = UUID(storeText: text) else {
            throw StoreError.damagedRow(table: table, id: text, problem: "its id is not a UUID")
        }
        return (id, text)
    }

    /// The id in `column`, as the store writes ids; a ``StoreError/damagedRow(table:id:problem:)``
    /// of the row `rowID` of `table` when the text is not an id.
    func storeID(_ column: Column, table: String, rowID: String) throws -> UUID {
        let text: String = self[column]
        guard let id = UUID(storeText: text) else { throw damage(column, text, table: table, rowID: rowID) }
        return id
    }

    /// The id in `column`, or nil when it is NULL; damage as ``storeID(_:table:rowID:)``.
    func storeIDIfPresent(_ column: Column, table: String, rowID: String) throws -> UUID? {
        guard let text = self[column] as String? else { return nil }
        guard let id = UUID(storeText: text) else { throw damage(column, text, table: table, rowID: rowID) }
        return id
    }

    /// The value of a text enumeration in `column`; damage when no case has that text.
    func storeCase<Value: RawRepresentable<String>>(
        _ column: Column, as type: Value.Type = Value.self, table: String, rowID: String
    ) throws -> Value {
        let text: String = self[column]
        guard let value = Value(rawValue: text) else {
            throw StoreError.damagedRow(
                table: table, id: rowID, problem: "its \(column.name) '\(Self.shown(text))' is unknown")
        }
        return value
    }

    private func damage(_ column: Column, _ text: String, table: String, rowID: String) -> StoreError {
        StoreError.damagedRow(
            table: table, id: rowID, problem: "its \(column.name) '\(Self.shown(text))' is not a UUID")
    }

    /// A value as an error shows it: at most 40 characters.
    private static func shown(_ text: String) -> String {
        text.count > 40 ? text.prefix(37) + "..." : text
    }
}
