import Foundation

/// How the `history` table (model version 6) writes ids, stamps and codes: as bytes and small
/// integers, which sort as their text forms do (docs/sync-format.md, "History in the store").
enum HistoryEncoding {
    /// Bytes of an encoded stamp: the clock, 8 bytes big-endian, then the device id's 16 bytes.
    static let stampSize = 24

    /// The 16 bytes of an id, in the order of its text.
    static func bytes(of id: UUID) -> Data {
        withUnsafeBytes(of: id.uuid) { Data($0) }
    }

    /// The id of 16 bytes; nil when they are not 16.
    static func id(_ bytes: Data) -> UUID? {
        UUID(storeBytes: bytes)
    }

    /// A stamp as 24 bytes, which compare as the stamps do: by clock, then by device id.
    static func bytes(of stamp: ChangeStamp) -> Data {
        var data = Data(capacity: stampSize)
        append(stamp, to: &data)
        return data
    }

    static func append(_ stamp: ChangeStamp, to data: inout Data) {
        withUnsafeBytes(of: stamp.clock.bigEndian) { data.append(contentsOf: $0) }
        withUnsafeBytes(of: stamp.device.uuid) { data.append(contentsOf: $0) }
    }

    /// The stamp of 24 bytes at `offset`; nil when there are not 24.
    static func stamp(_ bytes: Data, at offset: Int = 0) -> ChangeStamp? {
        let start = bytes.startIndex + offset
        guard offset >= 0, bytes.count - offset >= stampSize else { return nil }
        var clock: UInt64 = 0
        for byte in bytes[start..<start + 8] { clock = clock << 8 | UInt64(byte) }
        guard let device = id(Data(bytes[start + 8..<start + stampSize])) else { return nil }
        return ChangeStamp(clock: clock, device: device)
    }

    /// Stamps one after another, sorted: the bases of a version.
    static func bytes(of stamps: [ChangeStamp]) -> Data {
        var data = Data(capacity: stamps.count * stampSize)
        for stamp in stamps.sorted() { append(stamp, to: &data) }
        return data
    }

    /// The stamps of `bytes(of:)`; nil when the bytes are not a whole number of stamps.
    static func stamps(_ bytes: Data) -> [ChangeStamp]? {
        guard bytes.count % stampSize == 0 else { return nil }
        var result: [ChangeStamp] = []
        result.reserveCapacity(bytes.count / stampSize)
        for offset in stride(from: 0, to: bytes.count, by: stampSize) {
            guard let stamp = stamp(bytes, at: offset) else { return nil }
            result.append(stamp)
        }
        return result
    }

    /// The property's number, in the order of the property names ("body" before "name").
    static func code(of property: HistoryProperty) -> Int {
        property == .body ? 0 : 1
    }

    static func property(_ code: Int) -> HistoryProperty? {
        switch code {
        case 0: .body
        case 1: .name
        default: nil
        }
    }

    static func code(of origin: VersionOrigin) -> Int {
        switch origin {
        case .edit: 0
        case .restore: 1
        case .conflict: 2
        }
    }

    static func origin(_ code: Int) -> VersionOrigin? {
        switch code {
        case 0: .edit
        case 1: .restore
        case 2: .conflict
        default: nil
        }
    }
}
