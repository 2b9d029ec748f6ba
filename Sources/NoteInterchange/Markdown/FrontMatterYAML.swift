import Foundation
import NoteStore
import Yams

/// A front matter block read as YAML into properties, and properties written back as YAML.
///
/// Reading goes through libyaml (Yams), bounded: a block of at most ``maximumBytes``, at most
/// ``maximumValues`` values once aliases are expanded (so `&a [*a, *a]` chains cannot blow up
/// memory), nested at most ``PropertyValue/maximumDepth`` levels. Plain scalars resolve as
/// YAML 1.2's core schema does: `null`, `~` and nothing are null, `true` and `false` booleans,
/// numbers numbers; anything else, dates among them, and every quoted or block scalar, is a
/// string. Writing gives each value the form that reads back as the same value.
enum FrontMatterYAML {
    /// The largest block read.
    static let maximumBytes = 262_144
    /// The most values one block may hold, aliases expanded.
    static let maximumValues = 20_000

    /// Why a block cannot be read, with its line in the block when known.
    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    /// The block's keys and values, in order. An empty block has none; a block that is not a
    /// map of string keys is a problem.
    static func read(_ yaml: String) throws(Problem) -> [(key: String, value: PropertyValue)] {
        guard yaml.utf8.count <= maximumBytes else {
            throw Problem(description: "front matter of \(yaml.utf8.count) bytes, more than \(maximumBytes)")
        }
        let node: Node?
        do {
            // The encoding given: Yams's default reads the environment on every call, and
            // prints when it finds its variable there. No resolver rules: ``resolved(_:)``
            // types plain scalars, and the default rules' regular expressions, run again for
            // every key compared, cost a third of the reading of front matter. Keys are then
            // compared as text, as properties' keys are: `1` and `"1"` are the same key.
            node = try Yams.compose(yaml: yaml, .basic, .default, .utf8)
        } catch let error as YamlError {
            throw Problem(description: "front matter is not YAML: \(describe(error))")
        } catch {
            throw Problem(description: "front matter is not YAML")
        }
        guard let node else { return [] }
        guard case let .mapping(mapping) = node else {
            if case let .scalar(scalar) = node, scalar.style == .plain, resolved(scalar.string) == .null { return [] }
            throw Problem(description: "front matter is not a map of keys and values")
        }
        var budget = maximumValues
        var result: [(key: String, value: PropertyValue)] = []
        for (key, value) in mapping {
            guard case let .scalar(scalar) = key else {
                throw Problem(description: "front matter has a key that is not text")
            }
            result.append((scalar.string, try convert(value, depth: 0, budget: &budget)))
        }
        return result
    }

    private static func convert(_ node: Node, depth: Int, budget: inout Int) throws(Problem) -> PropertyValue {
        budget -= 1
        guard budget >= 0 else { throw Problem(description: "front matter holds more than \(maximumValues) values") }
        guard depth <= PropertyValue.maximumDepth else {
            throw Problem(description: "front matter nests more than \(PropertyValue.maximumDepth) levels")
        }
        switch node {
        case let .scalar(scalar):
            return scalar.style == .plain ? resolved(scalar.string) : .string(scalar.string)
        case let .sequence(sequence):
            var items: [PropertyValue] = []
            for item in sequence { items.append(try convert(item, depth: depth + 1, budget: &budget)) }
            return .list(items)
        case let .mapping(mapping):
            var pairs: [(key: String, value: PropertyValue)] = []
            for (key, value) in mapping {
                guard case let .scalar(scalar) = key else {
                    throw Problem(description: "front matter has a key that is not text")
                }
                pairs.append((scalar.string, try convert(value, depth: depth + 1, budget: &budget)))
            }
            return .map(pairs)
        case .alias:
            throw Problem(description: "front matter has an alias that names nothing")
        }
    }

