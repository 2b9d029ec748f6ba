import Crypto
import Foundation
import NoteFiles

#if canImport(Glibc)
    import Glibc
#endif

/// The envelope of every file of an encrypted container but `container.json` and `key.json`
/// (docs/sync-format.md, section 16): AES-256-GCM over chunks of 64 KiB, with a key of its own
/// for each file.
///
/// ```
/// NCSEAL01                         8 bytes, the magic
/// salt                             32 random bytes
/// chunk 0, chunk 1, ... chunk n-1  each: its bytes encrypted, then a 16-byte tag
/// ```
///
/// A file's key is HKDF-SHA256 of the container's file key, with the salt, and the info
/// `note-collector file <container> <path>`: the path of the file in the container. A file moved
/// to another name, device or sequence (or another container) is opened with another key and
/// fails. The nonce of chunk `i` is `i` in 11 bytes big-endian, then 1 for the last chunk and 0
/// for the others: a file cut at a chunk boundary, or with chunks dropped, reordered or added,
/// fails too. Every file has a fresh random salt, so a key and a nonce never meet twice.
public struct FileSealing: Sendable {
    public static let magic = Data("NCSEAL01".utf8)
    static let saltBytes = 32
    static let headerBytes = 8 + saltBytes
    static let tagBytes = 16
    /// The bytes of plain text in a chunk; the last one may hold fewer (an empty file has one
    /// chunk of none).
    public static let chunkBytes = 65_536

    /// The container the files belong to: part of every file's key.
    public let container: UUID
    /// The container key, to check `container.json` against.
    let key: ContainerKey
    private let fileKey: Data
    private let blobNameKey: Data

    public init(key: ContainerKey, container: UUID) {
        self.container = container
        self.key = key
        fileKey = key.derived("note-collector files").withUnsafeBytes { Data($0) }
        blobNameKey = key.derived("note-collector blob names").withUnsafeBytes { Data($0) }
    }

    /// Why a sealed file could not be opened.
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// It is not an envelope: too short, or without the magic.
        case notSealed
        /// It is an envelope whose size no plain text can have (cut inside a chunk).
        case truncated
        /// A chunk failed authentication: changed, cut, moved, or of another key.
        case unauthentic

