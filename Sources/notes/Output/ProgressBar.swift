import Foundation
import NoteSync

/// A progress line on standard error while an import applies several logs: a bar, the logs
/// and changes applied and the rate, redrawn at most ten times a second and cleared at the end.
/// Nothing when standard error is not a terminal.
final class ProgressBar {
    private let isTerminal = isatty(2) == 1
    private var lastDrawn: Date?
    private var shown = false

    func update(_ progress: ImportProgress) {
        guard isTerminal, progress.logsToApply > 1 else { return }
        let now = Date()
        let done = progress.logsApplied >= progress.logsToApply
        if !done, let last = lastDrawn, now.timeIntervalSince(last) < 0.1 { return }
        lastDrawn = now
        Self.write("\r\u{1B}[K" + Self.line(progress, now: now))
        shown = true
    }

    /// Clears the line, before the command prints what it did.
    func finish() {
        if shown { Self.write("\r\u{1B}[K") }
        shown = false
    }

    static func line(_ progress: ImportProgress, now: Date) -> String {
        let width = 24
        let filled = min(width, Int((progress.fraction * Double(width)).rounded(.down)))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        return "importing [\(bar)] \(progress.logsApplied)/\(progress.logsToApply) logs, "
            + "\(grouped(progress.changesApplied)) changes, \(grouped(Int(progress.rate(now: now)))) changes/s"
    }

    private static func grouped(_ number: Int) -> String {
        let digits = String(number)
        var result = ""
        for (index, character) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return result
    }

    private static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
