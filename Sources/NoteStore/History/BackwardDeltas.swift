import Foundation
import GRDB
import NoteText

extension VersionStorage {
    /// Stores, in a copy for a baseline, each property whose versions form one line (each
    /// version edited from the one before it alone, and stored whole or as a delta against
    /// it) backwards: its newest version's text is the item's (kept once, there), and each
    /// older one is a delta against the one after it, whole again every ``backwardDepth``
    /// versions or where a delta would not be smaller than half its text. Versions read the
    /// same texts; the first text of every edited note is no longer stored whole beside the
    /// item's, which is what a baseline of an edited library held most of. A property whose
    /// newest text is not its item's (a purged item, or a text that changed since) is left as
    /// it is.
    static func storeLinesBackwards(_ db: Database) throws {
        let groups = try Row.fetchAll(db, sql: "SELECT object, property FROM history GROUP BY object, property HAVING COUNT(*) > 1")
        let versions = try db.makeStatement(
            sql: "SELECT stamp, bases, delta_of, content FROM history WHERE object = ? AND property = ? ORDER BY stamp")
        let item = try db.makeStatement(sql: "SELECT name, body FROM item WHERE id = ?")
        let update = try db.makeStatement(
            sql: "UPDATE history SET content = ?, delta_of = ?, depth = ? WHERE object = ? AND property = ? AND stamp = ?")
        for group in groups {
            guard let object = (group[0] as Data?).flatMap(HistoryEncoding.id), let property = HistoryEncoding.property(group[1]),
                let current = try Row.fetchOne(item, arguments: [object.storeString])
            else { continue }
            let itemText: String? = property == .body ? current[1] : current[0]
            guard let itemText else { continue }
            let rows = try Row.fetchAll(versions, arguments: [group[0], group[1]])
            guard let line = line(of: rows, itemText: itemText) else { continue }
            var newer = line[line.count - 1]
            try update.execute(arguments: [nil, nil, 0, group[0], group[1], newer.stamp])
            var depth = 0
            for version in line.dropLast().reversed() {
                var content = Data(version.text.utf8)
                var deltaOf: Data?
                if version.text.utf8.count > 64, depth + 1 < backwardDepth {
                    let delta = Data(LineDelta.make(from: newer.text, to: version.text).encoded)
                    if delta.count < version.text.utf8.count / 2 {
                        content = delta
                        deltaOf = newer.stamp
                    }
                }
                depth = deltaOf == nil ? 0 : depth + 1
                try update.execute(arguments: [content, deltaOf, depth, group[0], group[1], version.stamp])
                newer = version
            }
        }
    }

    /// The most deltas in a row that ``storeLinesBackwards(_:)`` writes: far enough below
    /// ``maximumDepth`` that a version stored forwards against one of them stays readable.
    static let backwardDepth = 20

    /// The versions of `rows` (stamp, bases, delta_of, content; by stamp) in the order of their
    /// line, with their texts, when they form one: one version without a base among them, each
    /// other edited from exactly one of them, none edited from by two, stored whole or as a
    /// delta against the one before it, the last one's text `itemText`; else nil.
    private static func line(of rows: [Row], itemText: String) -> [(stamp: Data, text: String)]? {
        var next: [Data: Int] = [:]
        var first: Int?
        let held = Set(rows.map { $0[0] as Data })
        for (index, row) in rows.enumerated() {
            let stamps = (row[1] as Data?).flatMap(HistoryEncoding.stamps)
            guard let stamps, stamps.count <= 1 else { return nil }
            if let base = stamps.first.map({ HistoryEncoding.bytes(of: $0) }), held.contains(base) {
                guard next.updateValue(index, forKey: base) == nil else { return nil }
            } else {
                guard first == nil else { return nil }
                first = index
            }
        }
        guard var index = first else { return nil }
        var line: [(stamp: Data, text: String)] = []
        var previous: (stamp: Data, text: String)?
        while true {
            let row = rows[index]
            let stamp: Data = row[0]
            let deltaOf: Data? = row[2]
            let text: String
            if let deltaOf {
                guard let previous, deltaOf.isEmpty || deltaOf == previous.stamp, let content = row[3] as Data?,
                    let applied = try? LineDelta(decoding: [UInt8](content)).apply(to: previous.text)
                else { return nil }
                text = applied
            } else if let content = row[3] as Data? {
                text = String(decoding: content, as: UTF8.self)
            } else {
                text = itemText
            }
            previous = (stamp, text)
            line.append((stamp, text))
            guard let following = next[stamp] else { break }
            index = following
        }
        guard line.count == rows.count, line.last?.text.utf8.elementsEqual(itemText.utf8) == true else { return nil }
        return line
    }
}
