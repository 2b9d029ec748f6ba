import Foundation
import Logging
import NoteTerminal

/// A log handler that writes each message on a line of standard error after the command's
/// name (`notes watch: watching '…'`), made safe for a terminal. Levels and metadata stay out
/// of the line: people read it, and so do scripts and tests.
struct StandardErrorLog: LogHandler {
    /// What each line starts with, before a colon: `notes watch`.
    let prefix: String
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    init(prefix: String, level: Logger.Level) {
        self.prefix = prefix
        self.logLevel = level
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let text = TerminalText.escaped(event.message.description, keepingLayout: false)
        FileHandle.standardError.write(Data("\(prefix): \(text)\n".utf8))
    }

    /// The level of a command's log: `notice` by default, one level more for each `-v`
    /// (`info`, `debug`, `trace`), or `NOTES_LOG_LEVEL` (`trace` to `critical`) when that says
    /// more.
    static func level(verbose: Int, environment: [String: String] = ProcessInfo.processInfo.environment) -> Logger.Level
    {
        let levels: [Logger.Level] = [.notice, .info, .debug, .trace]
        let flagged = levels[min(max(verbose, 0), levels.count - 1)]
        guard let named = environment["NOTES_LOG_LEVEL"].flatMap({ Logger.Level(rawValue: $0.lowercased()) }) else {
            return flagged
        }
        return min(flagged, named)
    }
}
