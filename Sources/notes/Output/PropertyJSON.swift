import Foundation
import NoteStore

/// A property in JSON output: its key and its value as JSON.
struct PropertyJSON: Encodable {
    let key: String
    let value: PropertyValueJSON

    init(_ property: NoteProperty) {
        key = property.key
        value = PropertyValueJSON(property.value)
    }

    static func list(_ properties: [NoteProperty]) -> [PropertyJSON] {
        properties.map(PropertyJSON.init)
    }
}

/// A property's value encoded as the JSON it is.
struct PropertyValueJSON: Encodable {
    let value: PropertyValue

    init(_ value: PropertyValue) {
        self.value = value
    }

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        switch value {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case let .bool(flag):
            var container = encoder.singleValueContainer()
            try container.encode(flag)
        case let .integer(number):
            var container = encoder.singleValueContainer()
            try container.encode(number)
        case let .number(number):
            var container = encoder.singleValueContainer()
            try container.encode(number)
        case let .string(text):
            var container = encoder.singleValueContainer()
            try container.encode(text)
        case let .list(items):
            var container = encoder.unkeyedContainer()
            for item in items { try container.encode(PropertyValueJSON(item)) }
        case let .map(pairs):
            var container = encoder.container(keyedBy: Key.self)
            for pair in pairs {
                try container.encode(PropertyValueJSON(pair.value), forKey: Key(stringValue: pair.key))
            }
        }
    }
}

/// A property's value as text: a string as it is, anything else as its JSON.
enum PropertyText {
    static func text(_ value: PropertyValue) -> String {
        if case let .string(text) = value { return text }
        return value.json
    }
}
