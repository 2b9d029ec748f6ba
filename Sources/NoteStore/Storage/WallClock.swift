import Foundation

/// The wall clock a store reads: the time of its saves and the bound of the clocks it adopts
/// from other devices (docs/sync-format.md, "Clocks and stamps").
///
/// The system clock, except in tests that give each device of one process a clock of its own
/// (ahead, behind, jumping), as `faketime` does for a whole process.
public struct WallClock: Sendable {
    private let read: @Sendable () -> Date

    /// A clock that reads `read`.
    public init(_ read: @escaping @Sendable () -> Date) {
        self.read = read
    }

    /// The system's clock.
    public static let system = WallClock { Date() }

    /// Now, by this clock.
    public func now() -> Date { read() }

    /// Now, truncated to whole milliseconds: the precision at which the store keeps dates.
    func storeNow() -> Date {
        Date(storeMilliseconds: read().storeMilliseconds)
    }
}
