import Foundation
import NoteMarkdown

/// Rewrites, in a body, the links that reach a note that is renamed or moved, so that their
/// text stays true (docs/links.md, "Renames and moves").
///
/// Only what names the note changes: in a wiki link or an embed, the target before its `#`
/// and `|` (a name becomes the new name, a path the new path); in a Markdown link, the last
/// name of its destination (its folder, `.md` and fragment kept). The rest of the body is
/// left byte for byte.
enum LinkRewriter {
    /// What a link names the note by after the change.
    struct Target {
        /// The note's new name.
        var name: String
        /// Its new path from the top level.
        var path: String
        /// Whether its name changes (else only its place: names stay, paths change).
        var renamed: Bool
    }

    /// `body` with the links that start at `positions` retargeted; nil when none changed.
    static func rewrite(_ body: String, at positions: Set<Int>, to target: Target) -> String? {
        var bytes = Array(body.utf8)
        var changed = false
        // From the end, so that the places of the links before stay as found.
        for reference in MarkdownScanner.references(in: body).reversed() where positions.contains(reference.range.lowerBound) {
            guard let (span, replacement) = replacement(for: reference, in: bytes, to: target) else { continue }
            guard Array(bytes[span]) != Array(replacement.utf8) else { continue }
            bytes.replaceSubrange(span, with: Array(replacement.utf8))
            changed = true
        }
        return changed ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// The bytes of the link that name the note, and what they become.
    private static func replacement(for reference: MarkdownReference, in bytes: [UInt8], to target: Target) -> (Range<Int>, String)? {
        let range = reference.range
        switch reference.kind {
        case .wikiLink, .wikiEmbed:
            let open = range.lowerBound + (reference.kind == .wikiEmbed ? 3 : 2)
            var end = open
            while end < range.upperBound - 2 {
                let byte = bytes[end]
                if byte == UInt8(ascii: "#") || byte == UInt8(ascii: "|") { break }
                if byte == UInt8(ascii: "\\"), end + 1 < range.upperBound, bytes[end + 1] == UInt8(ascii: "|") { break }
                end += 1
            }
            let written = String(decoding: bytes[open..<end], as: UTF8.self)
            let isPath = LinkIndex.withoutExtension(written).contains("/")
            guard isPath || target.renamed else { return nil }
            let extensionWritten = LinkIndex.hasMarkdownExtension(written.trimmingCharacters(in: .whitespaces)) ? ".md" : ""
            return (open..<end, (isPath ? target.path : target.name) + extensionWritten)
        case .link:
            guard target.renamed, let (start, stop) = destination(in: bytes, range) else { return nil }
            let destination = String(decoding: bytes[start..<stop], as: UTF8.self)
            let path = destination.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let folderEnd = path[0].lastIndex(of: "/").map { path[0].index(after: $0) } ?? path[0].startIndex
            let encoded = target.name.addingPercentEncoding(withAllowedCharacters: allowedInDestination) ?? target.name
            var rewritten = String(path[0][..<folderEnd]) + encoded + ".md"
            if path.count > 1 { rewritten += "#" + path[1] }
            return (start..<stop, rewritten)
        case .image, .htmlImage:
            return nil
        }
    }

    /// Where a Markdown link's destination is: after `](`, in angle brackets or up to a space
    /// or the closing parenthesis.
    private static func destination(in bytes: [UInt8], _ range: Range<Int>) -> (Int, Int)? {
        var index = range.upperBound - 1
        // The `(` that opens the destination: the last `](` of the link.
        while index > range.lowerBound, !(bytes[index] == UInt8(ascii: "(") && bytes[index - 1] == UInt8(ascii: "]")) { index -= 1 }
        guard index > range.lowerBound else { return nil }
        var start = index + 1
        while start < range.upperBound, bytes[start] == 0x20 { start += 1 }
        if start < range.upperBound, bytes[start] == UInt8(ascii: "<") {
            guard let close = bytes[(start + 1)..<range.upperBound].firstIndex(of: UInt8(ascii: ">")) else { return nil }
            return (start + 1, close)
        }
        var stop = start
        var depth = 0
        while stop < range.upperBound {
            let byte = bytes[stop]
            if byte == 0x20 || byte == 0x0A { break }
            if byte == UInt8(ascii: "(") { depth += 1 }
            if byte == UInt8(ascii: ")") {
                if depth == 0 { break }
                depth -= 1
            }
            stop += 1
        }
        return stop > start ? (start, stop) : nil
    }

    /// What a name keeps as it is in a Markdown destination: letters, digits and `-._~`.
    private static let allowedInDestination = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
}
