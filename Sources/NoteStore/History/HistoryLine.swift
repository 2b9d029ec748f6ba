import Foundation

/// Every version of one property of one object, as the store keeps them (model version 8): one
/// row of `history_line`, its versions in one blob (docs/sync-format.md, "History in the store").
///
/// A row per version cost about 150 bytes beside a delta of about 20 (its key repeated the
/// object and the whole stamp, its bases another stamp), and SQLite's checks of a joining
/// device's baseline went through every row: in a line, a version costs its delta and about a
/// dozen bytes, and a note edited ten times is one row instead of eleven.
struct HistoryLine {
    /// One version as stored: what ``Version`` shows, and how its text is kept.
    struct Entry: Equatable {
        var stamp: ChangeStamp
        var origin: VersionOrigin
        /// nil: no bases (format 1, descends from every smaller stamp); empty: a first version.
        var bases: [ChangeStamp]?
        var restored: ChangeStamp?
        /// nil: the context of its first base (``VersionStorage/maximumContextChain``); an empty
        /// text: no context.
        var context: String?
        var isHead: Bool
        var size: Int
        /// The version its content is a delta against; nil when its content is its text.
        var deltaOf: ChangeStamp?
        var depth: Int
        /// nil: the text is the item's current text of the property, unless ``isApart``.
        var content: Data?
        var fromMerge: Bool
        /// Whether its content is kept apart, in `history_text` (``VersionStorage/apartBytes``):
        /// then `content` is nil. Only in a store: a baseline's lines hold every content.
        var isApart = false

        /// Whether its text is the item's current text of the property.
        var keepsItemText: Bool { content == nil && !isApart }
    }

    let object: UUID
    let property: HistoryProperty
    /// By stamp, ascending, no two alike.
    private(set) var entries: [Entry]
    /// The versions whose content was kept apart when the line was read: what a write of the
    /// line removes from `history_text` when they are no longer.
    var apartWhenRead: Set<ChangeStamp> = []

    init(object: UUID, property: HistoryProperty, entries: [Entry] = []) {
        self.object = object
        self.property = property
        self.entries = entries.sorted { $0.stamp < $1.stamp }
    }

    /// The position of the first version whose stamp is not below `stamp`.
    private func position(of stamp: ChangeStamp) -> Int {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].stamp < stamp { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The position of the version with `stamp`, if it is there.
    func index(of stamp: ChangeStamp) -> Int? {
        let low = position(of: stamp)
        return low < entries.count && entries[low].stamp == stamp ? low : nil
    }

    func entry(_ stamp: ChangeStamp) -> Entry? {
        index(of: stamp).map { entries[$0] }
    }

    /// Adds a version unless one with its stamp is there; returns whether it added it.
    @discardableResult
    mutating func insert(_ entry: Entry) -> Bool {
        let low = position(of: entry.stamp)
        if low < entries.count && entries[low].stamp == entry.stamp { return false }
        entries.insert(entry, at: low)
        return true
    }

    mutating func update(_ stamp: ChangeStamp, _ change: (inout Entry) -> Void) {
        if let position = index(of: stamp) { change(&entries[position]) }
    }

    mutating func remove(_ stamps: Set<ChangeStamp>) {
        entries.removeAll { stamps.contains($0.stamp) }
    }

    mutating func updateAll(_ change: (inout Entry) -> Void) {
        for position in entries.indices { change(&entries[position]) }
    }

    var heads: [ChangeStamp] { entries.filter(\.isHead).map(\.stamp) }
}

// MARK: - Encoding

/// The blob of a line (docs/sync-format.md, "History in the store"): a format byte (1), the
/// devices of its stamps (a count, then 16 bytes each), the count of versions, then each
/// version by ascending stamp:
/// - a byte of flags: bit 0 head, bit 1 from a merge, bit 2 content follows (else the item's
///   text), bit 3 restored follows, bits 4–5 bases (0 none, 1 empty, 2 the version before it in
///   the line, 3 listed), bits 6–7 context (0 its first base's, 1 none, 2 text follows);
/// - a byte: bits 0–1 origin (0 edit, 1 restore, 2 conflict), bits 2–3 delta (0 whole, 1
///   against its only base, 2 against a listed stamp), bit 4 (in a store only, never in a
///   baseline) content kept apart, in `history_text`, with bit 2 of the flags set and no
///   content in the line;
/// - its stamp: the clock less the clock of the version before it (the first: the clock),
///   then the device's position among the line's devices;
/// - size and depth;
/// - then, as the flags say: the bases (a count, then stamps of a clock and a device's
///   position), restored, the delta's base, the context (a length, then UTF-8), the content (a
///   length, then bytes).
///
/// Numbers are unsigned LEB128 varints. Decoding refuses anything else: a line is read from a
/// baseline, which is untrusted.
extension HistoryLine {
    static let formatByte: UInt8 = 1

