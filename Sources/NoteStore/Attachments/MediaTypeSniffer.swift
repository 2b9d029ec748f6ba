import Foundation

/// Names the media type of a file's bytes from their first bytes (magic numbers), with the
/// file's extension as a hint where the bytes alone cannot tell (a ZIP that is a Word
/// document, an Ogg stream of video, a text that is Markdown). The bytes are never parsed
/// further.
///
/// See https://mimesniff.spec.whatwg.org/ and the registry at
/// https://www.iana.org/assignments/media-types/media-types.xhtml.
public enum MediaTypeSniffer {
    /// Bytes of unknown kind.
    public static let octetStream = "application/octet-stream"
    /// How many first bytes ``mediaType(of:fileExtension:)`` looks at.
    public static let sampleBytes = 65_536

    /// The media type of a file whose first bytes are `sample` (at most ``sampleBytes``, all of
    /// them when the file is smaller) and whose name ends in `fileExtension` (lowercase, no dot).
    public static func mediaType(of sample: [UInt8], fileExtension ext: String, isWhole: Bool) -> String {
        if let type = binaryType(sample, ext: ext) { return type }
        if isText(sample, isWhole: isWhole) { return textType(sample, ext: ext) }
        return octetStream
    }

    /// Whether the bytes are a valid media type as attachments keep it: `type/subtype`,
    /// lowercase, of the token characters of RFC 6838, at most 127 bytes.
    public static func isValid(_ mediaType: String) -> Bool {
        let parts = mediaType.split(separator: "/", omittingEmptySubsequences: false)
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789!#$&^_.+-".utf8)
        return mediaType.utf8.count <= 127 && parts.count == 2
            && parts.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy(allowed.contains) }
    }

    /// The media type an extension (lowercase, without the dot) usually names, or nil.
    public static func mediaType(forExtension ext: String) -> String? {
        extensions[ext]
    }

    /// The usual extension of a media type, for a saved copy without a name of its own.
    public static func fileExtension(for mediaType: String) -> String? {
        extensions.filter { $0.value == mediaType }.keys.min { ($0.count, $0) < ($1.count, $1) }
    }

    // MARK: Binary formats

    private static func binaryType(_ b: [UInt8], ext: String) -> String? {
        func starts(_ text: String, at offset: Int = 0) -> Bool {
            let bytes = Array(text.utf8)
            return b.count >= offset + bytes.count && b[offset..<(offset + bytes.count)].elementsEqual(bytes)
        }
        func starts(_ bytes: [UInt8], at offset: Int = 0) -> Bool {
            b.count >= offset + bytes.count && b[offset..<(offset + bytes.count)].elementsEqual(bytes)
        }
        if starts("%PDF-") { return "application/pdf" }
        if starts([0x50, 0x4B, 0x03, 0x04]) || starts([0x50, 0x4B, 0x05, 0x06]) { return zipType(b, ext: ext) }
        if starts([0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) {
            return [
                "doc": "application/msword", "xls": "application/vnd.ms-excel", "ppt": "application/vnd.ms-powerpoint",
                "msg": "application/vnd.ms-outlook",
            ][ext] ?? "application/x-ole-storage"
        }
        if starts([0x1F, 0x8B]) { return "application/gzip" }
        if starts("BZh") { return "application/x-bzip2" }
        if starts([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) { return "application/x-xz" }
        if starts([0x28, 0xB5, 0x2F, 0xFD]) { return "application/zstd" }
        if starts([0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C]) { return "application/x-7z-compressed" }
        if starts("Rar!\u{1A}\u{07}") { return "application/vnd.rar" }
        if starts("ustar", at: 257) { return "application/x-tar" }
        if starts("SQLite format 3\u{0}") { return "application/vnd.sqlite3" }
        if starts([0x7F, 0x45, 0x4C, 0x46]) { return "application/x-elf" }
        if starts("%!PS") { return "application/postscript" }
        if starts("{\\rtf") { return "application/rtf" }
        if starts("ID3") || (b.count >= 2 && b[0] == 0xFF && (b[1] & 0xE6) == 0xE2 && ext == "mp3") {
            return "audio/mpeg"
        }
        if starts("fLaC") { return "audio/flac" }
        if starts("OggS") { return ["ogv": "video/ogg", "opus": "audio/opus"][ext] ?? "audio/ogg" }
        if starts("MThd") { return "audio/midi" }
        if starts("RIFF") && starts("WAVE", at: 8) { return "audio/wav" }
        if starts("RIFF") && starts("AVI ", at: 8) { return "video/x-msvideo" }
        if starts("FORM") && starts("AIFF", at: 8) { return "audio/aiff" }
        if starts("ftyp", at: 4) { return isoMediaType(b, ext: ext) }
        if starts([0x1A, 0x45, 0xDF, 0xA3]) {
            let head = String(decoding: b.prefix(64), as: UTF8.self)
            return head.contains("webm") ? "video/webm" : "video/x-matroska"
        }
        if starts("II*\u{0}") || starts("MM\u{0}*") { return "image/tiff" }
        if starts("BM") && ext == "bmp" { return "image/bmp" }
        if starts([0, 0, 1, 0]) && ext == "ico" { return "image/vnd.microsoft.icon" }
        if starts("8BPS") { return "image/vnd.adobe.photoshop" }
        if starts("wOFF") { return "font/woff" }
        if starts("wOF2") { return "font/woff2" }
        if starts("OTTO") { return "font/otf" }
        if starts([0, 1, 0, 0, 0]) && ext == "ttf" { return "font/ttf" }
        if starts([0x00, 0x61, 0x73, 0x6D]) { return "application/wasm" }
        return nil
    }

    private static func zipType(_ b: [UInt8], ext: String) -> String {
        // OpenDocument and EPUB store their type first, uncompressed, as the file `mimetype`.
        let name = Array("mimetype".utf8)
        if b.count > 38, b[30..<38].elementsEqual(name) {
            let type = String(
                decoding: b[38..<min(b.count, 38 + 80)].prefix { $0 > 0x20 && $0 < 0x7F && $0 != 0x50 }, as: UTF8.self)
            if isValid(type) { return type }
        }
        let kin = [
            "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
            "jar": "application/java-archive", "apk": "application/vnd.android.package-archive",
            "epub": "application/epub+zip", "odt": "application/vnd.oasis.opendocument.text",
            "ods": "application/vnd.oasis.opendocument.spreadsheet",
            "odp": "application/vnd.oasis.opendocument.presentation",
            "kmz": "application/vnd.google-earth.kmz",
        ]
        return kin[ext] ?? "application/zip"
    }

    private static func isoMediaType(_ b: [UInt8], ext: String) -> String {
        let brand = b.count >= 12 ? String(decoding: b[8..<12], as: UTF8.self) : ""
        switch brand {
        case "M4A ", "M4B ": return "audio/mp4"
        case "qt  ": return "video/quicktime"
        case "heic", "heix", "hevc", "heim", "heis": return "image/heic"
        case "mif1", "msf1": return ext == "avif" ? "image/avif" : "image/heif"
        case "avif", "avis": return "image/avif"
        case "3gp4", "3gp5", "3gp6", "3g2a": return "video/3gpp"
        default: return ext == "m4a" ? "audio/mp4" : "video/mp4"
        }
    }

    // MARK: Text

    /// Whether the sample is UTF-8 text: valid UTF-8 (a sequence cut at the end of a sample that
    /// is not the whole file is allowed), without NUL or other C0 controls but tab, line feed,
    /// form feed, carriage return and escape.
    static func isText(_ b: [UInt8], isWhole: Bool) -> Bool {
        var bytes = b[...]
        if !isWhole {
            // Drop a sequence the sample cuts: at most 3 trailing bytes of an unfinished character.
            var back = 0
            while back < 3, back < bytes.count, (bytes[bytes.endIndex - 1 - back] & 0xC0) == 0x80 { back += 1 }
            if back < bytes.count, bytes[bytes.endIndex - 1 - back] >= 0xC0 { bytes = bytes.dropLast(back + 1) }
        }
        guard String(validating: bytes, as: UTF8.self) != nil else { return false }
        return !bytes.contains { $0 < 0x20 && ![0x09, 0x0A, 0x0C, 0x0D, 0x1B].contains($0) || $0 == 0x7F }
    }

    private static func textType(_ b: [UInt8], ext: String) -> String {
        if let type = extensions[ext], type.hasPrefix("text/") || textApplicationTypes.contains(type) { return type }
        let head = String(decoding: b.prefix(512), as: UTF8.self).drop { $0.isWhitespace || $0 == "\u{FEFF}" }
            .lowercased()
        if head.hasPrefix("<!doctype html") || head.hasPrefix("<html") { return "text/html" }
        if head.hasPrefix("<?xml") { return "application/xml" }
        if head.hasPrefix("#!") { return "text/x-script" }
        return "text/plain"
    }

    private static let textApplicationTypes: Set<String> = [
        "application/json", "application/xml", "application/yaml", "application/x-tex", "application/toml",
        "application/x-sh", "application/sql", "application/javascript", "application/ld+json",
        "application/x-ipynb+json",
    ]

    /// Extensions and their media types: hints for text and for kin of binary formats, and the
    /// extension a saved copy takes.
    static let extensions: [String: String] = [
        "txt": "text/plain", "md": "text/markdown", "markdown": "text/markdown", "csv": "text/csv",
        "tsv": "text/tab-separated-values", "html": "text/html", "htm": "text/html", "css": "text/css",
        "js": "text/javascript", "mjs": "text/javascript", "json": "application/json", "xml": "application/xml",
        "yaml": "application/yaml", "yml": "application/yaml", "toml": "application/toml", "tex": "application/x-tex",
        "sh": "application/x-sh", "sql": "application/sql", "ics": "text/calendar", "vcf": "text/vcard",
        "org": "text/org", "rst": "text/x-rst", "ipynb": "application/x-ipynb+json",
        "pdf": "application/pdf", "zip": "application/zip", "gz": "application/gzip", "mp3": "audio/mpeg",
        "flac": "audio/flac", "ogg": "audio/ogg", "wav": "audio/wav", "mp4": "video/mp4", "m4a": "audio/mp4",
        "mov": "video/quicktime", "webm": "video/webm", "mkv": "video/x-matroska", "avi": "video/x-msvideo",
        "svg": "image/svg+xml", "tif": "image/tiff", "heic": "image/heic", "avif": "image/avif", "bmp": "image/bmp",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "odt": "application/vnd.oasis.opendocument.text", "epub": "application/epub+zip", "doc": "application/msword",
        "xls": "application/vnd.ms-excel", "rtf": "application/rtf", "7z": "application/x-7z-compressed",
        "tar": "application/x-tar", "xz": "application/x-xz", "bz2": "application/x-bzip2", "zst": "application/zstd",
        "sqlite": "application/vnd.sqlite3", "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf",
        "otf": "font/otf", "mid": "audio/midi", "wasm": "application/wasm", "ps": "application/postscript",
    ]
}
