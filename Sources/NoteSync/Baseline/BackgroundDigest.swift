import CFileSystem
import Foundation
import NoteStore

#if canImport(Glibc)
    import Glibc
#endif

/// The SHA-256 of a file, computed on a thread of its own while the caller goes on.
///
/// A new device checks a baseline's copy two ways, its SHA-256 against the manifest and the
/// database itself; both read the whole file and neither needs the other, so they run on two
/// cores. The copy lies in the store folder, where nothing else writes, so both see the same
/// bytes.
///
/// With `writingBack`, the thread then starts the file's pages towards the disk
/// (sync_file_range(2)) and does not wait for them to arrive: the copy is not synced when it is made,
/// and a new device that makes its store of it syncs it before it links it, when little is
/// left to wait for. Submitting the writes costs a tenth of a second for a copy of 200 MiB,
/// which this keeps off the thread that checks the database.
final class BackgroundDigest {
    private let work: BackgroundWork<String>

    init(of file: URL, writingBack: Bool = false) {
        // Opened here, so that the writeback reaches this file even when it is removed first.
        let descriptor = writingBack ? open(file.path, O_RDONLY | O_CLOEXEC) : -1
        work = BackgroundWork {
            defer {
                if descriptor >= 0 {
                    _ = notes_start_writeback(descriptor)
                    close(descriptor)
                }
            }
            return try BaselineLoader.sha256(of: file)
        }
    }

    /// Waits for the digest: 64 lowercase hex digits. Call it before the file goes, on every
    /// path, so that no thread is left reading; and before the file is opened as a database,
    /// since closing a descriptor of a file drops every lock the process holds on it.
    func wait() throws -> String {
        try work.wait().get()
    }
}
