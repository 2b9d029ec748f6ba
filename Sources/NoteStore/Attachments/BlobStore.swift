import CFileSystem
import Crypto
import Foundation
import NoteFiles

#if canImport(Glibc)
    import Glibc
#endif

/// Content-addressed files in `blobs/` of the store folder, named by the SHA-256 of their bytes.
///
/// A blob is written to a temporary name, synced, renamed into place and its folder synced
/// (https://lwn.net/Articles/457667/), so that a blob under its final name is always whole.
/// Blobs are never changed after they are written.
struct BlobStore: Sendable {
    let folder: URL

    /// The start of a temporary file's name: `.tmp-p<pid>-<random>`, the pid of its writer
    /// (earlier builds wrote `.tmp-<random>`).
    static let temporaryPrefix = ".tmp-"

    /// How old a temporary file must be before it is taken for a leftover whatever its name
    /// says (a pid reused, a name without one): writing a blob takes seconds.
    static let staleTemporaryAge: TimeInterval = 3600

    /// A new temporary name, carrying this process's id.
    static func temporaryName() -> String {
        temporaryPrefix + "p\(getpid())-" + UUID().uuidString.lowercased()
    }

    /// Whether the temporary file `name`, last modified at `modified`, is a leftover of a
    /// process that stopped: its writer (the pid in its name) is gone, or it is older than
    /// ``staleTemporaryAge``. A file another live process is writing is never one.
    static func isStaleTemporary(_ name: String, modified: Date?, now: Date = Date()) -> Bool {
        guard name.hasPrefix(temporaryPrefix) else { return false }
        if let modified, now.timeIntervalSince(modified) > staleTemporaryAge { return true }
        let rest = name.dropFirst(temporaryPrefix.count)
        guard rest.hasPrefix("p"), let dash = rest.firstIndex(of: "-"),
            let pid = pid_t(rest[rest.index(after: rest.startIndex)..<dash]), pid > 0
        else { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }

    init(storeFolder: URL) {
        folder = storeFolder.appendingPathComponent("blobs")
    }

    static func sha256(of data: Data) -> String {
        HexText.lowercase(SHA256.hash(data: data))
    }

    /// The bytes read and written at a time when a file is streamed: memory stays bounded
    /// whatever the file's size.
    static let streamChunkBytes = 1 << 20

    /// A buffer of ``streamChunkBytes`` for `read(2)` to fill, which the caller deallocates;
    /// only the bytes a read filled are used. It is not zeroed: zeroing a megabyte for each
    /// file copied was 3% of an export's writing thread, whose files are mostly a few kilobytes.
    static func allocateChunk() -> UnsafeMutableRawBufferPointer {
        .allocate(byteCount: streamChunkBytes, alignment: 16)
    }

    /// The SHA-256 of the file at `path`, read a chunk at a time; nil when it cannot be read.
    static func sha256(ofFileAt path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var hash = SHA256()
        let buffer = allocateChunk()
        defer { buffer.deallocate() }
        while true {
            let count = Glibc.read(fd, buffer.baseAddress!, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            hash.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
        return HexText.lowercase(hash.finalize())
    }

    /// A file copied into a temporary file of the folder, with what was learnt on the way.
    struct StreamedFile {
        /// The temporary file's path: whole and synced.
        let temporary: String
        let sha256: String
        let bytes: Int64
        /// The first bytes, at most ``MediaTypeSniffer/sampleBytes``.
        let sample: [UInt8]
    }

    /// Why a stream into the folder stopped.
    enum StreamFailure: Error {
        /// The input had more than `limit` bytes.
        case tooLarge
        case io(String)
    }

    /// Copies everything `input` yields into a new temporary file of the folder, a chunk at a
    /// time, hashing as it goes; stops at more than `limit` bytes. The file is not synced: the
    /// caller links it into place (``link(_:sha256:)`` or ``putAll(_:)``, which sync it) or
    /// removes it.
    func stream(from input: Int32, limit: Int64) throws(StreamFailure) -> StreamedFile {
        if mkdir(folder.path, 0o700) != 0 && errno != EEXIST { throw .io(StoreFolder.errnoText()) }
        let temporary = folder.appendingPathComponent(Self.temporaryName()).path
        let out = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard out >= 0 else { throw .io(StoreFolder.errnoText()) }
        var hash = SHA256()
        var sample: [UInt8] = []
        var total: Int64 = 0
        let buffer = Self.allocateChunk()
        defer { buffer.deallocate() }
        var failure: StreamFailure?
        while failure == nil {
            let count = Glibc.read(input, buffer.baseAddress!, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { failure = .io(StoreFolder.errnoText()); break }
            if count == 0 { break }
            total += Int64(count)
            guard total <= limit else { failure = .tooLarge; break }
            if sample.count < MediaTypeSniffer.sampleBytes {
                sample += buffer[0..<min(count, MediaTypeSniffer.sampleBytes - sample.count)]
            }
            hash.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            var offset = 0
            while offset < count, failure == nil {
                let written = Glibc.write(out, buffer.baseAddress! + offset, count - offset)
                if written < 0 && errno != EINTR { failure = .io(StoreFolder.errnoText()) }
                if written > 0 { offset += written }
            }
        }
        close(out)
        if let failure {
            unlink(temporary)
            throw failure
        }
        return StreamedFile(
            temporary: temporary, sha256: HexText.lowercase(hash.finalize()), bytes: total,
            sample: sample)
    }

    /// Puts the whole temporary file `temporary` in place as the blob `sha256` with `link(2)`,
    /// synced first, unless the blob is there already; the temporary file stays, for the caller
    /// to remove once it needs it no more.
    func link(_ temporary: String, sha256: String) throws {
        guard !exists(sha256) else { return }
        let fd = open(temporary, O_RDONLY | O_CLOEXEC)
        guard fd >= 0, fsync(fd) == 0 else {
            let reason = StoreFolder.errnoText()
            if fd >= 0 { close(fd) }
            throw BlobError.io(temporary, reason)
        }
        close(fd)
        guard Glibc.link(temporary, path(for: sha256)) == 0 || errno == EEXIST else {
            throw BlobError.io(path(for: sha256), StoreFolder.errnoText())
        }
        syncFolder()
    }

    /// A blob to put in place with ``putAll(_:)``: bytes held in memory, or a temporary file of
    /// the folder (``stream(from:limit:)``), which stays for the caller to remove.
    enum Pending {
        case data(Data)
        case temporary(String)
    }

    /// Puts many blobs in place at once, each unless it is there already, with one wait for the
    /// disk instead of two for each: the bytes in memory are written to temporary files, the
    /// file system is synced (syncfs(2)), then every file is put under its name (`rename(2)` of
    /// a file written here, `link(2)` of a temporary file of the caller) and the folder synced.
    /// A blob under its name is whole, as with ``write(_:sha256:)``: nothing is put in place
    /// before its bytes are on disk. An import saves its attachments so.
    func putAll(_ blobs: [(bytes: Pending, sha256: String)]) throws {
        var seen: Set<String> = []
        var written: [(file: String, sha256: String, isOurs: Bool)] = []
        defer { for entry in written where entry.isOurs { unlink(entry.file) } }
        for (bytes, sha256) in blobs where !seen.contains(sha256) && !exists(sha256) {
            seen.insert(sha256)
            switch bytes {
            case let .data(data): written.append((try writeTemporary(data), sha256, true))
            case let .temporary(path): written.append((path, sha256, false))
            }
        }
        guard !written.isEmpty else { return }
        let fd = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw BlobError.io(folder.path, StoreFolder.errnoText()) }
        let synced = notes_sync_file_system(fd) == 0
        let reason = StoreFolder.errnoText()
        close(fd)
        guard synced else { throw BlobError.io(folder.path, reason) }
        for (index, entry) in written.enumerated() {
            let placed =
                entry.isOurs
                ? rename(entry.file, path(for: entry.sha256)) == 0
                : Glibc.link(entry.file, path(for: entry.sha256)) == 0 || errno == EEXIST
            guard placed else { throw BlobError.io(path(for: entry.sha256), StoreFolder.errnoText()) }
            if entry.isOurs { written[index].isOurs = false }
        }
        syncFolder()
    }

    /// Writes `data` to a new temporary file of the folder, not synced; returns its path.
    func writeTemporary(_ data: Data) throws -> String {
        try makeFolder()
        let temporary = folder.appendingPathComponent(Self.temporaryName()).path
        let fd = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw BlobError.io(temporary, StoreFolder.errnoText()) }
        var failure: String?
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, failure == nil {
                let count = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 && errno != EINTR { failure = StoreFolder.errnoText() }
                if count > 0 { offset += count }
            }
        }
        close(fd)
        if let failure {
            unlink(temporary)
            throw BlobError.io(temporary, failure)
        }
        return temporary
    }

    /// Puts the local file `file` in place as the blob `sha256` after checking its bytes against
    /// it, read a chunk at a time; the file is moved (it must be in the folder) or, when the
    /// blob is there already or the bytes do not match, removed. Returns whether they matched.
    func adopt(_ file: String, sha256: String) throws -> Bool {
        guard Self.sha256(ofFileAt: file) == sha256 else {
            unlink(file)
            return false
        }
        if exists(sha256) {
            unlink(file)
            return true
        }
        // Copies out of the cloud folder are not synced: a blob under its name is always whole.
        let fd = open(file, O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
        guard rename(file, path(for: sha256)) == 0 else {
            let reason = StoreFolder.errnoText()
            unlink(file)
            throw BlobError.io(path(for: sha256), reason)
        }
        syncFolder()
        return true
    }

    func path(for sha256: String) -> String {
        folder.appendingPathComponent(sha256).path
    }

    func exists(_ sha256: String) -> Bool {
        FileManager.default.fileExists(atPath: path(for: sha256))
    }

    /// Makes the folder when it is missing.
    func makeFolder() throws {
        if mkdir(folder.path, 0o700) != 0 && errno != EEXIST {
            throw BlobError.io(folder.path, StoreFolder.errnoText())
        }
    }

    /// Writes the blob unless a blob of that name is already there.
    func write(_ data: Data, sha256: String) throws {
        guard !exists(sha256) else { return }
        let temporary = try writeTemporary(data)
        let fd = open(temporary, O_RDONLY | O_CLOEXEC)
        var failure: String?
        if fd < 0 || fsync(fd) != 0 { failure = StoreFolder.errnoText() }
        if fd >= 0 { close(fd) }
        if failure == nil && rename(temporary, path(for: sha256)) != 0 { failure = StoreFolder.errnoText() }
        if let failure {
            unlink(temporary)
            throw BlobError.io(path(for: sha256), failure)
        }
        syncFolder()
    }

    /// The blob's bytes, checked against their hash.
    func read(_ sha256: String) throws -> Data {
        let path = path(for: sha256)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BlobError.missing(sha256)
        }
        guard Self.sha256(of: data) == sha256 else { throw BlobError.damaged(sha256) }
        return data
    }

    /// Checks that the blob is there and has its hash, read a chunk at a time.
    func verify(_ sha256: String) throws {
        let path = path(for: sha256)
        guard FileManager.default.fileExists(atPath: path) else { throw BlobError.missing(sha256) }
        guard Self.sha256(ofFileAt: path) == sha256 else { throw BlobError.damaged(sha256) }
    }

    func remove(_ sha256: String) {
        unlink(path(for: sha256))
        syncFolder()
    }

    /// The names of the files in the folder (blobs and leftovers alike).
    func names() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    }

    /// When the file `name` was last modified, or nil when it cannot be looked up.
    func modified(_ name: String) -> Date? {
        var info = stat()
        guard lstat(folder.appendingPathComponent(name).path, &info) == 0 else { return nil }
        return Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
    }

    /// Removes the temporary files that processes which stopped while writing a blob left
    /// (``isStaleTemporary(_:modified:now:)``); returns their names.
    @discardableResult
    func removeStaleTemporaryFiles() -> [String] {
        var removed: [String] = []
        for name in names() where Self.isStaleTemporary(name, modified: modified(name)) {
            if unlink(folder.appendingPathComponent(name).path) == 0 { removed.append(name) }
        }
        if !removed.isEmpty { syncFolder() }
        return removed
    }

    /// Removes the blob `name` from the folder, synced.
    func removeFile(_ name: String) -> Bool {
        guard unlink(folder.appendingPathComponent(name).path) == 0 else { return false }
        syncFolder()
        return true
    }

    private func syncFolder() {
        let fd = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}

/// What can go wrong with a blob.
enum BlobError: Error {
    case missing(String)
    case damaged(String)
    case io(String, String)
}
