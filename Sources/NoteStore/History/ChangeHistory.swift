import Foundation

/// What a change of names or bodies carries for history: for each such property it sets, the
/// versions it was edited from (its bases: the heads the editor saw), the version it restores,
/// and for a body the note's name and place at the time (docs/sync-format.md, "History").
///
/// Encoded as one JSON object: `{"bases":{"body":"S1 S2"},"context":{"name":N,"parent":P},
/// "restored":{"body":"S"}}`, stamps in text form, bases separated by one space (an empty
/// text: a first version).
public struct ChangeHistory: Sendable, Equatable {
    public var bases: [HistoryProperty: [ChangeStamp]] = [:]
    public var restored: [HistoryProperty: ChangeStamp] = [:]
    public var context: VersionContext?
    /// For a purge: the greatest clock of each device whose changes the purging device had
    /// seen (its own: the purge's clock).
    public var seen: [UUID: UInt64]?
    /// The properties whose version was edited from the merge of several heads by a build
    /// that merges two such versions on the merge of their common versions.
    public var fromMerge: Set<HistoryProperty> = []

    public init(
        bases: [HistoryProperty: [ChangeStamp]] = [:], restored: [HistoryProperty: ChangeStamp] = [:],
        context: VersionContext? = nil, seen: [UUID: UInt64]? = nil
    ) {
        self.bases = bases
        self.restored = restored
        self.context = context
        self.seen = seen
    }

    public var isEmpty: Bool { bases.isEmpty && restored.isEmpty && context == nil && seen == nil && fromMerge.isEmpty }

    /// The JSON text, keys sorted.
    public var json: String {
        var members: [String] = []
        if !bases.isEmpty {
            let list = bases.sorted { $0.key < $1.key }.map {
                Self.quoted($0.key.rawValue) + ":" + Self.quoted($0.value.sorted().map(\.text).joined(separator: " "))
            }
            members.append("\"bases\":{" + list.joined(separator: ",") + "}")
        }
        if let context { members.append("\"context\":" + Self.contextJSON(context)) }
        if !fromMerge.isEmpty {
            members.append(
                "\"fromMerge\":{" + fromMerge.sorted().map { Self.quoted($0.rawValue) + ":1" }.joined(separator: ",")
                    + "}")
        }
        if !restored.isEmpty {
            let list = restored.sorted { $0.key < $1.key }.map {
                Self.quoted($0.key.rawValue) + ":" + Self.quoted($0.value.text)
            }
            members.append("\"restored\":{" + list.joined(separator: ",") + "}")
        }
        if let seen { members.append("\"seen\":" + Self.seenJSON(seen)) }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// `{"<device>":<clock>,...}`, devices sorted.
    public static func seenJSON(_ seen: [UUID: UInt64]) -> String {
        "{"
            + seen.sorted { $0.key.storeString < $1.key.storeString }
            .map { quoted($0.key.storeString) + ":" + String($0.value) }.joined(separator: ",") + "}"
    }

    /// Reads `seenJSON`; nil when it is not one.
    public static func seen(json: String) -> [UUID: UInt64]? {
        guard let members = JSONScanner.object(Data(json.utf8)) else { return nil }
        return ChangeHistory(members: [("seen", .object(members))])?.seen
    }

    private static func quoted(_ text: String) -> String {
        var changes = OutboxChanges()
        changes.set("", .text(text))
        return String(changes.json.dropFirst(4).dropLast())
    }

    /// Reads the JSON text; nil when it is not a history object.
    public init?(json: String) {
        guard let members = JSONScanner.object(Data(json.utf8)) else { return nil }
        self.init(members: members)
    }

    /// Reads the members of a history object; nil when one of them breaks the rules (a base or
    /// a restored version that is not a stamp, a context without a name). Unknown keys and
    /// properties other than `name` and `body` are ignored.
    public init?(members: [(key: String, value: JSONScanner.Value)]) {
        for (key, value) in members {
            switch (key, value) {
            case let ("bases", .object(entries)):
                for (name, list) in entries {
                    guard case let .text(text) = list else { return nil }
                    var stamps: [ChangeStamp] = []
                    for piece in text.split(separator: " ") {
                        guard let stamp = ChangeStamp(text: String(piece)) else { return nil }
                        stamps.append(stamp)
                    }
                    if let property = HistoryProperty(rawValue: name) { bases[property] = stamps }
                }
            case let ("restored", .object(entries)):
                for (name, item) in entries {
                    guard case let .text(text) = item, let stamp = ChangeStamp(text: text) else { return nil }
                    if let property = HistoryProperty(rawValue: name) { restored[property] = stamp }
                }
            case let ("context", .object(entries)):
                var name: String?
                var parent: UUID?
                var device: String?
                for (field, item) in entries {
                    switch (field, item) {
                    case let ("name", .text(text)): name = text
                    case let ("parent", .text(text)): parent = UUID(storeText: text)
                    case let ("device", .text(text)): device = text
                    default: break
                    }
                }
                guard let name else { return nil }
                context = VersionContext(name: name, parent: parent, device: device)
            case let ("seen", .object(entries)):
                var clocks: [UUID: UInt64] = [:]
                for (device, item) in entries {
                    guard let id = UUID(storeText: device), case let .integer(clock) = item, clock >= 0 else {
                        return nil
                    }
                    clocks[id] = UInt64(clock)
                }
                seen = clocks
            case let ("fromMerge", .object(entries)):
                for (name, item) in entries {
                    guard case .integer = item else { return nil }
                    if let property = HistoryProperty(rawValue: name) { fromMerge.insert(property) }
                }
            case ("bases", _), ("restored", _), ("context", _), ("seen", _), ("fromMerge", _):
                return nil
            default:
                break
            }
        }
    }
}
