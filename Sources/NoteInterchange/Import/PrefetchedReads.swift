import Foundation

/// The notes of a tree not read yet (``ImportEntry/reading``), read ahead on a thread of
/// their own in the order of the tree, which is the order an import comes to them: each note
/// before the next, a collection's notes where the collection is.
///
/// A reader registers each note's read as it builds the tree (``add(_:)``), and gives the note
/// a reading that takes what the thread read (``take(_:)``). The thread starts at the first
/// take, and stops when the tree is gone. A note an import passes over (inside a collection
/// it skips) is dropped when a later one is taken.
final class PrefetchedReads: @unchecked Sendable {
    typealias Read = (entry: ImportEntry?, problems: [String])

    private let lock = NSLock()
    private var reads: [@Sendable () -> Read] = []
    private var readAhead: ReadAhead<(number: Int, read: Read)>?
    /// A read taken from the thread ahead of the note asked for, kept for its turn.
    private var waiting: (number: Int, read: Read)?

    /// Registers the read of the next note of the tree; returns its number.
    func add(_ read: @escaping @Sendable () -> Read) -> Int {
        lock.withLock {
            reads.append(read)
            return reads.count - 1
        }
    }

    /// What the thread read for note `number`. A note asked for out of order (not how an
    /// import asks) is read here.
    func take(_ number: Int) -> Read {
        lock.lock()
        defer { lock.unlock() }
        if let waiting, waiting.number >= number {
            guard waiting.number == number else { return reads[number]() }
            self.waiting = nil
            return waiting.read
        }
        if readAhead == nil {
            let reads = self.reads
            let start = number
            readAhead = ReadAhead { send in
                for number in start..<reads.count {
                    guard send((number, reads[number]())) else { return }
                }
            }
        }
        while let next = try? readAhead?.next() {
            if next.number == number { return next.read }
            if next.number > number {
                waiting = next
                return reads[number]()
            }
        }
        return reads[number]()
    }
}
