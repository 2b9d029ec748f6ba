/// The CRC-32 that PNG chunks carry (ISO 3309 / ITU-T V.42, polynomial 0xEDB88320 reflected).
///
/// Table-driven, one byte at a time, as in the sample code of the PNG specification:
/// https://www.w3.org/TR/png-3/#D-CRCAppendix.
enum CRC32 {
    /// The CRC of every byte value, computed once.
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 {
            value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1
        }
        return value
    }

    /// The CRC-32 of `bytes`; `checksum(of: "IEND")` is 0xAE426082.
    static func checksum(of bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return crc ^ 0xFFFF_FFFF
    }
}
