import Foundation
import NoteStore

/// A store's content as text that two devices can compare: every item and attachment, sorted
/// by id, with every property that syncs (the shown parent included), every version of its
/// name and body (stamp, bases, whether a head, and a hash of its text), its tags, and no local
/// detail.
public enum CanonicalDump {
    /// `including` picks the versions to list (all by default).
    public static func of(_ store: Store, including: (UUID, Version) -> Bool = { _, _ in true }) throws -> String {
        let items = try store.fetch(ItemRequest(trash: .included)).sorted { $0.id.uuidString < $1.id.uuidString }
        var lines: [String] = []
        for item in items {
            let parent = item.parent?.uuidString.lowercased() ?? "nil"
            let trashed = item.trashed.map { String(Int64(($0.timeIntervalSince1970 * 1000).rounded())) } ?? "nil"
            lines.append(
                "\(item.id.uuidString.lowercased()) \(item.kind.rawValue) \(item.name) "
                    + "parent=\(parent) trashed=\(trashed) created=\(Int64(item.created.timeIntervalSince1970 * 1000)) "
                    + "modified=\(Int64(item.modified.timeIntervalSince1970 * 1000)) "
                    + "body=\(item.body.map { $0.debugDescription } ?? "nil")")
            for version in try store.history(of: item.id).filter({ including(item.id, $0) }).sorted(by: {
                ($0.property.rawValue, $0.stamp) < ($1.property.rawValue, $1.stamp)
            }) {
                let text = try store.text(of: item.id, version.property, at: version.stamp) ?? ""
                let bases = version.bases.map { $0.map(\.text).sorted().joined(separator: ",") } ?? "legacy"
                lines.append(
                    "  version \(version.property.rawValue) \(version.stamp.text) \(version.origin.rawValue) "
                        + "bases=\(bases)\(version.fromMerge ? " from-merge" : "") head=\(version.isHead) "
                        + "text=\(text.hashValue == 0 ? 0 : text.utf8.count):\(text.debugDescription.prefix(80))"
                )
            }
            let tags = try store.tags(of: item.id)
            if !tags.isEmpty { lines.append("  tags " + tags.joined(separator: ",")) }
            for property in try store.properties(of: item.id) {
                lines.append("  property \(property.position) \(property.key) \(property.value.json)")
            }
            if item.isNote {
                for attachment in try store.attachments(of: item.id) {
                    lines.append(
                        "  attachment \(attachment.id.uuidString.lowercased()) \(attachment.sha256) "
                            + "\(attachment.format?.rawValue ?? attachment.mediaType) \(attachment.fileName ?? "-") "
                            + "\(attachment.width.map(String.init) ?? "-")x"
                            + "\(attachment.height.map(String.init) ?? "-") "
                            + "\(attachment.bytes) caption=\(attachment.caption ?? "nil")")
                }
            }
        }
        return lines.joined(separator: "\n")
    }
}
