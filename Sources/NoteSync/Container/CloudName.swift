import Foundation
import NoteStore

/// The naming rules of the container (docs/sync-format.md): what a name of each kind of file
/// must be exactly, and how this build writes it.
///
/// Names come from a folder anyone with access to the cloud can write into, so they are
/// matched byte for byte against ASCII patterns, never parsed leniently.
enum CloudName {
    static let descriptor = "container.json"
    /// The container key, wrapped by the passphrase, in an encrypted container.
    static let keyFile = "key.json"
    static let devices = "devices"
    static let logs = "logs"
    static let blobs = "blobs"
    static let baselines = "baselines"

    /// The highest sequence a 12-digit log name can hold.
    static let maximumSequence: Int64 = 999_999_999_999

    /// Names starting with `.` are temporary files (`.tmp-<device>-<random>`) or hidden files of the
    /// cloud service: readers ignore them without reporting them.
    static func isIgnored(_ name: String) -> Bool {
        name.hasPrefix(".")
    }

    /// A UUID as the container writes it: lowercase, 36 characters with dashes.
    static func text(of uuid: UUID) -> String {
        uuid.uuidString.lowercased()
    }

    /// The UUID written in `text`, only if it is written exactly as the container writes it.
    static func uuid(_ text: some StringProtocol) -> UUID? {
        guard text.utf8.count == 36, let uuid = UUID(uuidString: String(text)) else { return nil }
        return Self.text(of: uuid) == text ? uuid : nil
    }

    static func registration(of device: UUID) -> String {
        text(of: device) + ".json"
    }

    /// The device of a registration file name `<uuid>.json`.
    static func device(ofRegistration name: String) -> UUID? {
        guard name.hasSuffix(".json") else { return nil }
        return uuid(name.dropLast(5))
    }

    static func log(_ sequence: Int64) -> String {
        let digits = String(sequence)
        return String(repeating: "0", count: max(0, 12 - digits.count)) + digits + ".log"
    }

    /// The sequence of a log file name: exactly 12 ASCII digits and `.log`, at least 1.
    static func sequence(ofLog name: String) -> Int64? {
        let bytes = Array(name.utf8)
        guard bytes.count == 16, name.hasSuffix(".log") else { return nil }
        let digits = bytes.prefix(12)
        guard digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        guard let sequence = Int64(String(decoding: digits, as: UTF8.self)), sequence >= 1 else { return nil }
        return sequence
    }

    /// `<sequence>.<suffix>`, the sequence zero-padded to 12 digits.
    static func numbered(_ sequence: Int64, _ suffix: String) -> String {
        let digits = String(sequence)
        return String(repeating: "0", count: max(0, 12 - digits.count)) + digits + "." + suffix
    }

    /// The sequence of a name `<12 digits>.<suffix>`, at least 1.
    static func sequence(of name: String, suffix: String) -> Int64? {
        let bytes = Array(name.utf8)
        guard bytes.count == 13 + suffix.utf8.count, name.hasSuffix("." + suffix) else { return nil }
        let digits = bytes.prefix(12)
        guard digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        guard let sequence = Int64(String(decoding: digits, as: UTF8.self)), sequence >= 1 else { return nil }
        return sequence
    }

    static func requireSequence(_ sequence: Int64) throws(SyncError) {
        guard (1...maximumSequence).contains(sequence) else {
            throw .invalidName(String(sequence), reason: "a log sequence is from 1 to \(maximumSequence)")
        }
    }

    static func requireSHA256(_ name: String) throws(SyncError) {
        guard BlobName.isValid(name) else {
            throw .invalidName(name, reason: "a blob is named by its SHA-256 in 64 lowercase hex digits")
        }
    }

    /// Checks a container name given by the user: one plain, visible folder name.
    static func requireContainerName(_ name: String) throws(SyncError) {
        let reason: String? =
            if name.isEmpty { "it is empty" } else if name.contains("/") || name.contains("\0") {
                "a container name is one folder name, without '/'"
            } else if name.hasPrefix(".") { "a container name cannot start with '.'" } else if name.utf8.count > 255 {
                "it is longer than 255 bytes"
            } else { nil }
        if let reason { throw .invalidName(name, reason: reason) }
    }
}

extension CloudContainer {
    /// The path of a log relative to the container, as status reports show it.
    public static func logPath(device: UUID, sequence: Int64) -> String {
        CloudName.logs + "/" + CloudName.text(of: device) + "/" + CloudName.log(sequence)
    }

    /// The device and sequence of a log path as ``logPath(device:sequence:)`` makes it, or nil.
    static func logPosition(ofPath path: String) -> (device: UUID, sequence: Int64)? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == CloudName.logs, let device = UUID(uuidString: String(parts[1])),
            let sequence = CloudName.sequence(ofLog: String(parts[2]))
        else { return nil }
        return (device, sequence)
    }

    /// The path of a device's registration relative to the container.
    public static func registrationPath(of device: UUID) -> String {
        CloudName.devices + "/" + CloudName.registration(of: device)
    }
}