    /// A plain scalar as YAML 1.2's core schema reads it.
    static func resolved(_ text: String) -> PropertyValue {
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        default: break
        }
        switch numberForm(text) {
        case .integer:
            if let value = Int64(text.hasPrefix("+") ? String(text.dropFirst()) : text) { return .integer(value) }
            if let value = Double(text), value.isFinite { return .number(value) }
        case .decimal:
            if let value = Double(text), value.isFinite { return .number(value) }
        case nil:
            break
        }
        return .string(text)
    }

    private enum NumberForm { case integer, decimal }

    /// Whether `text` is written as the core schema's integer (`[-+]?[0-9]+`) or its float
    /// (`[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`), matched by bytes: a regular
    /// expression cost a tenth of an import's reading.
    private static func numberForm(_ text: String) -> NumberForm? {
        var bytes = text.utf8[...]
        func digits() -> Int {
            var count = 0
            while let byte = bytes.first, (0x30...0x39).contains(byte) {
                bytes = bytes.dropFirst()
                count += 1
            }
            return count
        }
        if let sign = bytes.first, sign == 0x2B || sign == 0x2D { bytes = bytes.dropFirst() }
        let whole = digits()
        if bytes.isEmpty { return whole > 0 ? .integer : nil }
        if bytes.first == 0x2E {
            bytes = bytes.dropFirst()
            guard digits() > 0 || whole > 0 else { return nil }
        } else if whole == 0 {
            return nil
        }
        if let e = bytes.first, e == 0x65 || e == 0x45 {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == 0x2B || sign == 0x2D { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return nil }
        }
        return bytes.isEmpty ? .decimal : nil
    }

    private static func describe(_ error: YamlError) -> String {
        switch error {
        case let .scanner(_, problem, mark, _), let .parser(_, problem, mark, _), let .composer(_, problem, mark, _):
            return "\(problem) at line \(mark.line), column \(mark.column)"
        case let .reader(problem, _, _, _):
            return problem
        default:
            return "\(error)"
        }
    }

    // MARK: Writing

    /// The lines of `key: value`, each ending with a line break; containers in block style.
    static func lines(_ key: String, _ value: PropertyValue, indent: String = "") -> String {
        let head = indent + text(key) + ":"
        switch value {
        case let .list(items) where !items.isEmpty:
            return head + "\n" + items.map { indent + "  - " + flow($0) + "\n" }.joined()
        case let .map(pairs) where !pairs.isEmpty:
            return head + "\n" + pairs.map { lines($0.key, $0.value, indent: indent + "  ") }.joined()
        case .null:
            // As YAML tools write a key without a value.
            return head + "\n"
        default:
            return head + " " + flow(value) + "\n"
        }
    }

    /// A value on one line: a scalar as ``scalar(_:)`` writes it, a container as JSON, which
    /// YAML reads as the same value.
    static func flow(_ value: PropertyValue) -> String {
        switch value {
        case .list, .map: return value.json
        default: return scalar(value)
        }
    }

    /// A scalar: plain when YAML reads it back as the same value, else a JSON string.
    static func scalar(_ value: PropertyValue) -> String {
        switch value {
        case let .string(string): return text(string)
        default: return value.json
        }
    }

    /// Text, plain when a reader takes it back as the same string, else quoted as JSON.
    static func text(_ string: String) -> String {
        if isPlainSafe(string), resolved(string) == .string(string) { return string }
        var quoted = ""
        OutboxChanges.appendJSONString(string, to: &quoted)
        return quoted
    }

    /// Letters, digits, spaces inside, and `-_.+/`, not starting with `-` or `.` followed by
    /// nothing else that YAML would take as syntax: what reads as plain text.
    private static func isPlainSafe(_ string: String) -> Bool {
        guard let first = string.unicodeScalars.first, let last = string.unicodeScalars.last,
            first != " ", last != " ", first != "-", first != "."
        else { return false }
        if ["yes", "no", "on", "off", "y", "n"].contains(string.lowercased()) { return false }
        return string.unicodeScalars.allSatisfy { scalar in
            if scalar.isASCII {
                let byte = UInt8(scalar.value)
                return (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || [0x2D, 0x5F, 0x2E, 0x2B, 0x20, 0x2F].contains(byte)
            }
            return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
        }
    }
}
