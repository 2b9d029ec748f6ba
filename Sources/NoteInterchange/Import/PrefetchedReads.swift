import Foundation

/// The notes of a tree not read yet (``ImportEntry/reading``), read ahead on a thread of
/// their own in the order an import comes to them: each note before the next, a collection's
/// notes when the import reaches the collection.
///
/// ``entries`` is the tree with each note's reading replaced by one that takes what the
/// thread read. A note the import passes over (inside a collection it skips) is dropped when
/// a later one is taken.
final class PrefetchedReads: @unchecked Sendable {
    typealias Read = (entry: ImportEntry?, problems: [String])

    private(set) var entries: [ImportEntry] = []
    private var readAhead: ReadAhead<(number: Int, read: Read)>?
    private var readings: [@Sendable () -> Read] = []
    /// A read taken from the thread ahead of the note asked for, kept for its turn.
    private var waiting: (number: Int, read: Read)?

    init(_ tree: [ImportEntry]) {
        entries = tree.map(replacingReadings)
        guard !readings.isEmpty else { return }
        let readings = self.readings
        readAhead = ReadAhead { send in
            for (number, reading) in readings.enumerated() {
                guard send((number, reading())) else { return }
            }
        }
    }

    /// Stops the thread.
    func cancel() {
        readAhead?.cancel()
    }

    private func replacingReadings(_ entry: ImportEntry) -> ImportEntry {
        var entry = entry
        if let reading = entry.reading {
            let number = readings.count
            readings.append(reading)
            entry.reading = { [weak self] in self?.take(number) ?? reading() }
        }
        entry.children = entry.children.map(replacingReadings)
        return entry
    }

    /// What the thread read for note `number`. A note asked for out of order (not how an
    /// import asks) is read here.
    private func take(_ number: Int) -> Read {
        if let waiting, waiting.number >= number {
            guard waiting.number == number else { return readings[number]() }
            self.waiting = nil
            return waiting.read
        }
        while let next = try? readAhead?.next() {
            if next.number == number { return next.read }
            if next.number > number {
                waiting = next
                return readings[number]()
            }
        }
        return readings[number]()
    }
}
