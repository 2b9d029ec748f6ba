import ArgumentParser
import Foundation
import NoteStore
import NoteTerminal

/// `--exact`, for the commands that take an ITEM or a COLLECTION: how a reference is read, and
/// what follows when it names no item or several.
///
/// A reference names what it names as written (an id, an id prefix, a path); failing that, the
/// one item whose path or name it is ignoring case and accents. When it names none or several,
/// the error lists the closest items; on a terminal (standard input and output both), the
/// picker opens on them instead. `--exact` keeps to what is written and never opens a picker,
/// for scripts; with `--json`, the error is printed as JSON too, and no picker opens.
struct ReferenceOptions: ParsableArguments {
    @Flag(
        help: """
            Read ITEM and COLLECTION as written (an id, an id prefix or a path): \
            no match ignoring case or accents, no picker.
            """
    )
    var exact = false

    /// The item `reference` names, in `scope`; `kind`, when given, is the kind offered in the
    /// picker. With `json`, a reference that names no item or several prints a JSON object
    /// with the candidates before it fails.
    func item(
        _ reference: String, in store: Store, scope: ReferenceScope = .live, kind: ItemKind? = nil, json: Bool = false,
        prompt: String = "item> "
    ) throws -> Item {
        do {
            return try store.resolve(reference, scope: scope, matching: exact ? .exact : .forgiving)
        } catch let error as StoreError {
            let candidates: [ReferenceCandidate]
            switch error {
            case let .unknownReference(_, _, found), let .ambiguousReference(_, found): candidates = found
            default: throw error
            }
            if json {
                try JSONOutput.print(ReferenceFailureJSON(error, reference: reference, candidates: candidates))
                throw error
            }
            let offered = candidates.filter { kind == nil || $0.kind == kind }
            guard !exact, !offered.isEmpty, isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw error }
            let lines = offered.map { PickerCandidate(id: $0.id, line: $0.path + ($0.kind == .collection ? "/" : "")) }
            guard let chosen = try Picker.choose(from: lines, query: "", prompt: prompt) else { throw error }
            return try store.item(chosen.id)
        }
    }

    /// The id of the collection `reference` names, or a usage error when it names a note.
    func collection(_ reference: String, in store: Store, scope: ReferenceScope = .live, json: Bool = false) throws
        -> UUID
    {
        let item = try item(reference, in: store, scope: scope, kind: .collection, json: json, prompt: "collection> ")
        guard item.isCollection else {
            throw InputError.usage("'\(reference)' is a note, not a collection")
        }
        return item.id
    }
}

/// A reference that names no item or several, as `--json` prints it: what went wrong, the
/// reference, and the candidates.
struct ReferenceFailureJSON: Encodable {
    struct Candidate: Encodable {
        let id: String
        let path: String
        let kind: String
        let trashed: Bool
    }

    /// `unknown` or `ambiguous`.
    let error: String
    let message: String
    let reference: String
    let candidates: [Candidate]

    init(_ failure: StoreError, reference: String, candidates: [ReferenceCandidate]) {
        if case .ambiguousReference = failure { error = "ambiguous" } else { error = "unknown" }
        message = failure.description
        self.reference = reference
        self.candidates = candidates.map {
            Candidate(id: $0.id.storeString, path: $0.path, kind: $0.kind.rawValue, trashed: $0.isTrashed)
        }
    }
}
