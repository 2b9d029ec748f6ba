import ArgumentParser
import Foundation
import NoteStore
import NoteTerminal

/// `-i`, and an item that may be left out: then, on a terminal, a picker chooses it; and
/// `--exact` (``ReferenceOptions``) for an item given.
struct PickOptions: ParsableArguments {
    @Flag(
        name: [.customShort("i"), .customLong("interactive")],
        help: "Choose the item in a picker (fzf when installed), the item given being its query.")
    var interactive = false

    @OptionGroup var references: ReferenceOptions

    /// The item `reference` names; without one, or with `-i`, the one chosen in the picker,
    /// offered among the items of `scope` (`kind` only, when given).
    func item(
        _ reference: String?, in store: Store, scope: ReferenceScope = .live, kind: ItemKind? = nil, json: Bool = false,
        prompt: String
    ) throws -> Item {
        try ItemPicker.item(
            reference, picking: interactive, in: store, scope: scope, kind: kind, references: references, json: json,
            prompt: prompt)
    }
}

/// The items of a store offered in the picker: each by its path, with its tags.
enum ItemPicker {
    /// The item `reference` names; without one, or when `picking`, the one chosen in the
    /// picker (`reference` being its query). Without a terminal to pick on, a usage error.
    static func item(
        _ reference: String?, picking: Bool, in store: Store, scope: ReferenceScope, kind: ItemKind?,
        references: ReferenceOptions, json: Bool = false, prompt: String
    ) throws -> Item {
        if let reference, !picking {
            return try references.item(reference, in: store, scope: scope, kind: kind, json: json, prompt: prompt)
        }
        guard isatty(STDIN_FILENO) == 1 else {
            throw ValidationError("give the item (a path or an id): a picker needs a terminal")
        }
        guard let chosen = try choose(in: store, scope: scope, kind: kind, query: reference ?? "", prompt: prompt)
        else {
            throw ExitCode(1)
        }
        return chosen
    }

    static func choose(in store: Store, scope: ReferenceScope, kind: ItemKind?, query: String, prompt: String) throws
        -> Item?
    {
        let trash: ItemRequest.Trash =
            switch scope {
            case .live: .excluded
            case .trashed: .only
            case .any: .included
            }
        let items = try store.fetch(ItemRequest(kind: kind, trash: trash, includesBodies: false))
        let index = try store.collectionIndex()
        let tags = try store.tags(ofItems: items.map(\.id))
        let candidates = items.map { item in
            let path = index.path(of: item) + (item.isCollection ? "/" : "")
            let labels = (tags[item.id] ?? []).map { "  #" + $0 }.joined()
            return PickerCandidate(id: item.id, line: path + labels)
        }.sorted { $0.line < $1.line }
        guard let chosen = try Picker.choose(from: candidates, query: query, prompt: prompt) else { return nil }
        // Offered without their bodies, which a listing does not need: the chosen one whole.
        return try store.item(chosen.id)
    }
}
