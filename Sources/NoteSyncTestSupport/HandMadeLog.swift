import Foundation
import NoteStore
import NoteSync

/// Valid transaction logs written by hand, as another device (or someone with the folder)
/// could write them, for tests of what import does with what it is given.
public enum HandMadeLog {
    /// The insert of a note at the top level with an empty body.
    public static func noteInsert(named name: String, clock: UInt64, object: UUID = UUID()) -> LogChange {
        var values = OutboxChanges()
        values.set("name", .text(name))
        values.set("parent", .null)
        values.set("created", .integer(Int64(clock >> 16)))
        values.set("modified", .integer(Int64(clock >> 16)))
        values.set("trashed", .null)
        values.set("body", .text(""))
        return LogChange(entity: .note, object: object, operation: .insert, clock: clock, values: values)
    }

    /// The bytes of a log of `changes`, by `device`, in the container `container`.
    public static func encode(
        _ changes: [LogChange], container: UUID, device: UUID, sequence: Int64 = 1,
        modelVersion: Int = Store.currentModelVersion, dependencies: [UUID: Int64] = [:]
    ) -> Data {
        let header = LogHeader(
            modelVersion: modelVersion, container: container, device: device, sequence: sequence,
            changes: changes.count,
            dependencies: dependencies, blobs: [], written: Date())
        return LogCodec.encode(TransactionLog(header: header, changes: changes))
    }
}
