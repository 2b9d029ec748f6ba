/// A place where a note's text points at something else: a Markdown image or link, an image
/// in HTML, or an Obsidian (and zk) wiki link or embed.
public struct MarkdownReference: Equatable, Sendable {
    public enum Kind: String, Sendable {
        /// `![text](destination)`, or `![text][label]` with its definition.
        case image
        /// `[text](destination)`, `[text][label]` or `<https://…>`.
        case link
        /// `<img src="…">` in HTML, inline or as a block.
        case htmlImage
        /// `[[target#fragment|display]]`.
        case wikiLink
        /// `![[target#fragment|display]]`: a file or a note shown in place.
        case wikiEmbed
    }

    public var kind: Kind
    /// What it points at, without its fragment: a path or a URL as written (a Markdown
    /// destination percent-decoded), or a wiki link's note or file name or path.
    public var target: String
    /// What follows the first `#` (a heading, `^block`, `page=2`); nil when there is none.
    public var fragment: String?
    /// What follows the first `|` of a wiki link: the text shown, or an embed's size (`300`,
    /// `300x200`); nil when there is none.
    public var display: String?
    /// A Markdown image's alternative text or a link's text, as plain text ("" for the others).
    public var text: String
    /// Where it is in the text, in UTF-8 bytes.
    public var range: Range<Int>

    public init(
        kind: Kind, target: String, fragment: String? = nil, display: String? = nil, text: String = "",
        range: Range<Int>
    ) {
        self.kind = kind
        self.target = target
        self.fragment = fragment
        self.display = display
        self.text = text
        self.range = range
    }

    /// Whether the target is a place on the web or in another scheme (`https:`, `mailto:`,
    /// `data:`), not a file or a note.
    public var isExternal: Bool {
        guard let colon = target.firstIndex(of: ":") else { return false }
        let scheme = target[..<colon]
        return scheme.count >= 2 && scheme.first!.isLetter
            && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }
    }
}
