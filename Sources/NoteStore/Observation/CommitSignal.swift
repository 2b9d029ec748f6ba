import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The file that a store writes after each of its commits, so that a process watching the
/// store folder with inotify learns of the commit the moment it is whole, without polling.
///
/// A commit in WAL mode writes the `-wal` file before it is whole, and then only shared memory,
/// which no file event reports: a watcher that saw the `-wal` file written could only poll
/// until the commit showed. This file is written once the transaction has committed, so a
/// check made on its event sees the commit. What it holds means nothing; its writes (an
/// `IN_MODIFY` event each) are the signal.
///
/// The file is opened once, when the store is opened for writing. A store that cannot make it
/// (a folder it may only read) commits without signalling: observers fall back on their
/// usual pace of checks.
final class CommitSignal: Sendable {
    /// The file's name in the store folder.
    static let fileName = Store.databaseFileName + "-commit"

    private let descriptor: Int32

    init(storeFolder: URL) {
        let path = storeFolder.appendingPathComponent(Self.fileName).path
        // Never a link, and never a FIFO or a device put in its place, whose open or write
        // could block: a regular file, or no signal.
        var descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        var info = stat()
        if descriptor >= 0, fstat(descriptor, &info) != 0 || info.st_mode & S_IFMT != S_IFREG {
            close(descriptor)
            descriptor = -1
        }
        self.descriptor = descriptor
    }

    /// Signals a commit: one byte written at the start of the file.
    func send() {
        guard descriptor >= 0 else { return }
        var byte: UInt8 = 0x0A
        _ = pwrite(descriptor, &byte, 1, 0)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }
}
