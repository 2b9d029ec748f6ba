import Foundation
import NoteStore

/// How far an import of other devices' logs has come.
public struct ImportProgress: Sendable, Equatable {
    /// The logs applied so far by this import.
    public var logsApplied: Int
    /// The logs there were to apply when the import listed the container (more may come).
    public var logsToApply: Int
    /// The changes applied so far.
    public var changesApplied: Int
    /// The changes of the log being applied that are applied, and how many it holds.
    public var changesInLog: (applied: Int, total: Int)
    public var started: Date

    /// Done, as a fraction: whole logs, and the part of the one being applied.
    public var fraction: Double {
        guard logsToApply > 0 else { return 1 }
        let part = changesInLog.total > 0 ? Double(changesInLog.applied) / Double(changesInLog.total) : 0
        return min(1, (Double(logsApplied) + part) / Double(logsToApply))
    }

    /// Changes applied per second since the import started.
    public func rate(now: Date = Date()) -> Double {
        let seconds = now.timeIntervalSince(started)
        return seconds > 0 ? Double(changesApplied) / seconds : 0
    }

    public static func == (a: ImportProgress, b: ImportProgress) -> Bool {
        a.logsApplied == b.logsApplied && a.logsToApply == b.logsToApply && a.changesApplied == b.changesApplied
            && a.changesInLog == b.changesInLog && a.started == b.started
    }
}

/// A catch-up in progress, as `notes sync status` shows it: the importing process keeps the
/// file `catch-up.json` in the store folder while it applies several logs, and removes it when
/// it ends. A file whose process is gone is not a catch-up.
public struct CatchUp: Sendable, Equatable {
    public let process: Int32
    public let logsApplied: Int
    public let logsToApply: Int
    public let changesApplied: Int
    public let started: Date

    static let fileName = "catch-up.json"

    /// The catch-up of the store in `folder`, when a live process is in one.
    public static func current(in folder: URL) -> CatchUp? {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent(fileName)),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let process = (object["process"] as? NSNumber)?.int32Value,
            let applied = (object["logsApplied"] as? NSNumber)?.intValue,
            let total = (object["logsToApply"] as? NSNumber)?.intValue,
            let changes = (object["changesApplied"] as? NSNumber)?.intValue,
            let started = (object["started"] as? String).flatMap(ISODate.date(from:)),
            process > 0, kill(process, 0) == 0 || errno == EPERM
        else { return nil }
        return CatchUp(
            process: process, logsApplied: applied, logsToApply: total, changesApplied: changes, started: started)
    }

    /// Writes the file for `progress` (a temporary file renamed over it, so that a reader never
    /// sees half of one).
    static func record(_ progress: ImportProgress, in folder: URL) {
        let object: [String: Any] = [
            "process": Int(getpid()), "logsApplied": progress.logsApplied, "logsToApply": progress.logsToApply,
            "changesApplied": progress.changesApplied, "started": progress.started.isoText,
        ]
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
        let target = folder.appendingPathComponent(fileName)
        let temporary = folder.appendingPathComponent(".\(fileName).\(getpid())")
        guard (try? data.write(to: temporary)) != nil else { return }
        if rename(temporary.path, target.path) != 0 { try? FileManager.default.removeItem(at: temporary) }
    }

    static func clear(in folder: URL) {
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(fileName))
    }
}

/// Reports an import's progress to a closure, and to `catch-up.json` while there are several
/// logs to apply, at most a few times a second.
final class ProgressReporter {
    private let folder: URL
    private let report: ((ImportProgress) -> Void)?
    private(set) var progress: ImportProgress
    private var lastRecorded: Date?
    private var recording = false

    init(folder: URL, report: ((ImportProgress) -> Void)?) {
        self.folder = folder
        self.report = report
        progress = ImportProgress(
            logsApplied: 0, logsToApply: 0, changesApplied: 0, changesInLog: (0, 0), started: Date())
    }

    func start(logsToApply: Int) {
        progress.logsToApply = logsToApply
        recording = logsToApply > 1
        publish(force: true)
    }

    func changeApplied(of total: Int) {
        progress.changesApplied += 1
        progress.changesInLog = (progress.changesInLog.applied + 1, total)
        if progress.changesInLog.applied % 500 == 0 { publish(force: false) }
    }

    func logApplied() {
        progress.logsApplied += 1
        progress.logsToApply = max(progress.logsToApply, progress.logsApplied)
        progress.changesInLog = (0, 0)
        publish(force: false)
    }

    func finish() {
        if recording { CatchUp.clear(in: folder) }
        report?(progress)
    }

    private func publish(force: Bool) {
        let now = Date()
        if recording, force || lastRecorded.map({ now.timeIntervalSince($0) >= 0.25 }) ?? true {
            CatchUp.record(progress, in: folder)
            lastRecorded = now
        }
        report?(progress)
    }
}
