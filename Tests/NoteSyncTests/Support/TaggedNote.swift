import Foundation
import NoteStore
import NoteSync

/// The note whose tags and properties the sync tests change, as changes replayed after its
/// creation.
enum TaggedNote {
    static let id = UUID(uuidString: "22222222-0000-4000-8000-000000000000")!
    /// The note, created on A at clock 1, as format 1.
    static let creation = MergeFixtures.Step(
        change: MergeFixtures.insert(.note, id, name: "Soup", clock: 1, body: "leeks\n"), device: MergeFixtures.a)
}
