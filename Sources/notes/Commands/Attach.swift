import ArgumentParser
import Foundation
import NoteStore
import NoteSync

extension Notes {
    struct Attach: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "attach",
            abstract: "Attach files of any kind to a note and print the new attachment ids.",
            usage: """
                notes attach [--store <DIR>] <note> <FILE> ... [--caption <TEXT>] [--limit <SIZE>]
                notes attach [--store <DIR>] -i <FILE> ... [--caption <TEXT>] [--limit <SIZE>]
                """,
            discussion: """
                PNG, JPEG, GIF and WebP images are checked whole and keep their dimensions (at \
                most 50 MB and 500 megapixels); an SVG must be well-formed XML with an <svg> \
                root, and keeps the width and height it states; any other file is kept as it is, \
                with a media type found from its content. If one file is refused, none is attached.
                """)

        @OptionGroup var storeOptions: StoreOptions

        @Argument(
            help: ArgumentHelp("The note to attach to (with -i, the first file).", valueName: "note"),
            completion: ItemCompletion.items)
        var first: String?

        @Argument(help: ArgumentHelp("The files.", valueName: "FILE"), completion: .file())
        var rest: [String] = []

        @Flag(
            name: [.customShort("i"), .customLong("interactive")],
            help: "Choose the note in a picker (fzf when installed); every argument is a file.")
        var interactive = false

        @Option(help: ArgumentHelp("A caption for the attachments (at most 1,000 characters).", valueName: "TEXT"))
        var caption: String?

        @Option(
            help: ArgumentHelp(
                "The largest file accepted: bytes, or a number with K, M, G or T "
                    + "(powers of 1,024; default 1G, at most 16G).",
                valueName: "SIZE"),
            transform: SizeArgument.bytes)
        var limit: Int64 = Attachment.defaultFileLimit

        @OptionGroup var references: ReferenceOptions

        /// The files given: with `-i`, every argument.
        var files: [String] { interactive ? (first.map { [$0] } ?? []) + rest : rest }

        func validate() throws {
            if !interactive && first == nil { throw ValidationError("Missing expected argument '<note>'") }
            if files.isEmpty { throw ValidationError("Missing expected argument '<FILE> ...'") }
            if limit > Attachment.maximumFileBytes { throw ValidationError("--limit is at most 16G") }
        }

        func run() throws {
            let store = try storeOptions.open()
            let target = try ItemPicker.item(
                interactive ? nil : first, picking: interactive, in: store, scope: .live, kind: .note,
                references: references,
                prompt: "attach> ")
            let urls = files.map { URL(fileURLWithPath: $0) }
            for attachment in try store.attach(urls, to: target.id, caption: caption, limit: limit) {
                print(attachment.id.storeString)
            }
        }
    }

    struct Attachments: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "attachments",
            abstract: "List a note's attachments: format or media type and file name, dimensions, size and caption.")

        @OptionGroup var storeOptions: StoreOptions

        @Argument(help: "The note whose attachments to list.", completion: ItemCompletion.items)
        var note: String

        @Flag(help: "Print a JSON array.")
        var json = false

        @OptionGroup var references: ReferenceOptions

        func run() throws {
            let store = try storeOptions.open(.readOnly)
            let attachments = try store.attachments(
                of: references.item(note, in: store, scope: .any, json: json, prompt: "attachments> ").id)
            let listed = AttachmentJSON.list(attachments, in: store)
            if json { return try JSONOutput.print(listed) }
            for attachment in listed { print(attachment.line) }
        }
    }

    struct Detach: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "detach", abstract: "Remove an attachment from its note.")

        @OptionGroup var storeOptions: StoreOptions

        @Argument(help: "The attachment's id or a unique id prefix.")
        var attachment: String

        func run() throws {
            let store = try storeOptions.open()
            try store.detach(store.resolveAttachment(attachment).id)
        }
    }

    struct AttachmentSave: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "attachment-save", abstract: "Write an attachment's original bytes to a file.")

        @OptionGroup var storeOptions: StoreOptions

        @Argument(help: "The attachment's id or a unique id prefix.")
        var attachment: String

        @Argument(help: "The file to write (default: the attachment's file name, in the current folder).")
        var path: String?

        @Flag(help: "Overwrite the file if it exists.")
        var force = false

        func run() throws {
            let store = try storeOptions.open(.readOnly)
            let found = try store.resolveAttachment(attachment)
            let path = self.path ?? found.suggestedFileName
            let url = URL(fileURLWithPath: path)
            if !force && FileManager.default.fileExists(atPath: url.path) {
                throw InputError.usage("'\(path)' exists: give --force to overwrite it")
            }
            // A chunk at a time, checked against the hash, renamed into place when whole.
            do {
                try store.copyBytes(of: found, to: url)
            } catch StoreError.cannotOpen {
                throw InputError.output(path: path, reason: OutputFile.reason(for: url))
            }
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Verify the store: database integrity, and every blob present, whole and referenced.",
            discussion: """
                Prints each problem on a line: damage first, then attachments waiting for bytes \
                that sync has not fetched yet, then leftovers of interrupted work (orphan blobs, \
                temporary files), which only take room, then links that reach no note \
                ('path:line: [[Name]] reaches no note'). Exits 0 unless there is damage.
                """)

        @OptionGroup var storeOptions: StoreOptions

        @Flag(
            help: """
                Remove the leftovers first (orphan blobs, temporary files of stopped processes), \
                and build the link index and the search indexes again.
                """
        )
        var repair = false

        func run() throws {
            let store = try storeOptions.open()
            if repair {
                let removed = try SyncEngine(store: store, hooks: .environment).removeLeftovers()
                print("removed \(removed) leftover\(removed == 1 ? "" : "s")")
                try store.rebuildLinkIndex()
                try store.rebuildSearchIndexes()
            }
            // A link index in the making is finished first, so that the check covers it whole;
            // if that fails, the check says why, and lists no links.
            var unfinished: String?
            do { try store.finishLinkIndex() } catch {
                unfinished = "database: the link index cannot be finished: \(error)"
            }
            let inspection = try store.inspect()
            let damage = inspection.damage + (unfinished.map { [$0] } ?? [])
            for line in damage + inspection.waiting + inspection.leftovers { print(line) }
            var paths = Paths(store: store)
            for link in unfinished == nil ? try store.unresolvedLinks() : [] {
                print("\(try paths.path(of: link.source)):\(link.line): \(link.written) reaches no note")
            }
            guard damage.isEmpty else { throw InputError.checkFailed(damage.count) }
            let count = inspection.leftovers.count
            print(
                count == 0
                    ? "ok"
                    : "ok: no damage; \(count) leftover\(count == 1 ? "" : "s") of interrupted work: "
                        + "'notes check --repair' removes them"
            )
        }
    }
}

/// Why a file could not be written, in a few words.
enum OutputFile {
    static func reason(for url: URL) -> String {
        let folder = url.deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        if !FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) { return "no such folder" }
        if !isFolder.boolValue { return "'\(folder)' is not a folder" }
        if access(folder, W_OK) != 0 { return "permission denied" }
        return "it could not be written"
    }
}
