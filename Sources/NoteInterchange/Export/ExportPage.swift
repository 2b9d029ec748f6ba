import Foundation
import NoteStore

/// A page of notes of one collection with what their files are made of, read on a thread of
/// its own while the notes before are rendered: reading was half of the Markdown export's
/// time.
struct ExportPage: Sendable {
    let collection: UUID?
    /// The ids the page was read for, in the order of the tree.
    let ids: [UUID]
    /// With their bodies.
    let notes: [Item]
    let attachments: [UUID: [Attachment]]
    let tags: [UUID: [String]]
    let properties: [UUID: [NoteProperty]]
    /// Of the notes whose bodies may hold links (``MarkdownExporter/mayLink(_:)``), when asked
    /// for.
    let links: [UUID: [NoteLink]]

    /// Pages waiting at most, and the bytes of their bodies (one page waits whatever its
    /// bytes): memory holds the page being written and at most a few more (their properties,
    /// tags and links uncounted), however large the store.
    static let capacity = 4
    static let byteCapacity = 16 << 20

    /// The next page of `pages`, which must be the one read for `ids` of `collection`: the
    /// writers walk the tree in the order ``ExportTree/pageOrder(visiting:)`` gave the reader.
    static func next(from pages: ReadAhead<ExportPage>, _ ids: [UUID], of collection: UUID?) throws -> ExportPage {
        guard let page = try pages.next(), page.collection == collection, page.ids == ids else {
            preconditionFailure("the pages are read in the order they are written")
        }
        return page
    }

    static func read(_ ids: [UUID], of collection: UUID?, withLinks: Bool, from store: Store) throws -> ExportPage {
        let notes = try store.bodies(of: ids)
        let linking = withLinks ? notes.filter { MarkdownExporter.mayLink($0.body ?? "") }.map(\.id) : []
        return ExportPage(
            collection: collection, ids: ids, notes: notes, attachments: try store.attachments(ofNotes: ids),
            tags: try store.tags(ofItems: ids), properties: try store.properties(ofItems: ids),
            links: try store.links(ofNotes: linking))
    }

    /// Reads the pages of `order` (``ExportTree/pageOrder(visiting:)``) on a thread of its own,
    /// in that order. The caller cancels it when the export fails, so that it stops at the page
    /// it is reading.
    static func readAhead(_ order: [(collection: UUID?, ids: [UUID])], withLinks: Bool, from store: Store)
        -> ReadAhead<ExportPage>
    {
        ReadAhead(
            capacity: capacity, byteCapacity: byteCapacity, batchSize: 1,
            bytes: { page in page.notes.reduce(0) { $0 + ($1.body?.utf8.count ?? 0) } }
        ) { send in
            for (collection, ids) in order {
                guard send(try read(ids, of: collection, withLinks: withLinks, from: store)) else { return }
            }
        }
    }
}
