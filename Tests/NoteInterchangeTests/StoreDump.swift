import Foundation
import NoteStore

/// The sample images of the repository (`Samples/images`), which the suites attach.
let sampleImages = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../Samples/images").standardizedFileURL

/// Every item of a store, as comparable text: kind, id, name, parent, dates, body, and the
/// attachments' bytes and captions, and the tags. With `collectionsByPath`, a collection
/// is its path, without its id and dates, as a Markdown export keeps a collection that
/// needs no `.collection.md`.
func storeDump(_ store: Store, collectionsByPath: Bool = false) throws -> [String] {
    let items = try store.fetch(ItemRequest(sort: .created))
    let paths = Dictionary(
        uniqueKeysWithValues: try items.filter { !$0.isNote }.map { ($0.id, try store.path(of: $0)) })
    return try items.map { item in
        let attachments = try store.attachments(of: item.id).map { "\($0.sha256) \($0.caption ?? "-")" }.sorted()
        let parent = item.parent.map { collectionsByPath ? paths[$0] ?? "?" : $0.uuidString } ?? "top"
        let identity =
            collectionsByPath && !item.isNote
            ? "\(paths[item.id] ?? "?")" : "\(item.id) \(item.created.timeIntervalSince1970)"
        let modified = collectionsByPath && !item.isNote ? "-" : "\(item.modified.timeIntervalSince1970)"
        return "\(item.kind) \(identity) \(item.name) \(parent) "
            + "\(modified) \(item.body ?? "-") \(attachments) "
            + "tags=\(try store.tags(of: item.id)) "
            + "properties=\(try store.properties(of: item.id).map { "\($0.key)=\($0.value.json)" })"
    }.sorted()
}
