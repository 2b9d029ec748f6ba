import Crypto
import Foundation
import NoteStore

/// The note that keeps a losing version of a body: its id, derived from the note and the
/// version so that every device makes the same one, and its name, which says what it is
/// (docs/sync-format.md, "Conflicts and conflict copies").
enum ConflictCopy {
    /// The copy's id: a UUID (version 4 layout) made of the SHA-256 of the note's id and the
    /// losing version's stamp.
    static func id(note: UUID, version: ChangeStamp) -> UUID {
        var bytes = Array(SHA256.hash(data: Data("conflict copy \(note.storeString) \(version.text)".utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    /// `Soup (conflict, laptop, 2026-11-22 21:39 UTC)`: the note's name when the version was
    /// saved, the device that saved it and when, shortened to fit the name rule.
    static func name(of version: Version) -> String {
        labelled(
            version.context?.name, "conflict", device: version.context?.device, id: version.stamp.device,
            time: version.time)
    }

    /// `<base> (<label>, <device>, YYYY-MM-DD HH:MM UTC)`, shortened to fit the name rule: the
    /// first 8 characters of `id` when there is no device name, `Note` when there is no base.
    static func labelled(_ base: String?, _ label: String, device: String?, id: UUID, time: Date) -> String {
        let device = clean(device ?? "") ?? String(id.storeString.prefix(8))
        let suffix = " (\(label), \(device.prefix(100)), \(timeText(time)) UTC)"
        let base = clean(base ?? "") ?? "Note"
        let room = max(1, Item.maximumNameLength - suffix.count)
        let candidate = Item.normalizedName(String(base.prefix(room)) + suffix)
        return candidate.count <= Item.maximumNameLength ? candidate : String(candidate.prefix(Item.maximumNameLength))
    }

    /// Text from a log without the characters a name refuses, on one line; nil when nothing
    /// is left.
    private static func clean(_ text: String) -> String? {
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: text.unicodeScalars.filter { !ControlCharacters.contains($0) })
        let result = Item.normalizedName(String(scalars))
        return result.isEmpty ? nil : result
    }

    private static func timeText(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute))"
    }
}
