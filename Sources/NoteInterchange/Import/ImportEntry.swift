import Foundation
import NoteStore

/// One note or collection read from an export or another tool's files, before it is matched
/// with the store: what ``Importer`` brings in.
public struct ImportEntry: Sendable {
    /// Where it was read, for reports: a path relative to what was imported.
    public var source: String
    public var kind: ItemKind
    /// The id an export gave it; a re-import updates the item with this id.
    public var id: UUID?
    public var name: String
    public var body: String?
    public var created: Date?
    public var modified: Date?
    /// A note's tags; nil when the file does not say (a re-import then leaves them as they are).
    public var tags: [String]?
    /// A note's properties in order; nil when the file does not say (a re-import then leaves
    /// them as they are).
    public var properties: [(key: String, value: PropertyValue)]?
    /// Image files to attach, with captions.
    public var images: [(file: URL, caption: String?)] = []
    public var children: [ImportEntry] = []
}

/// What an import did (or, in a dry run, would do).
public struct ImportReport: Sendable {
    public var created = 0
    public var updated = 0
    public var unchanged = 0
    public var images = 0
    /// One line per file skipped, or image not attached, with the reason.
    public var problems: [String] = []
    /// One line per item, in a dry run only: `create note PATH`, `update note PATH` ...
    public var plan: [String] = []
}
