import Foundation
import NoteStore

/// Writes an export's files on a thread of its own while the export renders the next notes
/// (and reads them, on a third: ``ExportPage``): the kernel makes and fills files while the
/// notes are read and rendered.
///
/// The caller hands each file over (``write(_:to:in:)``, ``copy(_:to:in:)``) and goes on; the
/// thread writes them in order. At most ``capacity`` files or ``byteCapacity`` bytes wait at a
/// time, so memory stays bounded however large the export. The first failure stops the
/// writing: the next hand-over throws it, and so does ``finish()``, which waits for every file
/// handed over. Every path of the caller ends with ``finish()``, so that no thread is left
/// writing.
final class WriteBehind {
    /// One file to write.
    enum File: Sendable {
        case data(Data, name: String, folder: ExportDirectory)
        case attachment(Attachment, name: String, folder: ExportDirectory)

        var bytes: Int {
            switch self {
            case let .data(data, _, _): data.count
            case .attachment: 0
            }
        }
    }

    static let capacity = 512
    static let byteCapacity = 8 << 20

    private let channel = Channel()

    init(store: Store) {
        let channel = self.channel
        // The thread holds the channel, not this writer.
        let thread = Thread {
            while let files = channel.take() {
                for file in files where !channel.hasFailed {
                    do {
                        switch file {
                        case let .data(data, name, folder): try folder.write(data, to: name)
                        case let .attachment(attachment, name, folder):
                            try folder.write(attachment, of: store, to: name)
                        }
                    } catch {
                        channel.fail(error)
                    }
                }
                channel.done(files)
            }
        }
        thread.start()
    }

    deinit {
        channel.end()
    }

    /// Hands over `data`, to be written to the file `name` in `folder`.
    func write(_ data: Data, to name: String, in folder: ExportDirectory) throws {
        try channel.hand(.data(data, name: name, folder: folder))
    }

    /// Hands over an attachment, whose bytes are to be copied to the file `name` in `folder`.
    func copy(_ attachment: Attachment, to name: String, in folder: ExportDirectory) throws {
        try channel.hand(.attachment(attachment, name: name, folder: folder))
    }

    /// Waits for every file handed over to be written; throws the first failure.
    func finish() throws {
        try channel.finish()
    }

    /// The files between the caller and the thread, taken by the thread a batch at a time.
    // Unchecked: every property is read and written with `condition` locked, whose waits a
    // Mutex does not offer.
    private final class Channel: @unchecked Sendable {
        private let condition = NSCondition()
        private var waiting: [File] = []
        /// Files and bytes handed over and not written yet (waiting or being written).
        private var files = 0
        private var bytes = 0
        private var ended = false
        private var failure: (any Error)?

        /// Waits while the writer is full; throws the first failure.
        func hand(_ file: File) throws {
            condition.lock()
            defer { condition.unlock() }
            while failure == nil && (files >= WriteBehind.capacity || bytes >= WriteBehind.byteCapacity) {
                condition.wait()
            }
            if let failure { throw failure }
            waiting.append(file)
            files += 1
            bytes += file.bytes
            condition.broadcast()
        }

        /// The files handed over since the last take, waiting for one; nil once ended and
        /// every file is taken.
        func take() -> [File]? {
            condition.lock()
            defer { condition.unlock() }
            while waiting.isEmpty && !ended { condition.wait() }
            guard !waiting.isEmpty else { return nil }
            defer { waiting.removeAll(keepingCapacity: true) }
            return waiting
        }

        /// Says that `written` are written (or passed over after a failure).
        func done(_ written: [File]) {
            condition.lock()
            files -= written.count
            bytes -= written.reduce(0) { $0 + $1.bytes }
            condition.broadcast()
            condition.unlock()
        }

        var hasFailed: Bool {
            condition.lock()
            defer { condition.unlock() }
            return failure != nil
        }

        func fail(_ error: any Error) {
            condition.lock()
            if failure == nil { failure = error }
            condition.broadcast()
            condition.unlock()
        }

        /// Ends the thread once it has taken every file.
        func end() {
            condition.lock()
            ended = true
            condition.broadcast()
            condition.unlock()
        }

        /// Waits for every file handed over; throws the first failure.
        func finish() throws {
            condition.lock()
            defer { condition.unlock() }
            while files > 0 { condition.wait() }
            if let failure { throw failure }
        }
    }
}
