/// The result of a three-way merge: the merged text and how many regions conflicted.
public struct MergeResult: Equatable, Sendable {
    public var text: String
    /// Regions changed differently on both sides; each took the newer side's lines.
    public var conflicts: Int

    public init(text: String, conflicts: Int) {
        self.text = text
        self.conflicts = conflicts
    }
}