    func encoded() -> Data {
        var devices: [UUID] = []
        var devicePositions: [UUID: Int] = [:]
        func device(_ id: UUID) -> Int {
            if let known = devicePositions[id] { return known }
            devicePositions[id] = devices.count
            devices.append(id)
            return devices.count - 1
        }
        var body: [UInt8] = []
        body.reserveCapacity(entries.count * 24)
        var previous: ChangeStamp?
        for entry in entries {
            var flags: UInt8 = 0
            if entry.isHead { flags |= 1 }
            if entry.fromMerge { flags |= 2 }
            if entry.content != nil { flags |= 4 }
            if entry.restored != nil { flags |= 8 }
            let basesKind: UInt8
            switch entry.bases {
            case nil: basesKind = 0
            case let bases? where bases.isEmpty: basesKind = 1
            case let bases? where previous != nil && !bases.contains(where: { $0 != previous! }): basesKind = 2
            default: basesKind = 3
            }
            flags |= basesKind << 4
            let contextKind: UInt8 = entry.context == nil ? 0 : entry.context!.isEmpty ? 1 : 2
            flags |= contextKind << 6
            let deltaKind: UInt8
            if let deltaOf = entry.deltaOf {
                deltaKind = entry.bases?.count == 1 && entry.bases?.first == deltaOf ? 1 : 2
            } else {
                deltaKind = 0
            }
            if entry.isApart { flags |= 4 }
            body.append(flags)
            body.append(
                UInt8(HistoryEncoding.code(of: entry.origin)) | deltaKind << 2 | (entry.isApart ? 1 << 4 : 0))
            appendVarint(entry.stamp.clock - (previous?.clock ?? 0), to: &body)
            appendVarint(UInt64(device(entry.stamp.device)), to: &body)
            appendVarint(UInt64(entry.size), to: &body)
            appendVarint(UInt64(entry.depth), to: &body)
            func appendStamp(_ stamp: ChangeStamp) {
                appendVarint(stamp.clock, to: &body)
                appendVarint(UInt64(device(stamp.device)), to: &body)
            }
            if basesKind == 3, let bases = entry.bases {
                // Strictly ascending, as the reader requires: bases are a set.
                let listed = Array(Set(bases)).sorted()
                appendVarint(UInt64(listed.count), to: &body)
                for base in listed { appendStamp(base) }
            }
            if let restored = entry.restored { appendStamp(restored) }
            if deltaKind == 2, let deltaOf = entry.deltaOf { appendStamp(deltaOf) }
            if contextKind == 2, let context = entry.context {
                appendVarint(UInt64(context.utf8.count), to: &body)
                body.append(contentsOf: context.utf8)
            }
            if let content = entry.content {
                appendVarint(UInt64(content.count), to: &body)
                body.append(contentsOf: content)
            }
            previous = entry.stamp
        }
        var result = Data(capacity: body.count + 2 + devices.count * 16 + 4)
        result.append(Self.formatByte)
        var header: [UInt8] = []
        appendVarint(UInt64(devices.count), to: &header)
        result.append(contentsOf: header)
        for id in devices { result.append(HistoryEncoding.bytes(of: id)) }
        header.removeAll()
        appendVarint(UInt64(entries.count), to: &header)
        result.append(contentsOf: header)
        result.append(contentsOf: body)
        return result
    }

    /// The line of a blob; nil when the blob is not one. Versions whose content is kept apart
    /// read only `inStore`: a line of a baseline holds every content.
    init?(object: UUID, property: HistoryProperty, decoding blob: Data, inStore: Bool = false) {
        guard let read = blob.withUnsafeBytes({ Self.read($0, keep: true, apart: inStore) }) else { return nil }
        self.object = object
        self.property = property
        self.entries = read.entries
        self.apartWhenRead = Set(read.entries.lazy.filter(\.isApart).map(\.stamp))
    }

    /// How many versions a blob holds and its oldest stamp; nil when it is not a line. It reads
    /// the blob as decoding does, keeping nothing: a joining device checks every line of a
    /// baseline this way.
    static func summary(of bytes: UnsafeRawBufferPointer) -> (count: Int, oldest: ChangeStamp?)? {
        read(bytes, keep: false, apart: false).map { ($0.count, $0.oldest) }
    }

