import Foundation
import Synchronization

/// Reads ahead on a thread of its own: while an import saves, files are opened and parsed on
/// one core while SQLite writes on the other; while an export renders a page of notes, the
/// next pages are read from the store (``ExportPage``).
///
/// `produce` runs on the thread and hands each element to `send`, in order;
/// ``next(whenWaiting:)`` gives them to the caller in that order. At most `capacity` elements
/// wait at a time, and at most `byteCapacity` of the bytes that `bytes` counts in them (at
/// least one batch waits whatever its bytes), so memory stays bounded however much there is
/// to read. ``cancel()`` (also on deinit) stops the thread at its next element; the elements
/// read and never given are passed to `discard`.
final class ReadAhead<Element: Sendable> {
    /// What an import saves at once: the thread reads the next save's notes while the current
    /// one is written.
    static var defaultCapacity: Int { Importer.batchItems }

    /// What an import reads ahead holds at most of the bytes it counts (images held in memory).
    static var defaultByteCapacity: Int { Importer.readAheadBytes }

    private let channel: Channel
    /// The batch the caller works through, and how far.
    private var current: [Element] = []
    private var currentIndex = 0
    private let discard: @Sendable (Element) -> Void

    /// `stackSize`: the thread's stack, in bytes (a walk of a deep folder tree recurses).
    init(
        capacity: Int = ReadAhead.defaultCapacity, byteCapacity: Int = ReadAhead.defaultByteCapacity,
        batchSize: Int = 64, stackSize: Int = 1 << 20, bytes: @escaping @Sendable (Element) -> Int = { _ in 0 },
        discard: @escaping @Sendable (Element) -> Void = { _ in },
        produce: @escaping @Sendable (_ send: (Element) -> Bool) throws -> Void
    ) {
        precondition(capacity > 0 && batchSize > 0, "a read-ahead holds at least one element")
        let channel = Channel(capacity: capacity, byteCapacity: byteCapacity, discard: discard)
        self.channel = channel
        self.discard = discard
        // The thread holds the channel, not this reader: dropping the reader cancels it.
        let thread = Thread {
            var batch: [Element] = []
            var batchBytes = 0
            batch.reserveCapacity(batchSize)
            func hand() -> Bool {
                defer {
                    batch.removeAll(keepingCapacity: true)
                    batchBytes = 0
                }
                guard channel.hand(batch, bytes: batchBytes) else {
                    batch.forEach(discard)
                    return false
                }
                return true
            }
            do {
                try produce { element in
                    // Cancelled: what was read is discarded at once, not a batch later.
                    guard !channel.isCancelled else {
                        discard(element)
                        batch.forEach(discard)
                        batch.removeAll()
                        return false
                    }
                    batch.append(element)
                    batchBytes += bytes(element)
                    if batch.count >= batchSize || batchBytes >= byteCapacity / 4 { return hand() }
                    return true
                }
                if !batch.isEmpty { _ = hand() }
                channel.end(nil)
            } catch {
                if !batch.isEmpty { _ = hand() }
                channel.end(error)
            }
        }
        thread.stackSize = stackSize
        thread.start()
    }

    deinit {
        cancel()
    }

    /// The next element; nil once everything is read. Throws what `produce` threw, after the
    /// elements it sent before. `whenWaiting` runs first when none is ready yet and the thread
    /// has more to read: work to do rather than wait.
    func next(whenWaiting: () throws -> Void = {}) throws -> Element? {
        if currentIndex < current.count {
            defer { currentIndex += 1 }
            return current[currentIndex]
        }
        if !channel.hasReady { try whenWaiting() }
        guard let batch = try channel.take() else { return nil }
        current = batch
        currentIndex = 1
        return batch[0]
    }

    /// Stops reading: the thread ends at its next element. The elements read and not given
    /// yet are discarded.
    func cancel() {
        current[currentIndex...].forEach(discard)
        current = []
        currentIndex = 0
        channel.cancel()
    }

    /// Batches between the thread and the caller: elements are handed over a batch at a
    /// time, since a lock per element would cost more than reading it.
    // Unchecked: every property is read and written with `condition` locked, whose waits a
    // Mutex does not offer.
    private final class Channel: @unchecked Sendable {
        private let condition = NSCondition()
        private var ready: [(batch: [Element], bytes: Int)] = []
        private var readyCount = 0
        private var readyBytes = 0
        private var finished = false
        private var failure: (any Error)?
        private let capacity: Int
        private let byteCapacity: Int
        /// Set by ``cancel()``, before it takes the lock: read by the thread before each
        /// element without the lock, and under it while a batch waits to be handed over.
        private let cancelledFlag = Atomic<Bool>(false)

        var isCancelled: Bool { cancelledFlag.load(ordering: .relaxed) }
        private let discard: @Sendable (Element) -> Void

        init(capacity: Int, byteCapacity: Int, discard: @escaping @Sendable (Element) -> Void) {
            self.capacity = capacity
            self.byteCapacity = byteCapacity
            self.discard = discard
        }

        /// Waits while `capacity` elements or `byteCapacity` bytes wait; false once cancelled
        /// (the batch is not taken).
        func hand(_ batch: [Element], bytes: Int) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            while !ready.isEmpty && (readyCount >= capacity || readyBytes + bytes > byteCapacity) && !isCancelled {
                condition.wait()
            }
            guard !isCancelled else { return false }
            ready.append((batch, bytes))
            readyCount += batch.count
            readyBytes += bytes
            condition.broadcast()
            return true
        }

        func end(_ error: (any Error)?) {
            condition.lock()
            finished = true
            failure = error
            condition.broadcast()
            condition.unlock()
        }

        /// Whether ``take()`` would return at once: a batch waits, or the thread has ended.
        var hasReady: Bool {
            condition.lock()
            defer { condition.unlock() }
            return !ready.isEmpty || finished
        }

        /// The next batch, waiting for it; nil at the end.
        func take() throws -> [Element]? {
            condition.lock()
            defer { condition.unlock() }
            while ready.isEmpty && !finished { condition.wait() }
            guard !ready.isEmpty else {
                if let failure { throw failure }
                return nil
            }
            let (batch, bytes) = ready.removeFirst()
            readyCount -= batch.count
            readyBytes -= bytes
            condition.broadcast()
            return batch
        }

        /// Stops the thread at its next element, and discards what waits.
        func cancel() {
            cancelledFlag.store(true, ordering: .relaxed)
            condition.lock()
            let waiting = ready
            ready = []
            readyCount = 0
            readyBytes = 0
            condition.broadcast()
            condition.unlock()
            for (batch, _) in waiting { batch.forEach(discard) }
        }
    }
}
