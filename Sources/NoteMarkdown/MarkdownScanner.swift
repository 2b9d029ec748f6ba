import CCmarkGFM
import Foundation

/// Finds the references of a Markdown text (``MarkdownReference``) with the CommonMark parser
/// of GitHub (cmark-gfm), so that what is inside a code span, a fenced or indented code block
/// or an HTML comment is never taken for one.
///
/// Images and links are the parser's own (with reference definitions resolved, destinations
/// percent-decoded). Wiki links are not CommonMark: they are read from the source of each
/// paragraph and heading, outside its code spans and inline HTML, before emphasis could take
/// their underscores (`[[_draft_ notes]]`). `<img src>` is read from the parser's HTML nodes.
public enum MarkdownScanner {
    /// Whether a text in UTF-8 may hold a reference: every reference has a `[` (links, images,
    /// wiki links, reference definitions) or a `<` (autolinks, HTML). A text with neither has
    /// none.
    public static func mayHoldReferences(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = utf8.baseAddress else { return false }
        return memchr(base, Int32(UInt8(ascii: "[")), utf8.count) != nil
            || memchr(base, Int32(UInt8(ascii: "<")), utf8.count) != nil
    }

    /// Every reference in `text`, in the order of the text.
    public static func references(in text: String) -> [MarkdownReference] {
        // A text without references, as many long notes are, is not parsed.
        var text = text
        guard text.withUTF8(mayHoldReferences) else { return [] }
        text.makeContiguousUTF8()
        return text.utf8.withContiguousStorageIfAvailable { bytes in
            guard let base = bytes.baseAddress, bytes.count > 0 else { return [] }
            guard
                let document = base.withMemoryRebound(
                    to: CChar.self, capacity: bytes.count,
                    {
                        cmark_parse_document($0, bytes.count, CMARK_OPT_SOURCEPOS)
                    })
            else { return [] }
            defer { cmark_node_free(document) }
            var walk = Walk(bytes: bytes)
            walk.run(document)
            return walk.found.sorted { $0.range.lowerBound < $1.range.lowerBound }
        } ?? []
    }