    /// Reads a blob to its end; nil when it is not a line. Its versions are kept only with
    /// `keep`; a content kept apart reads only with `apart`.
    private static func read(_ bytes: UnsafeRawBufferPointer, keep: Bool, apart: Bool) -> (
        entries: [Entry], count: Int, oldest: ChangeStamp?
    )? {
        var reader = Reader(bytes: bytes)
        guard reader.byte() == formatByte, let deviceCount = reader.count(unit: 16) else { return nil }
        // Read where they lie, when a stamp names one.
        let devices = reader.position
        reader.position += deviceCount * 16
        // Each version takes at least six bytes.
        guard let count = reader.count(unit: 6) else { return nil }
        var entries: [Entry] = []
        if keep { entries.reserveCapacity(count) }
        func stamp(clock: UInt64?) -> ChangeStamp? {
            guard let clock, let position = reader.varint(), position < deviceCount else { return nil }
            return ChangeStamp(
                clock: clock,
                device: UUID(uuid: bytes.loadUnaligned(fromByteOffset: devices + Int(position) * 16, as: uuid_t.self)))
        }
        var oldest: ChangeStamp?
        var previous: ChangeStamp?
        for _ in 0..<count {
            guard let flags = reader.byte(), let kind = reader.byte(), kind & (apart ? 0xE0 : 0xF0) == 0,
                let origin = HistoryEncoding.origin(Int(kind & 3)), let offset = reader.varint()
            else { return nil }
            let (clock, overflow) = (previous?.clock ?? 0).addingReportingOverflow(offset)
            guard !overflow, let own = stamp(clock: clock), previous.map({ $0 < own }) ?? true,
                let size = reader.varint(), size <= UInt64(UInt32.max), let depth = reader.varint(),
                depth <= UInt64(VersionStorage.maximumDepth)
            else { return nil }
            var bases: [ChangeStamp]?
            var basesCount = 0
            switch flags >> 4 & 3 {
            case 0: bases = nil
            case 1: bases = []
            case 2:
                guard let previous else { return nil }
                if keep { bases = [previous] }
                basesCount = 1
            default:
                guard let listed = reader.count(unit: 2) else { return nil }
                basesCount = listed
                if keep { bases = [] }
                var last: ChangeStamp?
                for _ in 0..<listed {
                    guard let base = stamp(clock: reader.varint()), last.map({ $0 < base }) ?? true else { return nil }
                    if keep { bases?.append(base) }
                    last = base
                }
            }
            var restored: ChangeStamp?
            if flags & 8 != 0 {
                guard let stamp = stamp(clock: reader.varint()) else { return nil }
                restored = stamp
            }
            var deltaOf: ChangeStamp?
            // A delta is of content: a version without any has the item's text, whole.
            guard kind >> 2 & 3 == 0 || flags & 4 != 0 else { return nil }
            switch kind >> 2 & 3 {
            case 0: deltaOf = nil
            case 1:
                guard flags >> 4 & 3 >= 2, basesCount == 1 else { return nil }
                deltaOf = bases?.first
            case 2:
                guard let stamp = stamp(clock: reader.varint()) else { return nil }
                deltaOf = stamp
            default: return nil
            }
            var context: String?
            switch flags >> 6 {
            case 0: context = nil
            case 1: context = ""
            case 2:
                // Read as UTF-8, a byte that is not read as U+FFFD: a name, never code.
                guard let text = reader.lengthPrefixed(), !text.isEmpty else { return nil }
                if keep { context = String(decoding: text, as: UTF8.self) }
            default: return nil
            }
            var content: Data?
            let isApart = kind & 0x10 != 0
            if isApart {
                guard flags & 4 != 0 else { return nil }
            } else if flags & 4 != 0 {
                guard let bytes = reader.lengthPrefixed() else { return nil }
                if keep { content = Data(bytes) }
            }
            if keep {
                entries.append(
                    Entry(
                        stamp: own, origin: origin, bases: bases, restored: restored, context: context,
                        isHead: flags & 1 != 0,
                        size: Int(size), deltaOf: deltaOf, depth: Int(depth), content: content,
                        fromMerge: flags & 2 != 0, isApart: isApart))
            }
            if oldest == nil { oldest = own }
            previous = own
        }
        return reader.isAtEnd ? (entries, count, oldest) : nil
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var position = 0

        var isAtEnd: Bool { position == bytes.count }

        mutating func byte() -> UInt8? {
            guard position < bytes.count else { return nil }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func varint() -> UInt64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while let byte = byte() {
                guard shift < 64, shift < 63 || byte & 0x7F <= 1 else { return nil }
                value |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
            return nil
        }

        /// A count of items of at least `unit` bytes each, which the bytes left could hold.
        mutating func count(unit: Int) -> Int? {
            guard let value = varint(), value <= UInt64((bytes.count - position) / unit) else { return nil }
            return Int(value)
        }

        /// A length, then that many bytes.
        mutating func lengthPrefixed() -> UnsafeRawBufferPointer.SubSequence? {
            guard let length = varint(), length <= UInt64(bytes.count - position) else { return nil }
            defer { position += Int(length) }
            return bytes[position..<position + Int(length)]
        }
    }
}

private func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
    var value = value
    while value >= 0x80 {
        bytes.append(UInt8(value & 0x7F) | 0x80)
        value >>= 7
    }
    bytes.append(UInt8(value))
}

/// The blob of a line of history, for what reads untrusted ones from outside the store (the
/// fuzz target of the reader).
public enum HistoryLineBlob {
    /// nil when `blob` is not a line; else whether it reads back the same after it is written
    /// again.
    public static func readsBack(_ blob: Data) -> Bool? {
        let object = UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 1))
        guard let line = HistoryLine(object: object, property: .body, decoding: blob) else { return nil }
        return HistoryLine(object: object, property: .body, decoding: line.encoded())?.entries == line.entries
    }
}
