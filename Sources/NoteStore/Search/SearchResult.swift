import Foundation

/// One item found by a full-text search, with a snippet of the matching text.
public struct SearchResult: Sendable, Equatable {
    public let item: Item
    /// A short excerpt on one line, with each match between the caller's markers.
    public let snippet: String
    /// The bm25 rank: lower is better.
    public let rank: Double
}
