import Foundation
import GRDB

/// The save's stamp was not above a stamp of a value it replaces: the save runs again with a
/// clock of at least `floor`.
struct StampBelowReplaced: Error {
    let floor: UInt64
}

extension SaveWriter {
    /// Runs one save in a savepoint of the transaction `db` is in, with a stamp above the stamp
    /// of every value it replaces (docs/sync-format.md, "Clocks and stamps").
    ///
    /// The save's clock is the store's clock ticked at `now`. A value it replaces may carry a
    /// greater stamp: one of a device whose wall clock runs ahead, which this device's clock
    /// adopted only up to a minute past its own. Every other device would then keep that value
    /// and this device show its own: so when `body` finds such a stamp (``finish()`` tells), the
    /// savepoint is rolled back and the save made again with a clock above it. The second run
    /// replaces the same values (nothing else wrote meanwhile), so it runs at most twice.
    static func writing<T>(
        _ db: Database, now: Date, device: UUID, _ body: (inout SaveWriter) throws -> T
    ) throws -> T {
        var floor: UInt64 = 0
        while true {
            var result: T?
            do {
                try db.inSavepoint {
                    var writer = SaveWriter(db: db, now: now, device: device, floor: floor)
                    result = try body(&writer)
                    return .commit
                }
                guard let result else { preconditionFailure("a committed save has a result") }
                return result
            } catch let raise as StampBelowReplaced where raise.floor > floor {
                floor = raise.floor
            }
        }
    }

    /// Notes the stamps of the `properties` of a row that the save replaces (`nil`: all of
    /// them), from the row's `stamps` JSON; a property without a stamp of its own has the
    /// row's `"*"` stamp.
    mutating func replacing(_ stampsJSON: String?, _ properties: [String]? = nil) {
        let stamps = Replica.stamps(stampsJSON)
        let found = properties.map { names in names.compactMap { stamps[$0] ?? stamps["*"] } } ?? Array(stamps.values)
        guard let greatest = found.max() else { return }
        if replaced.map({ $0 < greatest }) ?? true { replaced = greatest }
    }

    /// Throws ``StampBelowReplaced`` when the save's stamp is not above every stamp it
    /// replaces and a greater clock can be had.
    func checkStampAboveReplaced() throws {
        guard let replaced, replaced >= stamp else { return }
        let floor = replaced.clock >= HybridClock.maximum ? HybridClock.maximum : replaced.clock + 1
        // At the largest clock the stamps tie on it, ordered by device id.
        guard floor > stamp.clock else { return }
        throw StampBelowReplaced(floor: floor)
    }
}
