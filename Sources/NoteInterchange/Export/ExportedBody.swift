import Foundation
import NoteMarkdown
import NoteStore

/// A note's body as a Markdown export writes it: its attachments at the places its links point to,
/// and its links to notes as they resolve in the exported tree (docs/interchange.md, "Export";
/// docs/links.md, "Export and import").
///
/// Only the target of a link that has to change is rewritten; the rest of the body is written
/// byte for byte.
///
/// - The body's links to files (`![](path)`, `![alt][ref]`, `<img src>`, `![[file.pdf]]`, and
///   links to local files that are not notes, `[report](files/report.pdf)`), each target
///   once, are paired with the note's attachments as an import attached them (``pair(_:_:)``):
///   by a file's name, then by caption, then in order, a link taking the next attachment when
///   its extension names the attachment's kind (an image's format, a file's own extension or
///   its media type's). The attachment is written where the link points, from the note's
///   folder, when that place is inside the export and free (or holds the same bytes
///   already); else beside the note under a free name, to which the link is rewritten.
/// - A wiki link or an embed of a note that would reach another note in the exported tree (or
///   several) names it by its file's name when that is unique, else by its path; one that
///   reaches its note by an alias stays as written, as it does when the note is renamed.
/// - Attachments that no link shows are left for the block after the body.
struct ExportedBody {
    /// The body to write.
    private(set) var text: String
    /// The attachments to write, each with its path from the top of the export.
    private(set) var files: [(attachment: Attachment, path: String)] = []
    /// The attachments that no link of the body shows.
    private(set) var unlinked: [Attachment] = []
    /// How many attachments are shown by a file of the same bytes that is there already.
    private(set) var shared = 0
    /// Replacements of bytes of the body, by where they start.
    private var edits: [(range: Range<Int>, text: String)] = []