    /// The inline tags of `text`, in order, each once, without its `#`: `#tag`, `#nested/tag`,
    /// as Obsidian and zk read them: after the start of a line or a space (or an opening
    /// bracket), of letters, digits, `_`, `-` and `/`, with at least one that is not a digit;
    /// never in code, in a heading's markers, in a link's destination or within a word
    /// (`C#`, `issue#12`).
    public static func tags(in text: String) -> [String] {
        // Most notes have no `#` at all: they are not parsed.
        guard text.utf8.contains(UInt8(ascii: "#")) else { return [] }
        var text = text
        text.makeContiguousUTF8()
        guard let document = text.withCString({ cmark_parse_document($0, strlen($0), 0) }) else { return [] }
        defer { cmark_node_free(document) }
        guard let iterator = cmark_iter_new(document) else { return [] }
        defer { cmark_iter_free(iterator) }
        var found: [String] = []
        var seen: Set<String> = []
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator),
                cmark_node_get_type(node) == CMARK_NODE_TEXT,
                let literal = cmark_node_get_literal(node)
            else { continue }
            for tag in Hashtags.find(in: String(cString: literal)) where seen.insert(tag).inserted { found.append(tag) }
        }
        return found
    }

    /// One walk of a parsed document.
    private struct Walk {
        let bytes: UnsafeBufferPointer<UInt8>
        /// The offset at which each line starts (index 0: line 1).
        let lineStarts: [Int]
        var found: [MarkdownReference] = []

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            var starts = [0]
            for index in bytes.indices where bytes[index] == 0x0A { starts.append(index + 1) }
            lineStarts = starts
        }

        mutating func run(_ document: OpaquePointer) {
            guard let iterator = cmark_iter_new(document) else { return }
            defer { cmark_iter_free(iterator) }
            // An image's description is its alternative text: the images and links written in
            // it are not shown, and not references (CommonMark, "Images").
            var imagesEntered = 0
            while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
                guard let node = cmark_iter_get_node(iterator) else { continue }
                let type = cmark_node_get_type(node)
                if event == CMARK_EVENT_EXIT, type == CMARK_NODE_IMAGE { imagesEntered -= 1 }
                guard event == CMARK_EVENT_ENTER else { continue }
                if imagesEntered > 0,
                    type == CMARK_NODE_IMAGE || type == CMARK_NODE_LINK || type == CMARK_NODE_HTML_INLINE
                {
                    if type == CMARK_NODE_IMAGE { imagesEntered += 1 }
                    continue
                }
                switch type {
                case CMARK_NODE_IMAGE:
                    found.append(destination(node, kind: .image))
                    imagesEntered += 1
                case CMARK_NODE_LINK: found.append(destination(node, kind: .link))
                case CMARK_NODE_HTML_INLINE, CMARK_NODE_HTML_BLOCK:
                    let literal = cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
                    for source in HTMLImages.sources(in: literal) {
                        found.append(MarkdownReference(kind: .htmlImage, target: source, range: range(of: node)))
                    }
                case CMARK_NODE_PARAGRAPH, CMARK_NODE_HEADING:
                    findWikiLinks(in: node)
                default:
                    break
                }
            }
        }

        /// An image or a link: its destination split at `#`, and its text.
        private func destination(_ node: OpaquePointer, kind: MarkdownReference.Kind) -> MarkdownReference {
            let url = cmark_node_get_url(node).map { String(cString: $0) } ?? ""
            var target = Substring(url)
            var fragment: String?
            if let hash = url.firstIndex(of: "#") {
                target = url[..<hash]
                fragment = String(url[url.index(after: hash)...])
            }
            let decoded = target.removingPercentEncoding ?? String(target)
            return MarkdownReference(
                kind: kind, target: decoded, fragment: fragment, text: plainText(of: node), range: range(of: node))
        }

        /// The text of a node's inline children, without their markup.
        private func plainText(of node: OpaquePointer) -> String {
            var text = ""
            var child = cmark_node_first_child(node)
            while let current = child {
                switch cmark_node_get_type(current) {
                case CMARK_NODE_TEXT, CMARK_NODE_CODE:
                    text += cmark_node_get_literal(current).map { String(cString: $0) } ?? ""
                case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK:
                    text += " "
                default:
                    text += plainText(of: current)
                }
                child = cmark_node_next(current)
            }
            return text
        }

        /// Where a node is, in bytes of the text, from the parser's source positions.
        private func range(of node: OpaquePointer) -> Range<Int> {
            let start = offset(line: cmark_node_get_start_line(node), column: cmark_node_get_start_column(node))
            let end = offset(line: cmark_node_get_end_line(node), column: cmark_node_get_end_column(node)) + 1
            return start..<max(start, min(end, bytes.count))
        }

        private func offset(line: Int32, column: Int32) -> Int {
            guard line >= 1, Int(line) <= lineStarts.count else { return bytes.count }
            return min(bytes.count, lineStarts[Int(line) - 1] + max(0, Int(column) - 1))
        }

        /// The wiki links of a paragraph or a heading, read from its source outside its code
        /// spans and inline HTML.
        private mutating func findWikiLinks(in block: OpaquePointer) {
            let span = range(of: block)
            guard span.count >= 4 else { return }
            var skipped: [Range<Int>] = []
            collectSkipped(block, into: &skipped)
            found += WikiLinks.find(in: bytes, span, skipping: skipped)
        }

        private func collectSkipped(_ node: OpaquePointer, into skipped: inout [Range<Int>]) {
            var child = cmark_node_first_child(node)
            while let current = child {
                switch cmark_node_get_type(current) {
                case CMARK_NODE_CODE, CMARK_NODE_HTML_INLINE: skipped.append(range(of: current))
                default: collectSkipped(current, into: &skipped)
                }
                child = cmark_node_next(current)
            }
        }
    }
}
