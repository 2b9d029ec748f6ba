import Crypto
import Foundation
import NoteFiles
import NoteStore
import NoteText

/// A note's body carried by a change as its line differences from a version that every reader
/// holds, with the SHA-256 of the text it makes (docs/sync-format.md, 5.3, "delta").
///
/// The base is one of the versions the body was edited from (the change's `history.bases`):
/// those are in the log's causal past, and a baseline never drops them (section 15), so a
/// reader has applied them before it reads the log. A one-line edit of a 10 MB note is then a
/// log of a few hundred bytes instead of a copy of the note.
public struct BodyDelta: Sendable, Equatable {
    /// The version of the body the delta applies to.
    public var base: ChangeStamp
    /// The delta, in the encoding history keeps (``LineDelta``).
    public var lines: [UInt8]
    /// Lowercase hex SHA-256 of the UTF-8 text the delta makes.
    public var sha256: String

    public init(base: ChangeStamp, lines: [UInt8], sha256: String) {
        self.base = base
        self.lines = lines
        self.sha256 = sha256
    }

    /// Writers carry a body as a delta only from this size on: a smaller note costs little to
    /// send whole, and stays readable by builds of model 8 (docs/sync-format.md, "Versions").
    public static let minimumBodyBytes = 4_096

    /// The delta that turns `baseText` (the version `base`) into `text`, when it is less than
    /// half the size of `text`; nil otherwise.
    public static func make(from baseText: String, base: ChangeStamp, to text: String) -> BodyDelta? {
        let size = text.utf8.count
        guard size >= minimumBodyBytes else { return nil }
        let lines = LineDelta.make(from: baseText, to: text).encoded
        guard (lines.count + 2) / 3 * 4 < size / 2 else { return nil }
        return BodyDelta(base: base, lines: lines, sha256: Self.digest(text))
    }

    /// The delta from `base` to `text` whose lines are `lines`, made already, when it is less
    /// than half the size of `text`; nil otherwise.
    public static func made(base: ChangeStamp, lines: [UInt8], text: String) -> BodyDelta? {
        let size = text.utf8.count
        guard size >= minimumBodyBytes, (lines.count + 2) / 3 * 4 < size / 2 else { return nil }
        return BodyDelta(base: base, lines: lines, sha256: Self.digest(text))
    }

    /// The text the delta makes of the base's text; throws when the delta does not read, does
    /// not fit the base, makes more than a body may hold, or makes another text than its hash.
    public func text(from baseText: String) throws(LogProblem) -> String {
        let text: String
        do {
            text = try LineDelta(decoding: lines).apply(to: baseText, limit: Item.maximumBodyBytes)
        } catch {
            throw .corrupt("its body delta cannot be used: \(error)")
        }
        guard Self.digest(text) == sha256 else {
            throw .corrupt("its body delta does not make the text of its checksum")
        }
        return text
    }

    static func digest(_ text: String) -> String {
        // Hashed where the text lies: a copy of a 10 MB body costs as much as half its hash.
        var text = text
        text.makeContiguousUTF8()
        let digest = text.utf8.withContiguousStorageIfAvailable { SHA256.hash(data: UnsafeRawBufferPointer($0)) }
        return HexText.lowercase(digest ?? SHA256.hash(data: Data(text.utf8)))
    }

    /// `{"body":{"base":"<stamp>","lines":"<base64>","sha256":"<hex>"}}`.
    var json: String {
        "{\"body\":{\"base\":\"\(base.text)\",\"lines\":\"\(Data(lines).base64EncodedString())\","
            + "\"sha256\":\"\(sha256)\"}}"
    }

    /// Reads the members of a change's `delta`; nil when they break the rules of 5.3.
    init?(members: [(key: String, value: JSONScanner.Value)]) {
        guard members.count == 1, members[0].key == HistoryProperty.body.rawValue,
            case let .object(fields) = members[0].value
        else { return nil }
        var base: ChangeStamp?
        var lines: [UInt8]?
        var sha256: String?
        for (key, value) in fields {
            switch (key, value) {
            case let ("base", .text(text)): base = ChangeStamp(text: text)
            case let ("lines", .text(text)): lines = Data(base64Encoded: text).map { [UInt8]($0) }
            case let ("sha256", .text(text)) where BlobName.isValid(text): sha256 = text
            default: break
            }
        }
        guard let base, let lines, let sha256 else { return nil }
        self.init(base: base, lines: lines, sha256: sha256)
    }
}
