import Foundation
import NoteStore
import NoteSync

/// The note whose body the history tests edit, as changes of sync format 2.
enum HistoryNote {
    typealias Step = MergeFixtures.Step
    static let id = UUID(uuidString: "11111111-0000-4000-8000-000000000000")!
    /// The body the note is created with.
    static let base = "one\ntwo\nthree\nfour\nfive\n"

    /// The note, created on A at clock 1 with `base`, as format 2.
    static var creation: Step {
        var change = MergeFixtures.insert(.note, id, name: "Soup", clock: 1, body: base)
        change.history = ChangeHistory(
            bases: [.name: [], .body: []], context: VersionContext(name: "Soup", parent: nil, device: "laptop"))
        return Step(change: change, device: MergeFixtures.a)
    }

    /// A body edit on `device` at `clock`, edited from `bases`.
    static func edit(
        _ body: String, clock: UInt64, on device: UUID, from bases: [ChangeStamp], name: String = "desktop"
    ) -> Step {
        var change = MergeFixtures.update(.note, id, "body", .text(body), clock: clock)
        change.history = ChangeHistory(
            bases: [.body: bases], context: VersionContext(name: "Soup", parent: nil, device: name))
        return Step(change: change, device: device)
    }
}
