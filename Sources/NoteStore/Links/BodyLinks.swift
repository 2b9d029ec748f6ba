import NoteMarkdown
import NoteText

/// The links of a note's body found before the note is saved: an import finds them on the
/// thread that reads its files, as it looks for the files a note attaches. The save writes
/// them to the link index instead of reading the body again, when the body it saves is the
/// one they were found in.
public struct BodyLinks: Sendable {
    private let body: String
    private let links: [LinkIndex.Link]

    /// The links of `body`, from `references`: what `MarkdownScanner.references(in: body)`
    /// gives.
    public init(body: String, references: [MarkdownReference]) {
        self.body = body
        links = LinkIndex.links(of: body, references: references)
    }

    /// The links of `body`.
    public init(body: String) {
        self.init(body: body, references: MarkdownScanner.references(in: body))
    }

    /// The links of `body` when it is the body these were found in, byte for byte (positions
    /// are offsets in its UTF-8: a text equal under Unicode's equivalence is not enough); else
    /// nil.
    func links(of body: String) -> [LinkIndex.Link]? {
        body.hasSameBytes(as: self.body) ? links : nil
    }
}
