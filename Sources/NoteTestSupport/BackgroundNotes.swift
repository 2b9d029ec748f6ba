import Foundation
import Synchronization

/// A `notes` process left running (such as `notes ls --watch`), whose output a test reads
/// while it runs.
public final class BackgroundNotes: Sendable {
    public let process: Process
    private let buffer = Mutex(Data())
    /// Whether the output has reached its end: the process and every copy of its end of the
    /// pipe are gone.
    private let ended = Mutex(false)
    private let outputPipe = Pipe()

    /// Starts `notes` with `arguments`; with `mergingErrors`, what it writes to standard error
    /// is read as output too.
    public init(
        _ arguments: [String], store: URL? = nil, environment: [String: String] = [:], mergingErrors: Bool = false
    ) throws {
        process = NotesCommand.makeProcess(arguments, store: store, environment: environment, unprivileged: false)
        process.standardOutput = outputPipe
        process.standardError = mergingErrors ? outputPipe : FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        outputPipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self else { return }
            if data.isEmpty {
                self.ended.withLock { $0 = true }
            } else {
                self.buffer.withLock { $0.append(data) }
            }
        }
        try process.run()
    }

    /// Everything written to standard output so far.
    public var output: String {
        buffer.withLock { String(decoding: $0, as: UTF8.self) }
    }

    /// Stops the process with `signal` and waits for it, and for what it wrote last to be read;
    /// returns its exit status.
    @discardableResult
    public func stop(_ signal: Int32 = SIGTERM) -> Int32 {
        if process.isRunning { kill(process.processIdentifier, signal) }
        process.waitUntilExit()
        // The process may exit before its last lines are read from the pipe: wait for the end
        // of its output (bounded, should a child of it still hold the pipe).
        _ = eventually(within: 10) { ended.withLock { $0 } }
        outputPipe.fileHandleForReading.readabilityHandler = nil
        return process.terminationStatus
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
