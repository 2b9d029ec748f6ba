/// One change between two lists of lines: the old lines in `old` become the new lines in `new`.
public struct LineHunk: Equatable, Sendable {
    public var old: Range<Int>
    public var new: Range<Int>

    public init(old: Range<Int>, new: Range<Int>) {
        self.old = old
        self.new = new
    }
}
