import ArgumentParser
import Foundation
import NoteStore

extension Notes {
    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rename an item or change a note's body.",
            discussion: """
                With neither --name nor a body option, opens $VISUAL or $EDITOR on the note's body \
                and saves only if it changed.
                """)

        @OptionGroup var storeOptions: StoreOptions

        @Argument(help: "The item to edit.")
        var item: String

        @Option(help: ArgumentHelp("The new name.", valueName: "NAME"))
        var name: String?

        @OptionGroup var bodyOptions: BodyOptions

        func run() throws {
            let store = try storeOptions.open()
            let target = try store.resolve(item)
            var body = try bodyOptions.givenBody()
            if name == nil && body == nil {
                guard target.isNote else {
                    throw InputError.usage("'\(item)' is a collection: give --name to rename it")
                }
                body = try ExternalEditor.edit(target.body ?? "", label: target.name)
                if body == target.body { return }
            }
            try store.edit(target.id, name: name, body: body)
        }
    }
}

/// Runs the person's editor on a temporary copy of a text.
enum ExternalEditor {
    static func edit(_ text: String, label: String) throws -> String {
        let environment = ProcessInfo.processInfo.environment
        guard let editor = [environment["VISUAL"], environment["EDITOR"]].compactMap({ $0 }).first(where: { !$0.isEmpty })
        else {
            throw InputError.usage("no editor: set VISUAL or EDITOR, or give --body or --body-file")
        }
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("notes-edit-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("note.md")
        try Data(text.utf8).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "\(editor) \"$1\"", "sh", file.path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw InputError.data("the editor '\(editor)' failed (status \(process.terminationStatus)); nothing was saved")
        }
        return try TextInput.read(path: file.path)
    }
}
