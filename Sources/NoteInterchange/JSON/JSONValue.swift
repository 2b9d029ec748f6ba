import NoteStore

/// A JSON value written by hand, members in the order given: `JSONSerialization` sorts keys
/// with a locale's comparison and bridges every value, most of an export's time.
enum JSONValue {
    case text(String)
    case integer(Int)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])
    /// JSON text written as it is: a property's value.
    case raw(String)

    /// The value as compact JSON, appended to `out`.
    func write(to out: inout String) {
        switch self {
        case let .text(text): Self.quote(text, to: &out)
        case let .integer(value): out += String(value)
        case .null: out += "null"
        case let .raw(json): out += json
        case let .array(values):
            out += "["
            for (index, value) in values.enumerated() {
                if index > 0 { out += "," }
                value.write(to: &out)
            }
            out += "]"
        case let .object(members):
            out += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out += "," }
                Self.quote(key, to: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    /// A JSON string, escaped as the store's outbox escapes it.
    static func quote(_ text: String, to out: inout String) {
        OutboxChanges.appendJSONString(text, to: &out)
    }
}
