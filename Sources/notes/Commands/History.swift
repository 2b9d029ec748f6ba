import ArgumentParser
import Foundation
import NoteStore
import NoteSync

extension Notes {
    struct History: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "history",
            abstract: "List the versions of an item's name and body, newest first, or restore one.",
            discussion: """
                Every version saved or imported is kept. Each line gives a version id, what it is \
                a version of, the device that saved it, when, its size, and how it came to be: \
                edit, merge (derived from concurrent versions), restore or conflict. A '*' marks \
                the current one. With --restore, the text of that version becomes the current \
                name or body again, as a normal save that syncs.
                """)

        @OptionGroup var storeOptions: StoreOptions

        @Argument(help: "The item.", completion: ItemCompletion.items)
        var item: String

        @Option(help: ArgumentHelp("Make this version the current one again.", valueName: "VERSION"))
        var restore: String?

        @Flag(help: "Print a JSON array.")
        var json = false

        @OptionGroup var references: ReferenceOptions

        @OptionGroup var timeOptions: TimeOptions

        @OptionGroup var pagerOptions: PagerOptions

        func validate() throws {
            if json && restore != nil { throw ValidationError("--json lists versions: it does not go with --restore") }
        }

        func run() throws {
            let store = try storeOptions.open(restore == nil ? .readOnly : .readWrite)
            let shown = try references.item(item, in: store, scope: .any, json: json, prompt: "history> ")
            let history = try ItemHistory(store: store, item: shown)
            let pager = restore == nil ? pagerOptions.start() : nil
            defer { pager?.finish() }
            if let restore {
                let entry = try history.entry(restore)
                try store.change { context in
                    if let version = history.version(of: entry) {
                        try context.restore(version)
                    } else {
                        var changed = try context.object(with: shown.id)
                        let text = try history.text(of: entry)
                        if entry.property == .name { changed.name = text } else { changed.body = text }
                        try context.update(changed)
                    }
                    try context.save()
                }
                return print("restored the \(entry.property.rawValue) of version \(entry.id)")
            }
            if json { return try JSONOutput.print(history.entries.map(HistoryJSON.init)) }
            let formatter = Timestamp.shortFormatter(utc: timeOptions.utc)
            let names = try DeviceNames(store: store, needed: history.entries)
            for entry in history.entries {
                let device = entry.kind == .merge ? "(merged)" : names.name(entry)
                let size = entry.size < 0 ? "" : ByteCount.short(entry.size)
                let columns = [
                    (entry.isCurrent ? "*" : " ") + " " + entry.id, entry.property.rawValue.padding(4),
                    device.padding(12), formatter.string(from: entry.time), size.padding(7, left: true),
                    entry.kind.rawValue,
                ]
                print(columns.joined(separator: "  "))
            }
        }
    }
}

/// What a device is called in history: the name its saves carried, this device's own name,
/// the name it registered in the container, or the start of its id.
struct DeviceNames {
    let own: UUID
    let ownName: String?
    let registered: [UUID: String]

    init(store: Store, needed: [HistoryEntry] = []) throws {
        let ownID = store.deviceID
        own = ownID
        let engine = SyncEngine(store: store, hooks: .environment)
        ownName = try engine.lastAttachment()?.deviceName
        let unnamed = needed.contains { $0.kind != .merge && $0.deviceName == nil && $0.stamp.device != ownID }
        var names: [UUID: String] = [:]
        if unnamed, let status = try? engine.status() {
            for device in status.devices {
                if let name = device.name { names[device.id] = name }
            }
        }
        registered = names
    }

    func name(_ entry: HistoryEntry) -> String {
        if let name = entry.deviceName { return name }
        if entry.stamp.device == own { return ownName ?? "this device" }
        return registered[entry.stamp.device] ?? String(entry.stamp.device.storeString.prefix(8))
    }
}

/// One history entry in JSON.
struct HistoryJSON: Encodable {
    let id: String
    let property: String
    let kind: String
    let stamp: String
    let device: String
    let deviceName: String?
    let time: String
    let size: Int?
    let current: Bool
    let bases: [String]
    let restored: String?

    init(_ entry: HistoryEntry) {
        id = entry.id
        property = entry.property.rawValue
        kind = entry.kind.rawValue
        stamp = entry.stamp.text
        device = entry.stamp.device.storeString
        deviceName = entry.deviceName
        time = Timestamp.iso(entry.time)
        size = entry.size < 0 ? nil : entry.size
        current = entry.isCurrent
        bases = entry.bases.map(\.text)
        restored = entry.restored?.text
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(property, forKey: .property)
        try container.encode(kind, forKey: .kind)
        try container.encode(stamp, forKey: .stamp)
        try container.encode(device, forKey: .device)
        try container.encode(deviceName, forKey: .deviceName)
        try container.encode(time, forKey: .time)
        try container.encode(size, forKey: .size)
        try container.encode(current, forKey: .current)
        try container.encode(bases, forKey: .bases)
        try container.encode(restored, forKey: .restored)
    }

    enum CodingKeys: String, CodingKey {
        case id, property, kind, stamp, device, deviceName, time, size, current, bases, restored
    }
}

/// Sizes for people: `812 B`, `1.2 KB`, `3.4 MB`.
enum ByteCount {
    static func short(_ bytes: Int) -> String {
        if bytes < 1000 { return "\(bytes) B" }
        if bytes < 1_000_000 { return String(format: "%.1f KB", Double(bytes) / 1000) }
        return String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}

extension String {
    /// The text padded with spaces to `width` characters (never cut).
    func padding(_ width: Int, left: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - count))
        return left ? fill + self : self + fill
    }
}
