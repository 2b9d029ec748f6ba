import ArgumentParser
import Foundation
import NoteInterchange
import NoteStore
import NoteTerminal

extension Notes {
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write notes out as Markdown files (a folder per collection, a .md file per note, "
                + "attachments beside) or as JSON.",
            discussion: """
                Each Markdown file starts with a front matter block (id, created, modified, tags, and name \
                when the file's name is not the note's, then the note's properties); a note's attachments are \
                written where its body links them (else beside it, linked at the end of its body), and links \
                to notes name them by path where a name alone would reach another. Names are kept as the file \
                system allows (only / is replaced), or as every common one does with --portable, and made \
                unique. With --format json, DIR gets notes.jsonl (a line saying what it is, then one JSON \
                object per item, with its attachments and tags), images/ (a file per image) and files/ (a file \
                per other attachment). 'notes import' reads both back. Nothing is written through a symbolic \
                link: one in DIR where the export writes stops it.
                """)

        @OptionGroup var storeOptions: StoreOptions

        @Argument(help: ArgumentHelp("The folder to write into (made when absent).", valueName: "DIR"))
        var folder: String

        @Argument(
            help: "A note or collection to export alone (a collection with everything in it).",
            completion: ItemCompletion.items)
        var item: String?

        @Option(help: ArgumentHelp("md (Markdown files, the default) or json (JSON Lines).", valueName: "FORMAT"))
        var format: ExportFormat = .md

        @Flag(help: "Write into a folder that is not empty, over files of the same names.")
        var force = false

        @Flag(help: "Make file names that Windows and macOS take too (no : * ? \" < > | \\, no trailing dot).")
        var portable = false

        @OptionGroup var references: ReferenceOptions

        enum ExportFormat: String, ExpressibleByArgument, CaseIterable {
            case md, json
        }

        func run() throws {
            let store = try storeOptions.open(.readOnly)
            let root = try item.map { try references.item($0, in: store, prompt: "export> ").id }
            let bar = ProgressBar(verb: "exporting", unit: "notes")
            let target = URL(fileURLWithPath: folder)
            let report: ExportReport
            switch format {
            case .md:
                var exporter = MarkdownExporter(store: store)
                exporter.portable = portable
                exporter.progress = { bar.update($0, of: $1) }
                report = try exporter.export(to: target, root: root, force: force)
            case .json:
                var exporter = JSONExporter(store: store)
                exporter.progress = { bar.update($0, of: $1) }
                report = try exporter.export(to: target, root: root, force: force)
            }
            bar.finish()
            print(
                "exported \(report.notes) note\(report.notes == 1 ? "" : "s"), "
                    + "\(report.collections) collection\(report.collections == 1 ? "" : "s"), "
                    + "\(report.images) image\(report.images == 1 ? "" : "s")"
                    + "\(report.files == 0 ? "" : ", \(report.files) file\(report.files == 1 ? "" : "s")")"
            )
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Bring in a Markdown file or a folder tree of them (an export, a vault, a git repository), "
                + "or a JSON export.",
            discussion: """
                A folder holding notes.jsonl, or a .jsonl file, is read as a JSON export. \
                Folders become collections; embedded files (images, PDFs, any file) and links to local files \
                that are not notes become attachments. Importing the same files again updates the notes it \
                made (matched by the id in their front matter, else by name in the same place) instead of \
                duplicating them. A file that is not UTF-8, a broken image link or a bad image is reported on \
                one line and skipped; the rest is imported, and the exit status is then 65. A symbolic link is \
                followed only when it leads inside PATH; one that leads out of it is reported the same way.
                """)

        @OptionGroup var storeOptions: StoreOptions

        @Argument(
            help: ArgumentHelp(
                "A Markdown file, a folder, or a JSON export (its folder or its notes.jsonl).", valueName: "PATH"))
        var path: String

        @Option(
            name: .customLong("in"), help: "The collection to import into (default: the top level).",
            completion: ItemCompletion.items)
        var collection: String?

        @Flag(help: "Say what would be done, and change nothing.")
        var dryRun = false

        @Flag(
            help: """
                Keep #tags in the bodies of Markdown files as text only \
                (by default they become tags of their notes too).
                """
        )
        var noInlineTags = false

        @OptionGroup var references: ReferenceOptions

        func run() throws {
            let source = URL(fileURLWithPath: path)
            try Importer.check(path: source)
            let store = try storeOptions.open()
            let parent = try collection.map { try references.collection($0, in: store) }
            var importer = Importer(store: store)
            importer.inlineTags = !noInlineTags
            let bar = ProgressBar(verb: "importing", unit: "notes")
            importer.progress = { bar.update($0, of: $1) }
            let report = try importer.run(path: source, into: parent, dryRun: dryRun)
            bar.finish()
            for problem in report.problems { TerminalText.warn(problem) }
            if dryRun {
                for line in report.plan { print(TerminalText.escaped(line, keepingLayout: false)) }
            }
            let verb = dryRun ? "would create" : "created"
            print(
                "\(verb) \(report.created), updated \(report.updated), unchanged \(report.unchanged), "
                    + "images \(report.images)\(report.files == 0 ? "" : ", files \(report.files)"), "
                    + "skipped \(report.problems.count)"
            )
            // What could be imported was; the status says something was not.
            if !report.problems.isEmpty { throw ExitCode(65) }
        }
    }
}
