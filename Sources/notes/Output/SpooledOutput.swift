import Foundation
import NoteTerminal

#if canImport(Glibc)
    import Glibc
#endif

/// Output made while the store's read transaction is open and written to standard output
/// once it is over: a command that wrote into a pager the person has not scrolled would hold
/// its transaction, and keep every other process from checkpointing the store's WAL, for as
/// long as the pager waits. Up to ``memoryLimit`` bytes are kept in memory and the rest in a
/// temporary file without a name, so that what the command holds does not grow with its
/// output (without a temporary file, all of it in memory). The text goes through
/// ``TerminalText`` as ``print(_:separator:terminator:)`` sends it.
final class SpooledOutput {
    static let memoryLimit = 64 << 10

    private var buffer: [UInt8] = []
    private var file: UnsafeMutablePointer<FILE>?
    /// Whether a temporary file was tried and could not be made: the output then stays in
    /// memory.
    private var withoutFile = false

    deinit {
        if let file { fclose(file) }
    }

    /// Appends text, escaped for the terminal; JSON text with `json`, escaped the JSON way
    /// (``TerminalText/escapedJSON(_:)``), so that it is still the same JSON.
    func append(_ text: String, json: Bool = false) throws {
        let safe = json ? TerminalText.escapedJSON(text) : TerminalText.escaped(text, keepingLayout: true)
        buffer.append(contentsOf: safe.utf8)
        if buffer.count >= Self.memoryLimit && !withoutFile { try spill() }
    }

    /// Moves what is in memory to the temporary file, made in `TMPDIR` (else `/tmp`) and
    /// removed at once, so that nothing is left behind; closed on exec, so that the pager
    /// does not inherit it.
    private func spill() throws {
        if file == nil {
            file = Self.temporaryFile()
            guard file != nil else {
                withoutFile = true
                return
            }
        }
        guard fwrite(buffer, 1, buffer.count, file) == buffer.count else { throw Self.failure("write") }
        buffer.removeAll(keepingCapacity: true)
    }

    private static func temporaryFile() -> UnsafeMutablePointer<FILE>? {
        let folder = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(folder)/notes-output-XXXXXX".utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { return nil }
        unlink(template)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        guard let file = fdopen(descriptor, "w+") else {
            close(descriptor)
            return nil
        }
        return file
    }

    /// Writes all of it to standard output, in order.
    func write() throws {
        fflush(nil)
        if let file {
            guard fflush(file) == 0 else { throw Self.failure("write") }
            guard fseek(file, 0, SEEK_SET) == 0 else { throw Self.failure("read") }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = fread(&chunk, 1, chunk.count, file)
                try Self.writeOut(chunk[..<count])
                if count < chunk.count { break }
            }
            guard ferror(file) == 0 else { throw Self.failure("read") }
        }
        try Self.writeOut(buffer[...])
    }

    /// Writes bytes to standard output, all of them.
    private static func writeOut(_ bytes: ArraySlice<UInt8>) throws {
        if !bytes.isEmpty { try FileHandle.standardOutput.write(contentsOf: Data(bytes)) }
    }

    private static func failure(_ verb: String) -> CocoaError {
        CocoaError(
            verb == "read" ? .fileReadUnknown : .fileWriteUnknown,
            userInfo: [
                NSLocalizedDescriptionKey:
                    "cannot \(verb) the temporary file that holds the output: \(String(cString: strerror(errno)))"
            ])
    }
}

/// The text of a JSON array written an element at a time, as `JSONEncoder` writes the whole
/// array (pretty, with sorted keys and slashes as they are, or compact): each element is
/// encoded on its own, since the encoder holds the values of all it encodes at once,
/// several times the text.
struct JSONArrayText {
    private let encoder = JSONEncoder()
    private let compact: Bool
    private var count = 0

    init(compact: Bool) {
        self.compact = compact
        encoder.outputFormatting =
            compact ? [.sortedKeys, .withoutEscapingSlashes] : [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    }

    /// The text of the next element, with what comes before it.
    mutating func element(_ value: some Encodable) throws -> String {
        var bytes = Array((count == 0 ? (compact ? "[" : "[\n") : (compact ? "," : ",\n")).utf8)
        count += 1
        let encoded = try encoder.encode(value)
        guard !compact else {
            bytes.append(contentsOf: encoded)
            return String(decoding: bytes, as: UTF8.self)
        }
        // Indented as an element of the array: every line that is not empty.
        var startsLine = true
        for byte in encoded {
            if startsLine && byte != UInt8(ascii: "\n") { bytes.append(contentsOf: [0x20, 0x20]) }
            bytes.append(byte)
            startsLine = byte == UInt8(ascii: "\n")
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The end of the array: `[]` when it has no element.
    func end() -> String {
        count == 0 ? "[]\n" : (compact ? "]\n" : "\n]\n")
    }
}
