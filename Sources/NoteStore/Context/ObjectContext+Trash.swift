import Foundation

extension ObjectContext {
    /// Moves an item to the trash; a collection goes together with its contents.
    ///
    /// Contents already in the trash keep the date they were trashed, so that restoring the
    /// collection later brings back only what went with it.
    public func trash(_ id: UUID) throws {
        let item = try object(with: id)
        guard !item.isTrashed else {
            throw StoreError.invalidOperation(item: item.label, reason: "it is already in the trash")
        }
        let members = try subtree(of: item)
        // The date tells what went to the trash together: keep it apart from earlier ones.
        let latest = members.compactMap(\.trashed).max().map { $0.addingTimeInterval(0.001) }
        let date = max(store.wallClock.storeNow(), latest ?? .distantPast)
        for member in members where !member.isTrashed {
            try setTrashed(date, on: member.id)
        }
    }

    /// Takes an item out of the trash, with the contents that were trashed together with it.
    ///
    /// Collections above it that are in the trash are restored too (without their other
    /// contents), so that a restored item is never hidden inside a trashed collection.
    public func restore(_ id: UUID) throws {
        let item = try object(with: id)
        guard let date = item.trashed else {
            throw StoreError.invalidOperation(item: item.label, reason: "it is not in the trash")
        }
        for member in try subtree(of: item) where member.trashed == date {
            try setTrashed(nil, on: member.id)
        }
        for ancestor in try ancestors(of: item) where try object(with: ancestor).isTrashed {
            try setTrashed(nil, on: ancestor)
        }
    }

    /// Deletes an item from the trash for good; a collection's contents go with it.
    ///
    /// Validation before delete: only an item in the trash can be purged.
    public func purge(_ id: UUID) throws {
        let item = try object(with: id)
        guard item.isTrashed else {
            throw StoreError.validation([
                ValidationFailure(
                    item: item.name, id: id, rule: .purgeNotTrashed,
                    message: "only an item in the trash can be purged")
            ])
        }
        for member in try subtree(of: item, trashedOnly: true) {
            if registry[member.id]?.original == nil, registry[member.id] != nil {
                insertionOrder.removeAll { $0 == member.id }
            } else {
                deleted[member.id] = member
            }
            registry[member.id] = nil
        }
        purgeRoots.append(id)
    }

    /// The item and everything below it, as this context sees them; with `trashedOnly`, only
    /// what is in the trash (a live item inside a trashed collection, moved there by another
    /// device meanwhile, is not part of it, nor is what it holds).
    func subtree(of item: Item, trashedOnly: Bool = false) throws -> [Item] {
        var result = [item]
        var index = 0
        var seen: Set<UUID> = [item.id]
        while index < result.count {
            let current = result[index]
            index += 1
            guard current.isCollection else { continue }
            for child in try children(of: current.id) where seen.insert(child.id).inserted {
                if trashedOnly && !child.isTrashed { continue }
                result.append(child)
            }
        }
        return result
    }
}
