import Foundation
import NoteStore

/// Tags merge as a set in which an addition wins over a concurrent removal
/// (docs/sync-format.md, "Tags"): an addition is a dot, its stamp; a removal carries, per
/// device, the greatest clock of the dots it had seen, and removes those dots only. A tag is on
/// an item while a dot no removal had seen is. The result is a function of the set of changes,
/// whatever their order; it does not depend on whether the item is there, so an item a later
/// change brings back has its tags.
struct TagMerge {
    let replica: Replica

    /// Applies a tag change; false when it breaks the rules and is left out (a tag that is not
    /// one, a removal without what it had seen, an update).
    func apply(_ change: LogChange, from device: UUID) throws -> Bool {
        guard case let .text(tag)? = change.values["name"], Tag.problem(tag) == nil else { return false }
        switch change.operation {
        case .insert:
            let dot = change.stamp(of: "*", device: device)
            if try !replica.isTagRemoved(dot, item: change.object, tag: tag) {
                try replica.insertTagDot(dot, item: change.object, tag: tag)
            }
            return true
        case .delete:
            guard let seen = change.history?.seen, !seen.isEmpty else { return false }
            try replica.removeTag(tag, from: change.object, seen: seen)
            return true
        case .update:
            return false
        }
    }
}
