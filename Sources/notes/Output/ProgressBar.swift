import Foundation
import NoteSync

/// A progress line on standard error: a bar, counts and a rate, redrawn at most ten times a
/// second and cleared at the end; nothing when standard error is not a terminal. For an import
/// of several logs (``update(_:)``) and for work counted in items, such as an export
/// (``update(_:of:)``).
final class ProgressBar {
    private let isTerminal = isatty(2) == 1
    private var lastDrawn: Date?
    private var shown = false
    private let started = Date()
    /// For work counted in items: what is being done, and to what (`exporting`, `notes`).
    private let verb: String
    private let unit: String

    init(verb: String = "importing", unit: String = "notes") {
        self.verb = verb
        self.unit = unit
    }

    func update(_ progress: ImportProgress) {
        guard progress.logsToApply > 1 else { return }
        draw(done: progress.logsApplied >= progress.logsToApply) { Self.line(progress, now: $0) }
    }

    /// `done` of `total` items; shown only for more than a few hundred.
    func update(_ done: Int, of total: Int) {
        guard total > 300 else { return }
        draw(done: done >= total) { now in
            let rate = Int(Double(done) / max(now.timeIntervalSince(self.started), 0.001))
            return
                "\(self.verb) [\(Self.bar(Double(done) / Double(total)))] \(Self.grouped(done))/\(Self.grouped(total)) "
                + "\(self.unit), \(Self.grouped(rate)) \(self.unit)/s"
        }
    }

    private func draw(done: Bool, _ line: (Date) -> String) {
        guard isTerminal else { return }
        let now = Date()
        if !done, let last = lastDrawn, now.timeIntervalSince(last) < 0.1 { return }
        lastDrawn = now
        Self.write("\r\u{1B}[K" + line(now))
        shown = true
    }

    /// Clears the line, before the command prints what it did.
    func finish() {
        if shown { Self.write("\r\u{1B}[K") }
        shown = false
    }

    static func line(_ progress: ImportProgress, now: Date) -> String {
        return "importing [\(bar(progress.fraction))] \(progress.logsApplied)/\(progress.logsToApply) logs, "
            + "\(grouped(progress.changesApplied)) changes, \(grouped(Int(progress.rate(now: now)))) changes/s"
    }

    private static func bar(_ fraction: Double) -> String {
        let width = 24
        let filled = max(0, min(width, Int((fraction * Double(width)).rounded(.down))))
        return String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
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
