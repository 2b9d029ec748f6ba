import ArgumentParser
import Foundation
import NoteStore

/// Shell completion of item references: the paths of the items in the store named on the
/// command line (`--store`), else by `NOTES_STORE` or the default, read-only. A store that
/// does not exist is never made by completing. The word typed so far may be quoted or
/// escaped as a shell reads it (``CompletionQuoting``).
enum ItemCompletion {
    /// Every item outside the trash.
    static let items = CompletionKind.custom { words, _, prefix in paths(words: words, prefix: prefix, kind: nil) }
    /// Collections only, for `--in` and `--to`.
    static let collections = CompletionKind.custom { words, _, prefix in
        paths(words: words, prefix: prefix, kind: .collection)
    }

    static func paths(words: [String], prefix: String, kind: ItemKind?) -> [String] {
        var option: String?
        for (index, word) in words.enumerated() {
            if word == "--store", index + 1 < words.count { option = words[index + 1] }
            if word.hasPrefix("--store=") { option = String(word.dropFirst("--store=".count)) }
        }
        let folder = StoreOptions.folder(option: option)
        guard FileManager.default.fileExists(atPath: folder.appendingPathComponent(Store.databaseFileName).path),
            let store = try? Store(folder: folder, access: .readOnly),
            let index = try? store.collectionIndex(),
            let items = try? store.fetch(ItemRequest(kind: kind, includesBodies: false))
        else { return [] }
        return CompletionQuoting(typed: prefix).candidates(items.map { index.path(of: $0) }.sorted())
    }
}
