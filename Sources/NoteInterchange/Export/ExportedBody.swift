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
///   links to local files that are not notes, `[report](files/report.pdf)`), in order, each
///   target once, are matched with the note's attachments, oldest first, as an import attached
///   them: a link takes the next attachment when its extension names the attachment's kind (an
///   image's format, a file's own extension or its media type's; or it has none). The attachment is written where the link points,
///   from the note's folder, when that place is inside the export and free (or holds the same
///   bytes already); else beside the note under a free name, to which the link is rewritten.
/// - A wiki link or an embed of a note that would reach another note in the exported tree (or
///   several) names it by its file's name when that is unique, else by its path.
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
    init(body: String, path: String, links: [NoteLink], attachments: [Attachment], layout: inout ExportLayout) {
        text = body
        let bytes = Array(body.utf8)
        let references = MarkdownScanner.references(in: body)
        let folder = ExportLayout.folder(of: path)
        placeFiles(references.filter(Self.isFile), attachments: attachments, bytes: bytes, folder: folder, layout: &layout)
        retarget(links, references: references, bytes: bytes, folder: folder, layout: layout)
        guard !edits.isEmpty else { return }
        var result = bytes
        var last = Int.max
        // From the end, each place once (two `<img>` of one block may name the same file).
        for edit in edits.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) where edit.range.upperBound <= last {
            result.replaceSubrange(edit.range, with: Array(edit.text.utf8))
            last = edit.range.lowerBound
        }
        text = String(decoding: result, as: UTF8.self)
    }

    /// Whether a reference shows a file an import would attach: an image, an embed of a
    /// file with an extension, or a link to a file with an extension that is not a note; local.
    static func isFile(_ reference: MarkdownReference) -> Bool {
        guard !reference.target.isEmpty, !reference.isExternal else { return false }
        switch reference.kind {
        case .image, .htmlImage: return !isMarkdown(reference.target)
        case .wikiEmbed, .link:
            let name = (reference.target as NSString).lastPathComponent
            guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
            return !isMarkdown(name)
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

    private mutating func placeFiles(
        _ references: [MarkdownReference], attachments: [Attachment], bytes: [UInt8], folder: String, layout: inout ExportLayout
    ) {
        var next = 0
        var done: Set<String> = []
        for reference in references where next < attachments.count && !done.contains(reference.target) {
            let attachment = attachments[next]
            guard Self.fits(reference.target, attachment) else { continue }
            done.insert(reference.target)
            next += 1
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
        unlinked += attachments[next...]
    }

    /// The name a file gets beside its note when its link's place cannot be used: the last
    /// name of the link's target when it is one a file can have, else `image` (or `file`) and
    /// the attachment's extension.
    static func fileName(_ target: String, _ attachment: Attachment) -> String {
        let name = (target as NSString).lastPathComponent
        let usable = !name.isEmpty && name != "." && name != ".." && !name.hasPrefix(".") && name.utf8.count <= FileNames.maximumBytes
            && !name.contains { "#|[]^\\<>\n".contains($0) }
        return usable ? name : (attachment.kind == .image ? "image." : "file.") + attachment.fileExtension
    }

    /// Rewrites the wiki links and embeds of notes that would not reach their note in the
    /// exported tree.
    private mutating func retarget(
        _ links: [NoteLink], references: [MarkdownReference], bytes: [UInt8], folder: String, layout: ExportLayout
    ) {
        let byPosition = Dictionary(references.map { ($0.range.lowerBound, $0) }, uniquingKeysWith: { first, _ in first })
        for link in links where link.kind != .markdown {
            guard let note = link.resolved, layout.notes[note] != nil, layout.target(link.target, from: folder) != note,
                let reference = byPosition[link.position], reference.kind == .wikiLink || reference.kind == .wikiEmbed,
                let range = reference.targetRange(in: bytes), var target = layout.shortestTarget(of: note, from: folder),
                !target.contains(where: { "#|[]^".contains($0) })
            else { continue }
            let written = String(decoding: bytes[range], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            if written.lowercased().hasSuffix(".md") { target += ".md" }
            edits.append((range, target))
        }
    }
}
