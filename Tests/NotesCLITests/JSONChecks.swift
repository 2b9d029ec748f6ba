import Foundation
import Testing

/// Decoding of the command's JSON with `JSONSerialization`, and checks of its types.
enum JSONChecks {
    /// A JSON array of objects.
    static func array(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
        let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
        return try #require(
            value as? [[String: Any]], "not an array of objects: \(text)", sourceLocation: sourceLocation)
    }

    /// A JSON object.
    static func object(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
        return try #require(value as? [String: Any], "not an object: \(text)", sourceLocation: sourceLocation)
    }

    /// Whether a decoded value is `true` or `false` in the JSON (not a number, not a string).
    static func isBoolean(_ value: Any?) -> Bool {
        guard let value, !(value is String), let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) == "c"
    }

    /// The date of an ISO 8601 UTC string with fractional seconds and a `Z`, or nil.
    static func date(_ value: Any?) -> Date? {
        guard let text = value as? String, text.hasSuffix("Z") else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }

    /// The names of items, in order.
    static func names(_ items: [[String: Any]]) -> [String] {
        items.map { $0["name"] as? String ?? "?" }
    }

    /// Checks the fields every item has in `ls`, `show` and `search`, with their types.
    static func expectItemShape(_ item: [String: Any], sourceLocation: SourceLocation = #_sourceLocation) {
        let id = item["id"] as? String
        #expect(
            id.flatMap(UUID.init(uuidString:)) != nil && id == id?.lowercased(), "id: \(item)",
            sourceLocation: sourceLocation)
        #expect(
            ["note", "collection"].contains(item["kind"] as? String), "kind: \(item)", sourceLocation: sourceLocation)
        #expect(item["name"] is String, "name: \(item)", sourceLocation: sourceLocation)
        #expect(item["path"] is String, "path: \(item)", sourceLocation: sourceLocation)
        let parent = item["parent"]
        let parentIsID = (parent as? String).flatMap(UUID.init(uuidString:)) != nil
        #expect(parent is NSNull || parentIsID, "parent: \(item)", sourceLocation: sourceLocation)
        #expect(date(item["created"]) != nil, "created: \(item)", sourceLocation: sourceLocation)
        #expect(date(item["modified"]) != nil, "modified: \(item)", sourceLocation: sourceLocation)
        #expect(isBoolean(item["trashed"]), "trashed: \(item)", sourceLocation: sourceLocation)
    }
}
