import ArgumentParser
import Foundation
import NoteStore

/// `--body TEXT` or `--body-file PATH`, for the commands that set a note's body.
struct BodyOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The body text.", valueName: "TEXT"))
    var body: String?

    @Option(help: ArgumentHelp("Read the body from a file ('-' for standard input).", valueName: "PATH"))
    var bodyFile: String?

    func validate() throws {
        if body != nil && bodyFile != nil {
            throw ValidationError("give either --body or --body-file, not both")
        }
    }

    /// The body given by an option, or nil when neither option was given.
    func givenBody() throws -> String? {
        if let body { return body }
        guard let bodyFile else { return nil }
        if bodyFile == "-" { return try TextInput.read(FileHandle.standardInput, name: "standard input") }
        return try TextInput.read(path: bodyFile)
    }
}

/// Reads text given as input: a file, or standard input, bounded by the store's body limit.
enum TextInput {
    static func read(path: String) throws -> String {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw InputError.file(path: path, reason: "no such file")
        }
        if isFolder.boolValue { throw InputError.file(path: path, reason: "it is a folder") }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw InputError.file(path: path, reason: String(cString: strerror(errno)).lowercased())
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        return try read(handle, name: path)
    }

    /// Reads at most one byte over the limit, so that a huge input is refused without
    /// being read whole.
    static func read(_ handle: FileHandle, name: String) throws -> String {
        let data: Data
        do {
            data = try handle.read(upToCount: Item.maximumBodyBytes + 1) ?? Data()
        } catch {
            throw InputError.file(path: name, reason: String(describing: error))
        }
        if data.count > Item.maximumBodyBytes {
            throw InputError.data(
                "cannot use '\(name)' as a body: it is larger than the limit of 10 MB (\(Item.maximumBodyBytes) bytes)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw InputError.data("cannot use '\(name)' as a body: it is not UTF-8 text")
        }
        return text
    }

    /// Whether standard input is a pipe or a file (and not a terminal or /dev/null).
    static var standardInputIsPiped: Bool {
        var info = stat()
        guard fstat(0, &info) == 0 else { return false }
        let type = info.st_mode & S_IFMT
        return type == S_IFIFO || type == S_IFREG
    }
}
