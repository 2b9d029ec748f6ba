import ArgumentParser
import Foundation
import NoteSync
import NoteTerminal

#if canImport(Glibc)
    import Glibc
#endif

/// Where the passphrase of an encrypted container comes from, never from the command line:
/// `--passphrase-file`, else `NOTES_PASSPHRASE`, else a prompt on the terminal (asked twice for
/// a new container). With none of them, the command says how to give one.
struct PassphraseOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Read the passphrase of the encrypted container from this file (its first line); "
                + "else NOTES_PASSPHRASE, else a prompt on the terminal.",
            valueName: "PATH"),
        completion: .file())
    var passphraseFile: String?

    /// The source the sync engine asks when it needs a passphrase; `newPassphraseFile` gives
    /// the new one of `notes sync passphrase`.
    func source(newPassphraseFile: String? = nil) -> PassphraseSource {
        let file = passphraseFile
        return { request in
            switch request {
            case let .create(container):
                return try Self.given(file: file, variable: "NOTES_PASSPHRASE")
                    ?? PassphrasePrompt.ask("new passphrase for '\(container)'", twice: true)
            case let .unlock(container):
                return try Self.given(file: file, variable: "NOTES_PASSPHRASE")
                    ?? PassphrasePrompt.ask("passphrase for '\(container)'", twice: false)
            case let .change(container):
                return try Self.given(file: newPassphraseFile, variable: "NOTES_NEW_PASSPHRASE")
                    ?? PassphrasePrompt.ask("new passphrase for '\(container)'", twice: true)
            }
        }
    }

    /// The passphrase in `file`, else in the environment variable, else nil.
    private static func given(file: String?, variable: String) throws -> String? {
        if let file {
            // The first line is read, never more than 64 KiB of the file: a device given by
            // mistake (/dev/zero) ends the command instead of filling memory.
            let limit = 64 << 10
            let handle = FileHandle(forReadingAtPath: file)
            guard let handle, let data = try? handle.read(upToCount: limit + 1) ?? Data() else {
                let reason = FileManager.default.fileExists(atPath: file) ? "it cannot be read" : "it does not exist"
                throw InputError.file(path: file, reason: reason)
            }
            try? handle.close()
            let firstLine = data.firstIndex(of: 0x0A).map { data[..<$0] } ?? data
            guard firstLine.count <= limit else {
                throw InputError.file(
                    path: file, reason: "its first line is longer than 64 KiB: no passphrase file's is")
            }
            guard let line = String(data: firstLine, encoding: .utf8) else {
                throw InputError.file(path: file, reason: "it is not UTF-8 text")
            }
            let passphrase = line.hasSuffix("\r") ? String(line.dropLast()) : line
            guard !passphrase.isEmpty else {
                throw InputError.file(path: file, reason: "its first line is empty: no passphrase")
            }
            return passphrase
        }
        if let value = ProcessInfo.processInfo.environment[variable] {
            guard !value.isEmpty else { throw InputError.usage("\(variable) is set but empty") }
            return value
        }
        return nil
    }
}

/// A passphrase typed on the controlling terminal, without echo.
enum PassphrasePrompt {
    /// The passphrase typed after `prompt`, asked again to confirm with `twice`; nil when the
    /// process has no terminal.
    static func ask(_ prompt: String, twice: Bool) throws -> String? {
        let tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard tty >= 0 else { return nil }
        defer { close(tty) }
        let first = try read(TerminalText.escaped(prompt, keepingLayout: false) + ": ", tty: tty)
        guard !first.isEmpty else { throw InputError.usage("no passphrase was typed") }
        if twice {
            guard try read("again, to confirm: ", tty: tty) == first else {
                throw InputError.usage("the two passphrases typed differ")
            }
        }
        return first
    }

    /// One line typed on `tty` after `prompt`, with echo off while it is typed. Keys make no
    /// signal meanwhile, so that the terminal is always given back as it was: Ctrl-C and
    /// Ctrl-D cancel.
    private static func read(_ prompt: String, tty: Int32) throws -> String {
        _ = prompt.withCString { write(tty, $0, strlen($0)) }
        var saved = termios()
        let hasSettings = tcgetattr(tty, &saved) == 0
        if hasSettings {
            var quiet = saved
            // Byte at a time, no echo, no signals: this reads the line and its erasures itself.
            quiet.c_lflag &= ~tcflag_t(ECHO | ISIG | ICANON)
            withUnsafeMutableBytes(of: &quiet.c_cc) { cc in
                cc[Int(VMIN)] = 1
                cc[Int(VTIME)] = 0
            }
            // TCSANOW: what was typed ahead of the prompt stays to be read.
            tcsetattr(tty, TCSANOW, &quiet)
        }
        defer {
            if hasSettings { tcsetattr(tty, TCSANOW, &saved) }
            _ = write(tty, "\n", 1)
        }
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = Glibc.read(tty, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { break }
            switch byte {
            case 0x03:  // Ctrl-C
                throw InputError.usage("cancelled: no passphrase was given")
            case 0x04:  // Ctrl-D: cancels on an empty line, else is ignored
                if bytes.isEmpty { throw InputError.usage("cancelled: no passphrase was given") }
            case 0x7f, 0x08:  // erase one character, with the continuation bytes of its UTF-8
                while let last = bytes.popLast(), last & 0xc0 == 0x80 {}
            case 0x15:  // Ctrl-U: erase the line
                bytes.removeAll()
            default:
                bytes.append(byte)
            }
        }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        guard let text = String(bytes: bytes, encoding: .utf8) else {
            throw InputError.usage("the passphrase typed is not UTF-8 text")
        }
        return text
    }
}
