import Foundation

/// Reads ahead on a thread of its own while the import saves: files are opened and parsed
/// on one core while SQLite writes on the other.
///
/// `produce` runs on the thread and hands each element to `send`, in order; ``next()`` gives
/// them to the caller in that order. At most `capacity` elements wait at a time, so memory
/// stays bounded however much there is to read. ``cancel()`` (also on deinit) stops the
/// thread at its next element.
final class ReadAhead<Element: Sendable> {
    /// What an import saves at once: the thread reads the next save's notes while the current
    /// one is written.
    static var defaultCapacity: Int { Importer.batchItems }

    private let channel: Channel
    /// The batch the caller works through, and how far.
    private var current: [Element] = []
    private var currentIndex = 0

    /// `stackSize`: the thread's stack, in bytes (a walk of a deep folder tree recurses).
    init(
        capacity: Int = ReadAhead.defaultCapacity, batchSize: Int = 64, stackSize: Int = 1 << 20,
        produce: @escaping @Sendable (_ send: (Element) -> Bool) throws -> Void
    ) {
        precondition(capacity > 0 && batchSize > 0, "a read-ahead holds at least one element")
        let channel = Channel(capacity: capacity)
        self.channel = channel
        // The thread holds the channel, not this reader: dropping the reader cancels it.
        let thread = Thread {
            var batch: [Element] = []
            batch.reserveCapacity(batchSize)
            do {
                try produce { element in
                    batch.append(element)
                    if batch.count >= batchSize {
                        guard channel.hand(batch) else { return false }
                        batch.removeAll(keepingCapacity: true)
                    }
                    return true
                }
                if !batch.isEmpty { _ = channel.hand(batch) }
                channel.end(nil)
            } catch {
                if !batch.isEmpty { _ = channel.hand(batch) }
                channel.end(error)
            }
        }
        thread.stackSize = stackSize
        thread.start()
    }

    deinit {
        channel.cancel()
    }

    /// The next element; nil once everything is read. Throws what `produce` threw, after the
    /// elements it sent before.
    func next() throws -> Element? {
        if currentIndex < current.count {
            defer { currentIndex += 1 }
            return current[currentIndex]
        }
        guard let batch = try channel.take() else { return nil }
        current = batch
        currentIndex = 1
        return batch[0]
    }

    /// Stops reading: the thread ends at its next element.
    func cancel() {
        channel.cancel()
    }

    /// Batches between the thread and the caller: elements are handed over a batch at a
    /// time, since a lock per element would cost more than reading it.
    // Unchecked: every property is read and written with `condition` locked, whose waits a
    // Mutex does not offer.
    private final class Channel: @unchecked Sendable {
        private let condition = NSCondition()
        private var ready: [[Element]] = []
        private var readyCount = 0
        private var finished = false
        private var cancelled = false
        private var failure: (any Error)?
        private let capacity: Int

        init(capacity: Int) {
            self.capacity = capacity
        }

        /// Waits while `capacity` elements wait; false once cancelled.
        func hand(_ batch: [Element]) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            while readyCount >= capacity && !cancelled { condition.wait() }
            guard !cancelled else { return false }
            ready.append(batch)
            readyCount += batch.count
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

        /// The next batch, waiting for it; nil at the end.
        func take() throws -> [Element]? {
            condition.lock()
            defer { condition.unlock() }
            while ready.isEmpty && !finished { condition.wait() }
            guard !ready.isEmpty else {
                if let failure { throw failure }
                return nil
            }
            let batch = ready.removeFirst()
            readyCount -= batch.count
            condition.broadcast()
            return batch
        }

        func cancel() {
            condition.lock()
            cancelled = true
            condition.broadcast()
            condition.unlock()
        }
    }
}
