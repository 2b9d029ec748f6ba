import Foundation
import NoteStore

/// A store's worth of notes, laid out as a person's might be: collections nested up to three
/// deep, almost every note inside one, a few loose at the top level, bodies of word-filled
/// text, and one word (``TextGenerator/markedWord``) in about 1% of the notes.
///
/// The same seed and sizes always give the same library.
struct NoteLibrary {
    struct Collection {
        let name: String
        /// The index of the collection holding it, or nil at the top level.
        let parent: Int?
    }

    struct Note {
        let name: String
        var body: String
        /// The index of its collection, or nil at the top level.
        let collection: Int?
    }

    /// The share of notes left at the top level.
    static let looseShare = 0.01
    /// The share of notes whose body holds the marked word.
    static let markedShare = 0.01

    let collections: [Collection]
    var notes: [Note]

    init(notes count: Int, collections collectionCount: Int, seed: UInt64 = 20_240_601) {
        var text = TextGenerator(seed: seed)
        collections = Self.makeCollections(collectionCount, text: &text)
        notes = (0..<count).map { _ in
            let loose = Double.random(in: 0..<1, using: &text.random) < Self.looseShare
            let marked = Double.random(in: 0..<1, using: &text.random) < Self.markedShare
            return Note(
                name: text.title(words: 2...5),
                body: text.body(words: 20...180, marked: marked),
                collection: loose || collectionCount == 0
                    ? nil : Int.random(in: 0..<collectionCount, using: &text.random))
        }
    }

    /// A fifth of the collections at the top level, three fifths inside those, the rest one
    /// level deeper; names unique among their siblings, as paths need.
    private static func makeCollections(_ count: Int, text: inout TextGenerator) -> [Collection] {
        let topLevel = max(1, count / 5)
        let secondLevelEnd = topLevel + count * 3 / 5
        var result: [Collection] = []
        var taken: Set<String> = []
        for index in 0..<count {
            let parent: Int?
            if index < topLevel {
                parent = nil
            } else if index < secondLevelEnd {
                parent = Int.random(in: 0..<topLevel, using: &text.random)
            } else {
                parent = Int.random(in: topLevel..<secondLevelEnd, using: &text.random)
            }
            var name = text.title(words: 1...2)
            while !taken.insert("\(parent ?? -1)/\(name)").inserted {
                name = text.title(words: 1...2)
            }
            result.append(Collection(name: name, parent: parent))
        }
        return result
    }

    /// The path of names that `notes` accepts for a collection, such as `Kalo/Mirendar`.
    func path(ofCollection index: Int) -> String {
        var names: [String] = []
        var next: Int? = index
        while let current = next {
            names.append(ItemPath.escape(collections[current].name))
            next = collections[current].parent
        }
        return names.reversed().joined(separator: "/")
    }

    /// How many notes each collection holds directly, by index.
    var noteCounts: [Int] {
        var counts = Array(repeating: 0, count: collections.count)
        for note in notes { if let index = note.collection { counts[index] += 1 } }
        return counts
    }

    /// How many items a collection holds directly: notes and collections.
    func itemCount(inCollection index: Int) -> Int {
        noteCounts[index] + collections.filter { $0.parent == index }.count
    }

    /// How many items the top level holds: collections and loose notes.
    var topLevelCount: Int {
        collections.filter { $0.parent == nil }.count + notes.filter { $0.collection == nil }.count
    }

    /// How many notes hold the marked word.
    var markedCount: Int {
        // At the start of a sentence it is written with a capital, and search folds case.
        notes.filter { $0.body.range(of: TextGenerator.markedWord, options: .caseInsensitive) != nil }.count
    }

    /// Saves the collections in one save; returns their ids by index.
    func saveCollections(to store: Store) throws -> [UUID] {
        let context = store.makeContext()
        var ids: [UUID] = []
        for collection in collections {
            ids.append(context.insertCollection(named: collection.name, in: collection.parent.map { ids[$0] }).id)
        }
        try context.save()
        return ids
    }

    /// Inserts every note in one context and saves them in one save.
    @discardableResult
    func saveNotes(to store: Store, collectionIDs: [UUID]) throws -> SaveSummary? {
        try saveNotes(notes[...], to: store, collectionIDs: collectionIDs)
    }

    /// Inserts the notes `batch` at a time, a save each: the store's bulk path for more notes
    /// than one save should hold in memory.
    func saveNotes(to store: Store, collectionIDs: [UUID], batch: Int) throws {
        for start in stride(from: 0, to: notes.count, by: batch) {
            try saveNotes(notes[start..<min(notes.count, start + batch)], to: store, collectionIDs: collectionIDs)
        }
    }

    @discardableResult
    private func saveNotes(_ notes: ArraySlice<Note>, to store: Store, collectionIDs: [UUID]) throws -> SaveSummary? {
        let context = store.makeContext()
        for note in notes {
            context.insertNote(named: note.name, body: note.body, in: note.collection.map { collectionIDs[$0] })
        }
        return try context.save()
    }

    /// Saves the collections, then every note in one save; returns the notes as saved.
    func saveAll(to store: Store) throws -> [Item] {
        let ids = try saveCollections(to: store)
        let context = store.makeContext()
        let saved = notes.map { context.insertNote(named: $0.name, body: $0.body, in: $0.collection.map { ids[$0] }) }
        try context.save()
        return saved
    }

    /// Gives every one of `notes` a new body of 20 to 180 words, in one save.
    @discardableResult
    static func rewriteBodies(of notes: [Item], in store: Store, seed: UInt64 = 92) throws -> SaveSummary? {
        var text = TextGenerator(seed: seed)
        let context = store.makeContext()
        for var note in notes {
            note.body = text.body(words: 20...180, marked: false)
            try context.update(note)
        }
        return try context.save()
    }
}
