import Foundation
import NoteStore
import NoteText

/// Makes the bodies that the changes of a log carry as deltas (docs/sync-format.md, 5.3,
/// "delta"), from the versions the store holds and the bodies of earlier changes of the log.
///
/// ``check(_:)`` makes every body of a log before any change of it is applied, so that a log
/// whose delta cannot be used touches nothing: a base this device does not hold passes the log
/// over (its writer publishes its content again), a delta that does not make its text makes
/// the log damaged.
struct DeltaReader {
    /// Why the deltas of a log cannot be used.
    enum Failure: Error {
        /// A delta's base is not a version this device holds.
        case missingBase
        /// A delta that does not read, does not fit its base, or makes another text than its
        /// hash: the log is damaged.
        case damaged(LogProblem)
    }

    /// The bodies ``check(_:)`` keeps for the changes that carry deltas, at most: more are
    /// made again when applied.
    static let keptBytes = 64 << 20

    let replica: Replica
    /// The writer of the log.
    let device: UUID
    /// The bodies earlier logs of the same import carried, to make deltas against.
    let earlier: CarriedBodies?
    /// Per note, the last body an earlier change of the log carried, with its stamp.
    private var carried: [UUID: (stamp: ChangeStamp, text: String)] = [:]
    /// Bodies made by ``check(_:)``, by the change's place in the log.
    private var made: [Int: String] = [:]
    /// The places in the log of the changes whose delta made another text than its base's.
    private var changedBase: Set<Int> = []

    init(replica: Replica, device: UUID, earlier: CarriedBodies? = nil) {
        self.replica = replica
        self.device = device
        self.earlier = earlier
    }

    /// Makes every body the log carries as a delta, in file order, without applying anything.
    mutating func check(_ log: TransactionLog) throws(Failure) {
        guard log.changes.contains(where: { $0.bodyDelta != nil }) else { return }
        var kept = 0
        for (index, change) in log.changes.enumerated() {
            guard let text = try body(of: change, at: index), change.bodyDelta != nil else { continue }
            if kept + text.utf8.count <= Self.keptBytes {
                made[index] = text
                kept += text.utf8.count
            }
        }
        carried = [:]
    }

    /// The change as it reads with its body whole: its delta made into `values["body"]`. The
    /// delta stays, checked, for history to store the version as (``HistoryMerger``).
    mutating func whole(_ change: LogChange, at index: Int) throws(Failure) -> LogChange {
        guard let text = try body(of: change, at: index), change.bodyDelta != nil else { return change }
        var change = change
        change.values.set(HistoryProperty.body.rawValue, .text(text))
        return change
    }

    /// Whether the delta of the change at `index` (made by ``check(_:)`` or ``whole(_:at:)``)
    /// made another text than that of its base. False when it made the same text, or when the
    /// change carries no delta.
    func changesItsBase(at index: Int) -> Bool {
        changedBase.contains(index)
    }

    /// The body the change carries, whole or as a delta; nil when it carries none.
    private mutating func body(of change: LogChange, at index: Int) throws(Failure) -> String? {
        let stamp = change.stamp(of: HistoryProperty.body.rawValue, device: device)
        if case let .text(text)? = change.values[HistoryProperty.body.rawValue] {
            carried[change.object] = (stamp, text)
            earlier?.keep(text, of: change.object, at: stamp)
            return text
        }
        guard let delta = change.bodyDelta else { return nil }
        let text: String
        var base: String?
        if let known = made[index] {
            text = known
        } else if let last = carried[change.object], last.stamp == delta.base {
            do {
                text = try delta.text(from: last.text)
            } catch {
                throw .damaged(error)
            }
            base = last.text
        } else if let known = earlier?.text(of: change.object, at: delta.base),
            try hasVersion(change.object, delta.base),
            let made = try? delta.text(from: known)
        {
            // Only for a version the store holds: a log skipped or passed over after an earlier
            // one carried it leaves it out. Checked against the delta's SHA-256: else the store's
            // text of the version is used.
            (text, base) = (made, known)
        } else if let current = try currentBody(of: change.object, ifItsStampIs: delta.base),
            let made = try? delta.text(from: current)
        {
            (text, base) = (made, current)
        } else {
            let stored: String?
            do {
                stored = try replica.text(of: change.object, .body, at: delta.base)
            } catch {
                stored = nil
            }
            guard let stored else { throw .missingBase }
            do {
                text = try delta.text(from: stored)
            } catch {
                throw .damaged(error)
            }
            base = stored
        }
        if let base, !base.hasSameBytes(as: text) { changedBase.insert(index) }
        carried[change.object] = (stamp, text)
        earlier?.keep(text, of: change.object, at: stamp)
        return text
    }

    /// Whether the store holds the version `stamp` of the note's body.
    private func hasVersion(_ note: UUID, _ stamp: ChangeStamp) throws(Failure) -> Bool {
        do {
            return try replica.hasVersion(of: note, .body, at: stamp)
        } catch {
            return false
        }
    }

    /// The note's body as the store holds it now, when the stamp of its last change is `base`:
    /// then it is the text of that version, read at once rather than made again from the
    /// deltas that history keeps it as (up to 50 of them on a long note). The text the delta
    /// makes of it is checked against the delta's SHA-256 all the same, and when it does not
    /// match, the version's text is made from history.
    private func currentBody(of note: UUID, ifItsStampIs base: ChangeStamp) throws(Failure) -> String? {
        do {
            guard try replica.state(of: note)?.stamp(of: HistoryProperty.body.rawValue) == base else { return nil }
            return try replica.currentText(of: note, .body)
        } catch {
            return nil
        }
    }
}

/// The last body that the logs of one import carried for each note (whole, or made from a
/// delta), with its version's stamp: a delta of the next log is made against it without reading
/// the note's body from the store, where a new device joining by the logs read 10 MB for each
/// edit of a long note. A version's text never changes; one that a log carried wrongly fails
/// the delta's SHA-256, and the store's text is used instead.
final class CarriedBodies {
    /// The bytes of bodies kept, at most: a body that would pass it makes room by dropping the
    /// others.
    static let keptBytes = 32 << 20

    private var bodies: [UUID: (stamp: ChangeStamp, text: String)] = [:]
    private var bytes = 0

    func text(of note: UUID, at stamp: ChangeStamp) -> String? {
        bodies[note].flatMap { $0.stamp == stamp ? $0.text : nil }
    }

    /// Keeps `text` as the note's last body, in place of the one before; nothing for a body
    /// shorter than a delta is ever made against.
    func keep(_ text: String, of note: UUID, at stamp: ChangeStamp) {
        let size = text.utf8.count
        let replaced = bodies.removeValue(forKey: note)
        bytes -= replaced?.text.utf8.count ?? 0
        guard size >= BodyDelta.minimumBodyBytes, size <= Self.keptBytes else { return }
        if bytes + size > Self.keptBytes {
            bodies.removeAll()
            bytes = 0
        }
        bodies[note] = (stamp, text)
        bytes += size
    }
}
