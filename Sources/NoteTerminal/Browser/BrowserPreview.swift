import CNCurses
import Foundation
import NoteStore

/// What the preview pane shows of the selected note: its name, path, dates, tags,
/// attachments, the notes it links to and those that link to it, then its body, read from the
/// store when the selection or the store changes.
struct BrowserPreview {
    var note: Item?
    var path = ""
    var tags: [String] = []
    var attachments: [Attachment] = []
    /// The notes it links to (`→`) and those that link to it (`←`), which Enter follows
    /// when the preview has the focus.
    var links: [LinkEntry] = []
    /// The link entry chosen, when the preview has the focus.
    var chosen: Int?
    /// Whether the link index is being built a part at a time (a store joined from a big
    /// baseline): the preview says so rather than finish the build, which would hold the
    /// screen for all of it, and shows the links once `notes watch` has built it.
    var linksBeingBuilt = false

    struct LinkEntry: Equatable {
        /// `→ path` or `← path:line`.
        var text: String
        /// The note it leads to; nil for a link that reaches nothing.
        var note: UUID?
    }

    static func load(_ selected: Item?, store: Store) -> BrowserPreview {
        guard let selected, let note = try? store.item(selected.id) else { return BrowserPreview() }
        let building = (try? store.isBuildingLinkIndex()) ?? false
        return BrowserPreview(
            note: note, path: (try? store.path(of: note)) ?? note.name, tags: (try? store.tags(of: note.id)) ?? [],
            attachments: (try? store.attachments(of: note.id)) ?? [],
            links: building ? [] : linkEntries(of: note, store: store), linksBeingBuilt: building)
    }

    /// The links of the note in the order of its body, then the notes that link to it by
    /// path, each note once per direction.
    static func linkEntries(of note: Item, store: Store) -> [LinkEntry] {
        func path(_ id: UUID) -> String {
            (try? store.path(of: store.item(id, includingBody: false))) ?? id.storeString
        }
        var entries: [LinkEntry] = []
        var seen: Set<String> = []
        for link in (try? store.links(of: note.id)) ?? []
        where seen.insert("→\(link.resolved?.storeString ?? link.target)").inserted {
            entries.append(
                LinkEntry(text: "→ " + (link.resolved.map(path) ?? link.written + " (nothing)"), note: link.resolved))
        }
        var backlinks: [LinkEntry] = []
        for link in (try? store.backlinks(of: note.id)) ?? []
        where seen.insert("←\(link.source.storeString)").inserted {
            backlinks.append(LinkEntry(text: "← \(path(link.source)):\(link.line)", note: link.source))
        }
        return entries + backlinks.sorted { $0.text < $1.text }
    }

    static let linksBeingBuiltLine =
        "links: the link index is being built, by 'notes watch' or 'notes check --repair'"

    /// The lines to show, the body's wrapped to `width` columns.
    func lines(width: Int) -> [(text: String, attributes: Int32)] {
        guard let note, width > 0 else { return [] }
        var lines: [(text: String, attributes: Int32)] = [(note.name, notes_attr_bold()), (path, notes_attr_dim())]
        lines.append(("modified " + Self.date(note.modified), notes_attr_dim()))
        if !tags.isEmpty { lines.append(("tags: " + tags.map { "#" + $0 }.joined(separator: " "), 0)) }
        if !attachments.isEmpty {
            lines.append(("attachments: \(attachments.count)", 0))
            lines += attachments.map { attachment in
                let size = attachment.width.flatMap { width in attachment.height.map { " \(width)×\($0)" } } ?? ""
                let label =
                    attachment.caption ?? attachment.fileName ?? attachment.format?.rawValue ?? attachment.mediaType
                return ("  \(label)\(size)", notes_attr_dim())
            }
        }
        if linksBeingBuilt {
            lines += Self.wrapped(Self.linksBeingBuiltLine, width: width).map { ($0, notes_attr_dim()) }
        }
        if !links.isEmpty {
            lines.append(("links:", 0))
            for (index, entry) in links.enumerated() {
                lines.append(("  " + entry.text, index == chosen ? notes_attr_reverse() : notes_attr_dim()))
            }
        }
        lines.append(("", 0))
        for line in (note.body ?? "").split(separator: "\n", omittingEmptySubsequences: false).prefix(500) {
            lines += Self.wrapped(String(line), width: width).map { ($0, 0) }
        }
        return lines
    }

    static func date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }

    /// A line cut into pieces of at most `width` columns, at spaces where it can.
    static func wrapped(_ line: String, width: Int) -> [String] {
        guard DisplayWidth.of(line) > width else { return [line] }
        var pieces: [String] = []
        var current = ""
        var used = 0
        for character in line {
            let columns = DisplayWidth.of(String(character))
            if used + columns > width {
                if let space = current.lastIndex(of: " "), current.distance(from: current.startIndex, to: space) > 0 {
                    pieces.append(String(current[..<space]))
                    current = String(current[current.index(after: space)...])
                } else {
                    pieces.append(current)
                    current = ""
                }
                used = DisplayWidth.of(current)
            }
            current.append(character)
            used += columns
        }
        pieces.append(current)
        return pieces
    }
}
