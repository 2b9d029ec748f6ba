import Foundation
import NoteStore

/// How far clocks read from the cloud may move this device's clock, and which devices run
/// ahead of it (docs/sync-format.md, "Clocks and stamps").
///
/// A hybrid logical clock adopts every clock it sees, so that an edit made after seeing
/// another gets the greater stamp. Adopted without a bound, one device with a wrong wall clock
/// (or one hand-made log) pushes every device's clock years ahead, up to the largest clock the
/// format holds, after which no device can write a greater one. So a clock is adopted only up
/// to ``adoptionBound`` past this device's wall clock; a change beyond it still applies, with
/// its stamp as it is, and its device is reported. The bound is the report threshold: a device
/// that adopted a clock never runs far enough ahead to be reported itself. (A save that
/// replaces a value stamped further ahead is stamped above it all the same, in NoteStore's
/// `SaveWriter`: that device then runs ahead, and is reported.)
public enum ClockSkew {
    /// How far ahead a device's clock must run for `sync status` and `notes watch` to name it.
    static let reportThreshold: TimeInterval = 60
    /// How far past this device's wall clock an imported clock may move its clock.
    static let adoptionBound: TimeInterval = reportThreshold

    /// The clock to adopt for a clock seen in a log, at wall time `now`.
    static func adoptable(_ clock: UInt64, now: Date) -> UInt64 {
        let bound = HybridClock.physical(now.addingTimeInterval(adoptionBound))
        return min(clock, bound)
    }

    /// How far the save clocks of a log run ahead of `now`, when past the report threshold.
    static func ahead(of log: TransactionLog, now: Date) -> TimeInterval? {
        // Changes that carry stamps (a snapshot) may hold other devices' clocks; a save's
        // changes carry the writer's clock alone.
        guard let clock = log.changes.lazy.filter({ $0.stamps.isEmpty }).map(\.clock).max() else { return nil }
        let ahead = Double(HybridClock.milliseconds(of: clock)) / 1000 - now.timeIntervalSince1970
        return ahead > reportThreshold ? ahead : nil
    }

    /// A span of time as a person reads it: `3 minutes`, `5 hours`, `365 days`, `4,500 years`.
    public static func describe(_ seconds: TimeInterval) -> String {
        func plural(_ value: Double, _ unit: String) -> String {
            let rounded = Int(value.rounded(.down))
            let number = NumberFormatter.localizedString(from: NSNumber(value: rounded), number: .decimal)
            return "\(number) \(unit)\(rounded == 1 ? "" : "s")"
        }
        switch seconds {
        case ..<3600: return plural(seconds / 60, "minute")
        case ..<(2 * 86400): return plural(seconds / 3600, "hour")
        case ..<(2 * 365 * 86400): return plural(seconds / 86400, "day")
        default: return plural(seconds / (365.25 * 86400), "year")
        }
    }
}
