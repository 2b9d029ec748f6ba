import Foundation
import NoteStore

/// Properties merge per key (docs/sync-format.md, "Properties"): each value set is a dot, its
/// stamp, and carries, per device, the greatest clock of the dots of the key it replaced; a
/// removal carries the same and adds no dot. A dot that a change had seen is gone; a key's
/// value is that of its latest remaining dot. So the later of two concurrent values wins, a
/// removal takes away only what it had seen, and the result is a function of the set of
/// changes, whatever their order, whether or not the item is there.
struct PropertyMerge {
    let replica: Replica

    /// Applies a property change; false when it breaks the rules and is left out (a key or a
    /// value that is not one, a removal without what it had seen, an update).
    func apply(_ change: LogChange, from device: UUID) throws -> Bool {
        guard case let .text(key)? = change.values["key"], Property.problem(key) == nil,
            key == Property.normalized(key)
        else { return false }
        let seen = change.history?.seen ?? [:]
        switch change.operation {
        case .insert:
            guard case let .text(json)? = change.values["value"], let value = PropertyValue(json: json),
                value.problem == nil,
                case let .integer(position)? = change.values["position"]
            else { return false }
            if !seen.isEmpty { try replica.coverProperty(key, of: change.object, seen: seen) }
            let dot = change.stamp(of: "*", device: device)
            if try !replica.isPropertyCovered(dot, item: change.object, key: key) {
                try replica.insertPropertyDot(dot, item: change.object, key: key, json: value.json, position: position)
            }
            return true
        case .delete:
            guard !seen.isEmpty else { return false }
            try replica.coverProperty(key, of: change.object, seen: seen)
            return true
        case .update:
            return false
        }
    }
}
