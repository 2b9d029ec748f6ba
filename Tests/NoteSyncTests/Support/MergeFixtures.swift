import Foundation
import NoteStore
import NoteSync

/// Changes of the log made by hand, each with the device it comes from, to replay through the
/// merge rules.
enum MergeFixtures {
    /// Three devices, whose ids sort in this order.
    static let a = UUID(uuidString: "aaaaaaaa-0000-4000-8000-000000000000")!
    static let b = UUID(uuidString: "bbbbbbbb-0000-4000-8000-000000000000")!
    static let c = UUID(uuidString: "cccccccc-0000-4000-8000-000000000000")!

    /// A change and the device it comes from.
    struct Step {
        var change: LogChange
        let device: UUID
    }

    /// The insert of an item, with the values the store writes (a note's with its body).
    static func insert(
        _ entity: Entity, _ id: UUID, name: String, parent: UUID? = nil, clock: UInt64, body: String? = nil
    ) -> LogChange {
        var values = OutboxChanges()
        values.set("name", .text(name))
        values.set("parent", parent.map { .text($0.uuidString.lowercased()) } ?? .null)
        values.set("created", .integer(1000))
        values.set("modified", .integer(1000))
        values.set("trashed", .null)
        if entity == .note { values.set("body", .text(body ?? "")) }
        return LogChange(entity: entity, object: id, operation: .insert, clock: clock, values: values)
    }

    /// The update of one value of an item.
    static func update(_ entity: Entity, _ id: UUID, _ name: String, _ value: OutboxValue, clock: UInt64) -> LogChange {
        var values = OutboxChanges()
        values.set(name, value)
        return LogChange(entity: entity, object: id, operation: .update, clock: clock, values: values)
    }
}
