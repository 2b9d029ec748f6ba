import Crypto
import Foundation
import NoteFiles

#if canImport(Glibc)
    import Glibc
#endif

/// Copies a blob out of the store a chunk at a time, checking its hash on the way: the copy
/// is written to a temporary file beside the destination and renamed into place only when the
/// bytes match, so a reader of the destination never sees damaged or partial bytes.
enum BlobCopy {
    enum Outcome: Equatable {
        case copied
        /// The bytes do not have the expected SHA-256; nothing was written.
        case damaged
        /// The file at `path` could not be read or written.
        case failed(path: String, reason: String)
    }

    static func copy(_ source: String, to destination: String, expecting sha256: String) -> Outcome {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { return .failed(path: source, reason: StoreFolder.errnoText()) }
        defer { close(input) }
        let folder = (destination as NSString).deletingLastPathComponent
        let temporary =
            (folder.isEmpty ? "." : folder) + "/." + ((destination as NSString).lastPathComponent) + ".tmp-"
            + UUID().uuidString.lowercased()
        let out = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o644)
        guard out >= 0 else { return .failed(path: destination, reason: StoreFolder.errnoText()) }
        var failure: Outcome?
        switch copy(from: input, to: out, expecting: sha256) {
        case .copied: break
        case .damaged: failure = .damaged
        case let .failed(path, reason): failure = .failed(path: path.isEmpty ? destination : source, reason: reason)
        }
        if failure == nil && fsync(out) != 0 { failure = .failed(path: destination, reason: StoreFolder.errnoText()) }
        close(out)
        if failure == nil && rename(temporary, destination) != 0 {
            failure = .failed(path: destination, reason: StoreFolder.errnoText())
        }
        if let failure {
            unlink(temporary)
            return failure
        }
        return .copied
    }

    /// Copies everything `input` yields to `out`, hashing on the way: `.damaged` when the bytes
    /// do not have the SHA-256 `sha256`; `.failed` with an empty path for a write that failed,
    /// else for a read.
    static func copy(from input: Int32, to out: Int32, expecting sha256: String) -> Outcome {
        var hash = SHA256()
        let buffer = BlobStore.allocateChunk()
        defer { buffer.deallocate() }
        while true {
            let count = Glibc.read(input, buffer.baseAddress!, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return .failed(path: "source", reason: StoreFolder.errnoText()) }
            if count == 0 { break }
            hash.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            var offset = 0
            while offset < count {
                let written = Glibc.write(out, buffer.baseAddress! + offset, count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return .failed(path: "", reason: StoreFolder.errnoText()) }
                offset += written
            }
        }
        return HexText.lowercase(hash.finalize()) == sha256 ? .copied : .damaged
    }
}
