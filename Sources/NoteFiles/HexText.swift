/// Bytes written as lowercase hex digits, two a byte: how hashes are named and compared
/// (a blob's SHA-256, a log's, an authentication code).
public enum HexText {
    private static let digits = Array("0123456789abcdef".utf8)

    /// `bytes` as lowercase hex digits.
    public static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
