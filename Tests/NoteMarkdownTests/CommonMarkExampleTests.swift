import Foundation
import NoteMarkdown
import Testing

/// The examples of the CommonMark specification that hold links, images, and the code and
/// HTML they must not be found in (Fixtures/commonmark-examples.json): the scanner finds the
/// images and links that the specification's HTML shows, with the same destinations, in the
/// same order, and nothing else.
@Suite struct CommonMarkExampleTests {
    struct Example: Decodable, Sendable, CustomTestStringConvertible {
        let example: Int
        let section: String
        let markdown: String
        let html: String
        var testDescription: String { "example \(example) (\(section))" }
    }

    struct Document: Decodable {
        let examples: [Example]
    }

    static let examples: [Example] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/commonmark-examples.json")
        guard let data = try? Data(contentsOf: url), let document = try? JSONDecoder().decode(Document.self, from: data)
        else {
            return []
        }
        return document.examples
    }()

    @Test func theFixtureHoldsTheSectionsOfLinksAndImages() {
        #expect(Self.examples.count == 315)
        #expect(
            Set(Self.examples.map(\.section)).isSuperset(of: [
                "Links", "Images", "Link reference definitions", "Autolinks",
            ]))
    }

    /// What the specification's HTML links to and shows, in order: `image DEST` for each
    /// `<img src>`, `link DEST` for each `<a href>`, the destination decoded as the scanner
    /// gives it (entities, then percent escapes, without its `#fragment`). Raw HTML of the
    /// example passes into its HTML as written: its `<a>` tags are not links of Markdown and are
    /// left out, and its `<img>` tags are the scanner's HTML images.
    static func expected(_ example: Example) -> [String] {
        var found: [String] = []
        let html = example.html
        var index = html.startIndex
        while let open = html[index...].firstIndex(of: "<") {
            guard let close = html[open...].firstIndex(of: ">") else { break }
            let tag = String(html[open...close])
            index = html.index(after: close)
            if tag.hasPrefix("<img "), let source = attribute("src", of: tag) {
                found.append("image " + decoded(source))
            } else if tag.hasPrefix("<a "), let target = attribute("href", of: tag), !example.markdown.contains(tag) {
                found.append("link " + decoded(target))
            }
        }
        return found
    }

    static func attribute(_ name: String, of tag: String) -> String? {
        guard let start = tag.range(of: " \(name)=\"") else { return nil }
        let rest = tag[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }

    static func decoded(_ text: String) -> String {
        var value = text
        for (entity, character) in [("&quot;", "\""), ("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&")] {
            value = value.replacingOccurrences(of: entity, with: character)
        }
        if let hash = value.firstIndex(of: "#") { value = String(value[..<hash]) }
        return value.removingPercentEncoding ?? value
    }

    static func found(_ example: Example) -> [String] {
        MarkdownScanner.references(in: example.markdown).compactMap { reference in
            switch reference.kind {
            case .image, .htmlImage: return "image " + reference.target
            case .link: return "link " + reference.target
            default: return nil
            }
        }
    }

    @Test(arguments: examples)
    func imagesAndLinksAreThoseOfTheSpecification(example: Example) {
        #expect(Self.found(example) == Self.expected(example), "\(example.markdown.debugDescription)")
    }
}
