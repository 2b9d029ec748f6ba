import ArgumentParser
import Foundation
import NoteStore
import NoteSync

extension Notes {
    struct Conflicts: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "conflicts",
            abstract: "List the concurrent edits that could not merge, and the copies that keep the losing text.",
            discussion: """
                When two devices change the same lines of a note before they sync, the note keeps \
                the text of the later edit and a conflict copy beside it keeps the other whole. \
                Concurrent renames keep the later name; the other stays in 'notes history'.
                """)

        @OptionGroup var storeOptions: StoreOptions

        @Option(help: "List the conflicts of the last DAYS days.")
        var days: Int = 30

        @Flag(help: "Print a JSON array.")
        var json = false

        @OptionGroup var timeOptions: TimeOptions

        func validate() throws {
            guard days > 0 else { throw ValidationError("--days must be a positive number of days") }
        }

        func run() throws {
            let store = try storeOptions.open(.readOnly)
            let since = Date().addingTimeInterval(-Double(days) * 86_400)
            let conflicts = try store.conflicts(since: since)
            let index = try store.collectionIndex()
            var rows: [ConflictJSON] = []
            for conflict in conflicts {
                let item = try? store.item(conflict.object, includingBody: false)
                let copy = conflict.copy.flatMap { try? store.item($0, includingBody: false) }
                rows.append(
                    ConflictJSON(
                        conflict, itemName: item?.name, itemPath: item.map(index.path(of:)),
                        copyPath: copy.map(index.path(of:))))
            }
            if json { return try JSONOutput.print(rows) }
            if rows.isEmpty { return print("no conflicts in the last \(Plural.days(days))") }
            let formatter = Timestamp.shortFormatter(utc: timeOptions.utc)
            for (conflict, row) in zip(conflicts, rows) {
                let time = formatter.string(from: HybridClock.date(of: conflict.winner.clock))
                let what = row.itemPath ?? "\(conflict.object.storeString.prefix(8)) (purged)"
                switch conflict.property {
                case .name:
                    print("\(time)  \(what): concurrent rename, version \(row.loserVersion) kept in history")
                case .body:
                    let copy = row.copyPath.map { "copy: \($0)" } ?? "copy purged"
                    print("\(time)  \(what): concurrent edits of the same lines; \(copy)")
                }
            }
        }
    }
}

/// One conflict in JSON.
struct ConflictJSON: Encodable {
    let item: String
    let itemName: String?
    let itemPath: String?
    let property: String
    let loser: String
    let loserVersion: String
    let winner: String
    let winnerVersion: String
    let time: String
    let copy: String?
    let copyPath: String?

    init(_ conflict: ConflictRecord, itemName: String?, itemPath: String?, copyPath: String?) {
        item = conflict.object.storeString
        self.itemName = itemName
        self.itemPath = itemPath
        property = conflict.property.rawValue
        loser = conflict.loser.text
        loserVersion = HistoryEntry.versionID(conflict.property, conflict.loser)
        winner = conflict.winner.text
        winnerVersion = HistoryEntry.versionID(conflict.property, conflict.winner)
        time = Timestamp.iso(HybridClock.date(of: conflict.winner.clock))
        copy = conflict.copy?.storeString
        self.copyPath = copyPath
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(item, forKey: .item)
        try container.encode(itemName, forKey: .itemName)
        try container.encode(itemPath, forKey: .itemPath)
        try container.encode(property, forKey: .property)
        try container.encode(loser, forKey: .loser)
        try container.encode(loserVersion, forKey: .loserVersion)
        try container.encode(winner, forKey: .winner)
        try container.encode(winnerVersion, forKey: .winnerVersion)
        try container.encode(time, forKey: .time)
        try container.encode(copy, forKey: .copy)
        try container.encode(copyPath, forKey: .copyPath)
    }

    enum CodingKeys: String, CodingKey {
        case item, itemName, itemPath, property, loser, loserVersion, winner, winnerVersion, time, copy, copyPath
    }
}