    /// The body of `note`, whose file is `path` (from the top of the export, without `.md`).
    /// `byAlias` says whether a link reaches its note by an alias, which keeps it as written.
    init(
        body: String, path: String, links: [NoteLink], attachments: [Attachment], layout: inout ExportLayout,
        byAlias: (NoteLink) -> Bool = { _ in false }
    ) {
        text = body
        let bytes = Array(body.utf8)
        let references = MarkdownScanner.references(in: body)
        let folder = ExportLayout.folder(of: path)
        placeFiles(
            references.filter(Self.isFile), attachments: attachments, bytes: bytes, folder: folder, layout: &layout)
        retarget(links, references: references, bytes: bytes, folder: folder, layout: &layout, byAlias: byAlias)
        guard !edits.isEmpty else { return }
        var result = bytes
        var last = Int.max
        // From the end, each place once (two `<img>` of one block may name the same file).
        for edit in edits.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) where edit.range.upperBound <= last
        {
            result.replaceSubrange(edit.range, with: Array(edit.text.utf8))
            last = edit.range.lowerBound
        }
        text = String(decoding: result, as: UTF8.self)
    }

    /// Whether a reference may show a file an import attached: an image, an embed of a file
    /// with an extension, or a link that is not to a Markdown file; local.
    static func isFile(_ reference: MarkdownReference) -> Bool {
        guard !reference.target.isEmpty, !reference.isExternal else { return false }
        switch reference.kind {
        case .image, .htmlImage: return !isMarkdown(reference.target)
        case .wikiEmbed:
            let name = (reference.target as NSString).lastPathComponent
            guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
            return !isMarkdown(name)
        case .link: return !isMarkdown((reference.target as NSString).lastPathComponent)
        case .wikiLink: return false
        }
    }

    private static func isMarkdown(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower.hasSuffix(".md") || lower.hasSuffix(".markdown")
    }

    /// Whether a link to `target` can show `attachment`: its extension names an image's format,
    /// or a file's own extension or its media type's, or it has none.
    static func fits(_ target: String, _ attachment: Attachment) -> Bool {
        let name = (target as NSString).lastPathComponent
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return true }
        let ext = name[name.index(after: dot)...].lowercased()
        guard let format = attachment.format else {
            let own = attachment.fileName.map { ($0 as NSString).pathExtension.lowercased() }
            return ext == own || ext == attachment.fileExtension.lowercased()
                || MediaTypeSniffer.mediaType(forExtension: ext) == attachment.mediaType
        }
        switch ext {
        case "png": return format == .png
        case "jpg", "jpeg", "jpe", "jfif": return format == .jpeg
        case "gif": return format == .gif
        case "webp": return format == .webp
        default: return false
        }
    }

    /// Pairs the links to files with the attachments they show, each link target once and
    /// each attachment once: first a file attachment with the link's file name, then an
    /// attachment whose caption is the link's text, then, in order, the next attachment that
    /// fits, links with an extension before images without one. A link (not an image)
    /// without an extension shows a file only by that file's name: it is most often a link
    /// to a note.
    static func pair(_ references: [MarkdownReference], _ attachments: [Attachment]) -> [(
        MarkdownReference, Attachment
    )] {
        var targets: [String] = []
        var firsts: [MarkdownReference] = []
        for reference in references where !targets.contains(reference.target) {
            targets.append(reference.target)
            firsts.append(reference)
        }
        var paired: [Int: Int] = [:]  // reference index to attachment index
        var taken = Set<Int>()
        func claim(_ matches: (MarkdownReference, Attachment) -> Bool) {
            for (index, reference) in firsts.enumerated() where paired[index] == nil {
                if let found = attachments.indices.first(where: {
                    !taken.contains($0) && matches(reference, attachments[$0])
                }) {
                    paired[index] = found
                    taken.insert(found)
                }
            }
        }
        claim { reference, attachment in
            attachment.fileName != nil && attachment.fileName == (reference.target as NSString).lastPathComponent
        }
        claim { reference, attachment in
            guard let caption = attachment.caption, reference.kind != .link else { return false }
            return caption == MarkdownReader.caption(of: reference) && fits(reference.target, attachment)
        }
        for withExtension in [true, false] {
            var next = 0
            for (index, reference) in firsts.enumerated() where paired[index] == nil {
                let name = (reference.target as NSString).lastPathComponent
                guard (name.lastIndex(of: ".").map { $0 != name.startIndex } ?? false) == withExtension,
                    withExtension || reference.kind != .link
                else { continue }
                while next < attachments.count, taken.contains(next) { next += 1 }
                guard next < attachments.count, fits(reference.target, attachments[next]) else { continue }
                paired[index] = next
                taken.insert(next)
            }
        }
        return paired.sorted { $0.key < $1.key }.map { (firsts[$0.key], attachments[$0.value]) }
    }

    private mutating func placeFiles(
        _ references: [MarkdownReference], attachments: [Attachment], bytes: [UInt8], folder: String,
        layout: inout ExportLayout
    ) {
        let pairs = Self.pair(references, attachments)
        let placed = Set(pairs.map(\.1.id))
        for (reference, attachment) in pairs {
            switch layout.place(reference.target, from: folder, sha256: attachment.sha256) {
            case let .write(path): files.append((attachment, path))
            case .there: shared += 1
            case .unusable:
                let same = references.filter { $0.target == reference.target }
                guard same.allSatisfy({ $0.targetRange(in: bytes) != nil }) else {
                    unlinked.append(attachment)
                    continue
                }
                let path = layout.claimFile(Self.fileName(reference.target, attachment), in: folder)
                layout.record(path, sha256: attachment.sha256)
                files.append((attachment, path))
                let name = String(ExportLayout.lastName(path))
                for link in same {
                    guard let range = link.targetRange(in: bytes) else { continue }
                    let bracketed = range.lowerBound > 0 && bytes[range.lowerBound - 1] == UInt8(ascii: "<")
                    let isDestination = link.kind == .image || link.kind == .link
                    edits.append((range, isDestination ? MarkdownLinks.destination(name, bracketed: bracketed) : name))
                }
            }
        }
        unlinked += attachments.filter { !placed.contains($0.id) }
    }

    /// The name a file gets beside its note when its link's place cannot be used: the last
    /// name of the link's target when it is one a file can have, else `image` (or `file`) and
    /// the attachment's extension.
    static func fileName(_ target: String, _ attachment: Attachment) -> String {
        let name = (target as NSString).lastPathComponent
        let usable =
            !name.isEmpty && name != "." && name != ".." && !name.hasPrefix(".")
            && name.utf8.count <= FileNames.maximumBytes
            && !name.contains { "#|[]^\\<>\n".contains($0) }
        return usable ? name : (attachment.kind == .image ? "image." : "file.") + attachment.fileExtension
    }

    /// Rewrites the wiki links and embeds of notes that would not reach their note in the
    /// exported tree.
    private mutating func retarget(
        _ links: [NoteLink], references: [MarkdownReference], bytes: [UInt8], folder: String,
        layout: inout ExportLayout,
        byAlias: (NoteLink) -> Bool
    ) {
        let byPosition = Dictionary(
            references.map { ($0.range.lowerBound, $0) }, uniquingKeysWith: { first, _ in first })
        for link in links where link.kind != .markdown {
            guard let note = link.resolved, layout.path(of: note) != nil,
                layout.target(link.target, from: folder) != note,
                let reference = byPosition[link.position], reference.kind == .wikiLink || reference.kind == .wikiEmbed,
                let range = reference.targetRange(in: bytes),
                var target = layout.shortestTarget(of: note, from: folder),
                !target.contains(where: { "#|[]^".contains($0) }), !byAlias(link)
            else { continue }
            let written = String(decoding: bytes[range], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            if written.lowercased().hasSuffix(".md") { target += ".md" }
            edits.append((range, target))
        }
    }
}
