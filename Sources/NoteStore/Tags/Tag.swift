import Foundation

/// A tag: a label a note carries, shared by the notes that carry it across collections.
///
/// Tags sync as a set with add wins (docs/sync-format.md, "Tags"): each addition is a *dot*,
/// the stamp of the save that added it; a removal removes the dots its device had seen, so a
/// tag added elsewhere concurrently stays. A tag is on a note while one of its dots is.
public enum Tag {
    /// At most this many characters.
    public static let maximumLength = 100

    /// The tag as the store keeps it from what a person typed: a leading `#` left out
    /// (`#work` is the tag `work`), and composed Unicode, so that the same word typed on two
    /// machines is one tag.
    public static func normalized(_ text: String) -> String {
        var text = text
        if text.hasPrefix("#") { text.removeFirst() }
        return text.precomposedStringWithCanonicalMapping
    }

    /// Why `tag` (as normalized) cannot be a tag, or nil when it can: it must have 1 to 100
    /// characters, no white space, no comma, no control or bidirectional formatting
    /// character, and not start with `#`.
    public static func problem(_ tag: String) -> String? {
        if tag.isEmpty { return "a tag cannot be empty" }
        if tag.count > maximumLength { return "the tag has \(tag.count) characters, more than \(maximumLength)" }
        if tag.hasPrefix("#") { return "a tag cannot start with '#'" }
        if let control = ControlCharacters.first(in: tag) {
            return "the tag contains \(ControlCharacters.describe(control))"
        }
        if tag.contains(where: { $0.isWhitespace }) { return "a tag cannot contain white space" }
        if tag.contains(",") { return "a tag cannot contain a comma" }
        return nil
    }

    /// The normalized tag, or a validation error that names it.
    public static func checked(_ text: String) throws -> String {
        let tag = normalized(text)
        if let problem = problem(tag) {
            throw StoreError.invalidTag(tag, reason: problem)
        }
        return tag
    }
}
