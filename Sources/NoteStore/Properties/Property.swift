import Foundation

/// One property of a note: a key and its value, at a place among the note's properties.
public struct NoteProperty: Sendable, Equatable {
    public let key: String
    public let value: PropertyValue
    /// Where it stands among the note's properties: they are listed by position, then key.
    public let position: Int64

    public init(key: String, value: PropertyValue, position: Int64) {
        self.key = key
        self.value = value
        self.position = position
    }
}

/// The properties of notes: what a front matter block holds (`aliases`, `title`, `publish`),
/// each a key with a JSON value.
///
/// Properties sync per key (docs/sync-format.md, "Properties"): each value set is a *dot*,
/// the stamp of the save that set it, which carries what it replaced; a removal removes the
/// dots its device had seen. A key's value is that of its latest dot no later change had seen,
/// so the later of two concurrent values wins and a removal never takes away a value it had
/// not seen.
public enum Property {
    /// At most this many characters in a key.
    public static let maximumKeyLength = 200
    /// At most this many properties on one note.
    public static let maximumCount = 1_000
    /// The object whose properties are the settings of the store, synced as a note's
    /// properties are (docs/sync-format.md, 13.2): no note has this id.
    public static let settingsObject = UUID(uuidString: "00000000-0000-4000-8000-000000000001")!
    /// The prefix of the settings that are saved searches: `search:NAME`, the query as text.
    public static let savedSearchPrefix = "search:"

    /// The key whose strings are other names of the note, which links resolve to.
    public static let aliases = "aliases"
    /// The key whose strings front matter gives as tags: read as the note's tags, and written
    /// back from them.
    public static let tags = "tags"

    /// The key as the store keeps it: composed Unicode, so that a key typed on two machines is
    /// one key.
    public static func normalized(_ key: String) -> String {
        key.precomposedStringWithCanonicalMapping
    }

    /// Why `key` cannot be a property's, or nil: 1 to 200 characters, no line break, no
    /// control or bidirectional formatting character, no white space at either end, and not
    /// `id` or `name`, which are the note's own.
    public static func problem(_ key: String) -> String? {
        if key.isEmpty { return "a property's key cannot be empty" }
        if key.count > maximumKeyLength { return "the key has \(key.count) characters, more than \(maximumKeyLength)" }
        if let control = ControlCharacters.first(in: key) {
            return "the key contains \(ControlCharacters.describe(control))"
        }
        if key.first!.isWhitespace || key.last!.isWhitespace { return "a key cannot start or end with white space" }
        if key == "id" || key == "name" { return "'\(key)' is the note's own, not a property" }
        return nil
    }

    /// The normalized key, or a validation error that names it.
    public static func checked(_ key: String) throws -> String {
        let key = normalized(key)
        if let problem = problem(key) { throw StoreError.invalidProperty(key, reason: problem) }
        return key
    }

    /// The value, or a validation error that names its key.
    public static func checked(_ value: PropertyValue, key: String) throws -> PropertyValue {
        if let problem = value.problem { throw StoreError.invalidProperty(key, reason: problem) }
        return value
    }
}