        public var description: String {
            switch self {
            case .notSealed: return "it is not encrypted with this container's key (no envelope)"
            case .truncated: return "it is cut short: its size is that of no encrypted file"
            case .unauthentic:
                return "it fails authentication: changed, cut, moved from another name, or of another key"
            }
        }
    }

    /// Whether `container.json`'s `encryption` is that of this key: the key and the scrypt
    /// parameters its check covers.
    public func isKey(of settings: EncryptionSettings) -> Bool {
        key.isKey(of: settings, container: container)
    }

    // MARK: Names and sizes

    /// The name of the blob whose bytes have the SHA-256 `sha256`: HMAC-SHA256 of the hex text,
    /// keyed by the container, in 64 lowercase hex digits. Without the key, nobody can tell
    /// which known file a blob holds.
    public func blobName(of sha256: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Data(sha256.utf8), using: SymmetricKey(data: blobNameKey))
        return HexText.lowercase(code)
    }

    /// The size of the envelope of `plain` bytes.
    public static func sealedSize(ofPlain plain: Int64) -> Int64 {
        let chunks = max(1, (plain + Int64(chunkBytes) - 1) / Int64(chunkBytes))
        return Int64(headerBytes) + plain + chunks * Int64(tagBytes)
    }

    /// The plain size of an envelope of `sealed` bytes, or nil when no plain text has an
    /// envelope of that size.
    public static func plainSize(ofSealed sealed: Int64) -> Int64? {
        let body = sealed - Int64(headerBytes)
        let full = Int64(chunkBytes + tagBytes)
        guard body >= Int64(tagBytes) else { return nil }
        let chunks = max(1, (body + full - 1) / full)
        let plain = body - chunks * Int64(tagBytes)
        guard plain >= 0, sealedSize(ofPlain: plain) == sealed else { return nil }
        return plain
    }

    // MARK: Bytes

    /// The envelope of `plain` for the file at `path` (relative to the container folder).
    public func seal(_ plain: Data, path: String) -> Data {
        let salt = Self.randomBytes(Self.saltBytes)
        let key = self.key(for: path, salt: salt)
        var sealed = Data(capacity: Int(Self.sealedSize(ofPlain: Int64(plain.count))))
        sealed.append(Self.magic)
        sealed.append(salt)
        let count = Self.chunkCount(ofPlain: plain.count)
        for index in 0..<count {
            let start = plain.startIndex + index * Self.chunkBytes
            let chunk = plain[start..<min(start + Self.chunkBytes, plain.endIndex)]
            sealed.append(Self.sealChunk(chunk, key: key, index: index, last: index == count - 1))
        }
        return sealed
    }

    /// The plain bytes of the envelope `sealed` of the file at `path`.
    public func open(_ sealed: Data, path: String) throws(Failure) -> Data {
        guard sealed.count >= Self.headerBytes, sealed.prefix(Self.magic.count).elementsEqual(Self.magic) else {
            throw .notSealed
        }
        guard let plainCount = Self.plainSize(ofSealed: Int64(sealed.count)) else { throw .truncated }
        let base = sealed.startIndex
        let key = self.key(for: path, salt: sealed[(base + Self.magic.count)..<(base + Self.headerBytes)])
        var plain = Data(capacity: Int(plainCount))
        let count = Self.chunkCount(ofPlain: Int(plainCount))
        var offset = base + Self.headerBytes
        for index in 0..<count {
            let length = min(Self.chunkBytes, Int(plainCount) - index * Self.chunkBytes) + Self.tagBytes
            plain.append(
                try Self.openChunk(sealed[offset..<(offset + length)], key: key, index: index, last: index == count - 1)
            )
            offset += length
        }
        return plain
    }

    // MARK: Files

    /// Writes the envelope of the local file `source` for the container path `path` into the
    /// new local file `destination` (mode 0600, synced), a chunk at a time.
    public func seal(file source: URL, to destination: URL, path: String) throws(SyncError) {
        let input = Glibc.open(source.path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw .io(path: source.path, reason: LocalFile.errnoText(errno)) }
        defer { close(input) }
        var status = stat()
        guard fstat(input, &status) == 0 else { throw .io(path: source.path, reason: LocalFile.errnoText(errno)) }
        let plainCount = Int(status.st_size)
        let salt = Self.randomBytes(Self.saltBytes)
        let key = self.key(for: path, salt: salt)
        var readFailure: Int32 = 0
        do throws(FileError) {
            try LocalFile.create(destination) { out in
                var code = LocalFile.writeAll(Self.magic + salt, to: out)
                let count = Self.chunkCount(ofPlain: plainCount)
                var index = 0
                while code == 0 && index < count {
                    let wanted = min(Self.chunkBytes, plainCount - index * Self.chunkBytes)
                    guard let chunk = Self.read(wanted, from: input, failure: &readFailure) else {
                        return readFailure == 0 ? EIO : readFailure
                    }
                    code = LocalFile.writeAll(
                        Self.sealChunk(chunk, key: key, index: index, last: index == count - 1), to: out)
                    index += 1
                }
                return code
            }
        } catch {
            throw SyncError(error)
        }
    }

    /// Writes the plain bytes of the local envelope `source` of the container path `path` into
    /// the new local file `destination` (mode 0600, not synced, as a plain copy out of the
    /// container: whoever keeps it syncs it), a chunk at a time; nothing is
    /// left at `destination` when the envelope does not open. Returns the plain size.
    public func open(file source: URL, to destination: URL, path: String) throws(SyncError) -> Int64 {
        let input = Glibc.open(source.path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw .io(path: source.path, reason: LocalFile.errnoText(errno)) }
        defer { close(input) }
        var status = stat()
        guard fstat(input, &status) == 0 else { throw .io(path: source.path, reason: LocalFile.errnoText(errno)) }
        var readFailure: Int32 = 0
        guard let header = Self.read(Self.headerBytes, from: input, failure: &readFailure),
            header.prefix(Self.magic.count).elementsEqual(Self.magic)
        else { throw .damaged(path: path, reason: Failure.notSealed.description) }
        guard let plainCount = Self.plainSize(ofSealed: Int64(status.st_size)) else {
            throw .damaged(path: path, reason: Failure.truncated.description)
        }
        let key = self.key(for: path, salt: header.suffix(Self.saltBytes))
        var failure: Failure?
        do throws(FileError) {
            try LocalFile.create(destination, durability: .unsynced) { out in
                let count = Self.chunkCount(ofPlain: Int(plainCount))
                for index in 0..<count {
                    let length = min(Self.chunkBytes, Int(plainCount) - index * Self.chunkBytes) + Self.tagBytes
                    guard let chunk = Self.read(length, from: input, failure: &readFailure) else {
                        return readFailure == 0 ? EIO : readFailure
                    }
                    guard let opened = try? Self.openChunk(chunk, key: key, index: index, last: index == count - 1)
                    else {
                        failure = .unauthentic
                        return EBADMSG
                    }
                    let code = LocalFile.writeAll(opened, to: out)
                    if code != 0 { return code }
                }
                return 0
            }
        } catch {
            if let failure { throw .damaged(path: path, reason: failure.description) }
            throw SyncError(error)
        }
        return plainCount
    }

    // MARK: Parts

    private func key<Salt: DataProtocol>(for path: String, salt: Salt) -> SymmetricKey {
        let info = Data("note-collector file \(container.storeString) \(path)".utf8)
        return HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: fileKey), salt: salt, info: info, outputByteCount: 32)
    }

    private static func chunkCount(ofPlain count: Int) -> Int {
        max(1, (count + chunkBytes - 1) / chunkBytes)
    }

    private static func nonce(index: Int, last: Bool) -> AES.GCM.Nonce {
        var bytes = [UInt8](repeating: 0, count: 12)
        var value = UInt64(index)
        for position in stride(from: 10, through: 3, by: -1) {
            bytes[position] = UInt8(value & 0xff)
            value >>= 8
        }
        bytes[11] = last ? 1 : 0
        // 12 bytes always make a nonce.
        return try! AES.GCM.Nonce(data: bytes)
    }

    private static func sealChunk(_ chunk: Data, key: SymmetricKey, index: Int, last: Bool) -> Data {
        // Sealing with a 256-bit key and a 12-byte nonce does not fail.
        let box = try! AES.GCM.seal(chunk, using: key, nonce: nonce(index: index, last: last))
        return box.ciphertext + box.tag
    }

    private static func openChunk(_ chunk: Data, key: SymmetricKey, index: Int, last: Bool) throws(Failure) -> Data {
        do {
            let box = try AES.GCM.SealedBox(
                nonce: nonce(index: index, last: last), ciphertext: chunk.dropLast(tagBytes),
                tag: chunk.suffix(tagBytes))
            return try AES.GCM.open(box, using: key)
        } catch {
            throw .unauthentic
        }
    }

    /// Exactly `count` bytes from `fd`, or nil at an early end (failure 0) or an error.
    private static func read(_ count: Int, from fd: Int32, failure: inout Int32) -> Data? {
        var data = Data(count: count)
        var offset = 0
        while offset < count {
            let step = data.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + offset, count - offset) }
            if step < 0 && errno == EINTR { continue }
            if step < 0 { failure = errno }
            if step <= 0 { return nil }
            offset += step
        }
        return data
    }

    static func randomBytes(_ count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}
