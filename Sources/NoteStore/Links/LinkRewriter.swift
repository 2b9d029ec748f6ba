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
        for reference in MarkdownScanner.references(in: body).reversed()
        where positions.contains(reference.range.lowerBound) {
            guard let (span, replacement) = replacement(for: reference, in: bytes, to: target) else { continue }
            guard Array(bytes[span]) != Array(replacement.utf8) else { continue }
            bytes.replaceSubrange(span, with: Array(replacement.utf8))
            changed = true
        }
        return changed ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// The bytes of the link that name the note, and what they become.
    private static func replacement(for reference: MarkdownReference, in bytes: [UInt8], to target: Target) -> (
        Range<Int>, String
    )? {
        guard let span = reference.targetRange(in: bytes) else { return nil }
        switch reference.kind {
        case .wikiLink, .wikiEmbed:
            let written = String(decoding: bytes[span], as: UTF8.self)
            let isPath = LinkIndex.withoutExtension(written).contains("/")
            guard isPath || target.renamed else { return nil }
            let extensionWritten =
                LinkIndex.hasMarkdownExtension(written.trimmingCharacters(in: .whitespaces)) ? ".md" : ""
            return (span, (isPath ? target.path : target.name) + extensionWritten)
        case .link:
            guard target.renamed else { return nil }
            let destination = String(decoding: bytes[span], as: UTF8.self)
            let path = destination.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let folderEnd = path[0].lastIndex(of: "/").map { path[0].index(after: $0) } ?? path[0].startIndex
            let encoded = target.name.addingPercentEncoding(withAllowedCharacters: allowedInDestination) ?? target.name
            var rewritten = String(path[0][..<folderEnd]) + encoded + ".md"
            if path.count > 1 { rewritten += "#" + path[1] }
            return (span, rewritten)
        case .image, .htmlImage:
            return nil
        }
    }

    /// What a name keeps as it is in a Markdown destination: letters, digits and `-._~`.
    private static let allowedInDestination = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
}
