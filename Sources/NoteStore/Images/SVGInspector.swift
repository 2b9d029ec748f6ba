import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Decides whether a file is a well-formed SVG image, and reads its size when it states one.
///
/// The whole file is read by an XML parser (libxml2, through Foundation's `XMLParser`), from a
/// stream: memory stays bounded whatever the size. It must be well-formed XML whose root
/// element is `svg`; a document that declares entities is refused (no entity is ever
/// expanded, and no external one fetched). The size is that of the root's `width` and `height`
/// attributes when both are plain numbers or pixels (`120`, `120.5px`); otherwise (percentages,
/// other units, only a `viewBox`) the image has none. Nothing is drawn.
///
/// See https://www.w3.org/TR/SVG2/struct.html#SVGElement.
public enum SVGInspector {
    /// What the root of an SVG image says of its size: nil when it says none.
    public struct Size: Sendable, Equatable {
        public let width: Int
        public let height: Int
    }

    /// Why a file is not a well-formed SVG image.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public let reason: String
        public var description: String { "not a well-formed SVG image: \(reason)" }
    }

    /// Reads the file at `path`, whose first bytes are `sample` (all of them when `isWhole`),
    /// and returns the size it states.
    public static func inspect(fileAt path: String, sample: [UInt8], isWhole: Bool) throws(Problem) -> Size? {
        try checkPrologue(sample, isWhole: isWhole)
        return try inspect(fileAt: path)
    }

    /// Refuses a prologue (what comes before the root element) that declares entities, or that
    /// the first bytes do not hold whole: entities are never expanded.
    static func checkPrologue(_ sample: [UInt8], isWhole: Bool) throws(Problem) {
        let text = String(decoding: sample, as: UTF8.self)
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<") {
            let tag = rest[open...]
            if tag.hasPrefix("<!--") {
                guard let end = tag.range(of: "-->") else { break }
                rest = tag[end.upperBound...]
            } else if tag.hasPrefix("<!") || tag.hasPrefix("<?") {
                // A document type's internal subset may hold `>` inside brackets: up to `]>`.
                let close = tag.hasPrefix("<!DOCTYPE") && tag.prefix { $0 != ">" }.contains("[") ? "]>" : ">"
                guard let end = tag.range(of: close) else { break }
                if tag[..<end.upperBound].contains("<!ENTITY") { throw Problem(reason: "it declares entities") }
                rest = tag[end.upperBound...]
            } else {
                return
            }
        }
        if text.contains("<!ENTITY") { throw Problem(reason: "it declares entities") }
        if !isWhole { throw Problem(reason: "its root element does not start in its first 64 KiB") }
    }

    /// Reads the file at `path` and returns the size it states.
    public static func inspect(fileAt path: String) throws(Problem) -> Size? {
        guard let stream = InputStream(fileAtPath: path) else { throw Problem(reason: "it could not be read") }
        return try inspect(XMLParser(stream: stream))
    }

    /// Reads `data` and returns the size it states.
    public static func inspect(_ data: Data) throws(Problem) -> Size? {
        try inspect(XMLParser(data: data))
    }

    /// Whether bytes that start with `sample` look like an SVG document: after a byte order
    /// mark, white space, an XML declaration, comments and a document type, the first element
    /// is `svg` (with or without a prefix). Whether it is one, ``inspect(fileAt:)`` decides.
    public static func looksLikeSVG(_ sample: [UInt8]) -> Bool {
        var text = Substring(String(decoding: sample.prefix(8192), as: UTF8.self))
        if text.hasPrefix("\u{FEFF}") { text = text.dropFirst() }
        while true {
            text = text.drop { $0.isWhitespace }
            if text.hasPrefix("<?") || text.hasPrefix("<!--") || text.hasPrefix("<!") {
                let end = text.hasPrefix("<!--") ? "-->" : ">"
                guard let range = text.range(of: end) else { return false }
                text = text[range.upperBound...]
                continue
            }
            guard text.hasPrefix("<") else { return false }
            let name = text.dropFirst().prefix { !$0.isWhitespace && $0 != ">" && $0 != "/" }
            return name == "svg" || name.hasSuffix(":svg")
        }
    }

    private static func inspect(_ parser: XMLParser) throws(Problem) -> Size? {
        let reader = Reader()
        parser.delegate = reader
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = true
        let parsed = parser.parse()
        if let refusal = reader.refusal { throw Problem(reason: refusal) }
        guard parsed else {
            throw Problem(reason: "the XML is not well-formed (line \(parser.lineNumber))")
        }
        guard reader.sawRoot else { throw Problem(reason: "it has no root element") }
        return reader.size
    }

    /// The parser's delegate: looks at the root element, refuses entity declarations.
    private final class Reader: NSObject, XMLParserDelegate {
        var sawRoot = false
        var size: Size?
        var refusal: String?

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            guard !sawRoot else { return }
            sawRoot = true
            guard elementName == "svg" else {
                refuse(parser, "its root element is <\(elementName.prefix(40))>, not <svg>")
                return
            }
            if let width = attributes["width"].flatMap(Self.pixels),
                let height = attributes["height"].flatMap(Self.pixels)
            {
                size = Size(width: width, height: height)
            }
        }

        func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) {
            refuse(parser, "it declares entities")
        }

        func parser(
            _ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?,
            systemID: String?
        ) {
            refuse(parser, "it declares entities")
        }

        func parser(
            _ parser: XMLParser, foundUnparsedEntityDeclarationWithName name: String, publicID: String?,
            systemID: String?, notationName: String?
        ) {
            refuse(parser, "it declares entities")
        }

        private func refuse(_ parser: XMLParser, _ reason: String) {
            if refusal == nil { refusal = reason }
            parser.abortParsing()
        }

        /// A length in pixels: a positive number, with `px` or no unit, rounded, at most a million.
        static func pixels(_ text: String) -> Int? {
            var number = Substring(text.trimmingCharacters(in: .whitespaces))
            if number.hasSuffix("px") { number = number.dropLast(2) }
            guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
                let value = Double(number), value.isFinite, value > 0, value <= 1_000_000
            else { return nil }
            return max(1, Int(value.rounded()))
        }
    }
}
