import Foundation

/// A search saved by name.
public struct SavedSearch: Sendable, Equatable {
    public let name: String
    public let query: String

    public init(name: String, query: String) {
        self.name = name
        self.query = query
    }
}

extension Store {
    /// The searches saved by name, in the order they were first saved. They are settings of the
    /// store (``Property/savedSearchPrefix``), so they sync to every device.
    public func savedSearches() throws -> [SavedSearch] {
        try settings().compactMap { setting in
            guard setting.key.hasPrefix(Property.savedSearchPrefix), case let .string(query) = setting.value else {
                return nil
            }
            return SavedSearch(name: String(setting.key.dropFirst(Property.savedSearchPrefix.count)), query: query)
        }
    }

    /// The query saved as `name`, or nil.
    public func savedSearch(_ name: String) throws -> String? {
        try savedSearches().first { $0.name == Property.normalized(name) }?.query
    }

    /// Saves `query` as `name`, in place of a search saved with that name. The query is
    /// checked first: one that does not read is not saved.
    public func saveSearch(_ name: String, query: String) throws {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed == name else {
            throw StoreError.invalidProperty(
                name, reason: "a saved search needs a name without white space at its ends")
        }
        _ = try search(query, limit: 1)
        try setSetting(Property.savedSearchPrefix + name, to: .string(query))
    }

    /// Forgets the search saved as `name`; false when there is none.
    @discardableResult
    public func forgetSearch(_ name: String) throws -> Bool {
        try removeSetting(Property.savedSearchPrefix + name)
    }
}
