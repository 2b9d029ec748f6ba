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

        @Argument(help: "The item to edit.", completion: ItemCompletion.items)
        var item: String

        @Option(help: ArgumentHelp("The new name.", valueName: "NAME"))
        var name: String?

        @OptionGroup var bodyOptions: BodyOptions

        func run() throws {
            let store = try storeOptions.open()
            let target = try store.resolve(item)
            if let body = try bodyOptions.givenBody() {
                try store.edit(target.id, name: name, body: body)
                return
            }
            if let name {
                try store.edit(target.id, name: name)
                return
            }
            guard target.isNote else {
                throw InputError.usage("'\(item)' is a collection: give --name to rename it")
            }
            let editor = try ExternalEditor.find()
            let edited = try editor.edit(target.body ?? "", label: target.name)
            if edited == target.body { return }
            do {
                // A change made while the editor was open merges with this one, or, when both
                // changed the same lines, the save is refused and nothing is lost.
                if try store.edit(target.id, expecting: target, mergingBody: edited) {
                    print("merged with a change made while the editor was open (see 'notes history')")
                }
            } catch let error as StoreError {
                guard case .changedElsewhere = error else { throw error }
                let kept = try ExternalEditor.keep(edited, for: target)
                throw InputError.conflict(
                    "cannot save the body of '\(target.name)': it changed while the editor was open (on another device "
                        + "or in another process) on the same lines; your text is kept in '\(kept.path)'")
            }
        }
    }
}

/// The person's editor, run on a temporary copy of a text.
///
/// Found as `$VISUAL`, then `$EDITOR` (each a shell command, such as `code --wait`), then
/// Debian's `editor` alternative, then `vi`; these two only when standard input is a terminal,
/// since they need one.
struct ExternalEditor {
    /// The shell command that runs the editor.
    let command: String
    /// Where it came from, for messages: `VISUAL`, `EDITOR` or the fallback's name.
    let source: String

    static func find(
        environment: [String: String] = ProcessInfo.processInfo.environment, onTerminal: Bool = isatty(0) == 1
    ) throws -> ExternalEditor {
        for variable in ["VISUAL", "EDITOR"] {
            guard let command = environment[variable]?.trimmingCharacters(in: .whitespaces), !command.isEmpty else { continue }
            let program = command.split(separator: " ").first.map(String.init) ?? command
            guard Self.executable(program, path: environment["PATH"]) != nil else {
                throw InputError.usage("cannot run the editor '\(program)' (from \(variable)): not found; set \(variable) to an editor, or give --body or --body-file")
            }
            return ExternalEditor(command: command, source: variable)
        }
        guard onTerminal else {
            throw InputError.usage("no editor: set VISUAL or EDITOR ('editor' and 'vi' need a terminal), or give --body or --body-file")
        }
        for fallback in ["editor", "vi"] where Self.executable(fallback, path: environment["PATH"]) != nil {
            return ExternalEditor(command: fallback, source: fallback)
        }
        throw InputError.usage("no editor: set VISUAL or EDITOR (neither 'editor' nor 'vi' was found), or give --body or --body-file")
    }

    /// The path of `program`: itself when it holds a slash, else the first match on `PATH`.
    static func executable(_ program: String, path: String?) -> String? {
        if program.contains("/") { return FileManager.default.isExecutableFile(atPath: program) ? program : nil }
        for folder in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(folder)/\(program)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    func edit(_ text: String, label: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("notes-edit-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("note.md")
        try Data(text.utf8).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "\(command) \"$1\"", "sh", file.path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw InputError.data("the editor '\(command)' (from \(source)) failed (status \(process.terminationStatus)); nothing was saved")
        }
        return try TextInput.read(path: file.path)
    }

    /// Writes text that could not be saved to a private file of its own, and returns it.
    static func keep(_ text: String, for item: Item) throws -> URL {
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("notes-unsaved-\(item.id.storeString.prefix(8))-\(UUID().uuidString.prefix(4).lowercased()).md")
        guard FileManager.default.createFile(atPath: file.path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw InputError.output(path: file.path, reason: "cannot write the unsaved text")
        }
        return file
    }
}
