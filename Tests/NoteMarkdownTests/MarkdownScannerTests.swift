import NoteMarkdown
import Testing

/// References found by the CommonMark parser, and never inside code.
@Suite struct MarkdownScannerTests {
    func summary(_ text: String) -> [String] {
        MarkdownScanner.references(in: text).map { reference in
            var line = "\(reference.kind.rawValue) \(reference.target)"
            if let fragment = reference.fragment { line += " #\(fragment)" }
            if let display = reference.display { line += " |\(display)" }
            if !reference.text.isEmpty { line += " '\(reference.text)'" }
            return line
        }
    }

    @Test func obsidianEmbedsAndLinksWithFragmentsAndSizes() {
        let text = "See ![[shot.png|300]] and [[Create a vault#Steps|the guide]] and ![[bases.png#interface]].\n"
        #expect(
            summary(text) == [
                "wikiEmbed shot.png |300", "wikiLink Create a vault #Steps |the guide",
                "wikiEmbed bases.png #interface",
            ])
        let references = MarkdownScanner.references(in: text)
        let bytes = Array(text.utf8)
        #expect(
            references.map { String(decoding: bytes[$0.range], as: UTF8.self) }
                == ["![[shot.png|300]]", "[[Create a vault#Steps|the guide]]", "![[bases.png#interface]]"])
    }

    @Test func nothingInsideCodeSpansFencesIndentedCodeOrComments() {
        let text = """
            `![[span.png]]` and ``![](two.png)``

            ```
            ![[fenced.png]] [[Fenced]]
            ```

                ![](indented.png)

            <!-- ![[comment.png]] <img src="comment.png"> -->

            Only [[This one]].
            """
        #expect(summary(text) == ["wikiLink This one"])
    }

    @Test func markdownImagesPlainAngledPercentEncodedReferenceStyleAndWithFragments() {
        let text = """
            ![a cat](img/cat%20one.png "title") ![](<with space.jpg>) ![ref][r] ![frag](bases.png#interface)
            [a link](notes/other.md) <https://example.com>

            [r]: pics/r.gif
            """
        #expect(
            summary(text) == [
                "image img/cat one.png 'a cat'", "image with space.jpg", "image pics/r.gif 'ref'",
                "image bases.png #interface 'frag'",
                "link notes/other.md 'a link'", "link https://example.com 'https://example.com'",
            ])
        #expect(MarkdownScanner.references(in: text).last?.isExternal == true)
        #expect(MarkdownScanner.references(in: text).first?.isExternal == false)
    }

    @Test func htmlImagesInlineAndAsBlocks() {
        let text =
            "<img src=\"block.png\" width=300>\n\nText with <IMG alt='x' SRC='inline.jpg'> and <img src=bare.gif>.\n"
        #expect(summary(text) == ["htmlImage block.png", "htmlImage inline.jpg", "htmlImage bare.gif"])
    }

    /// Emphasis cannot take a wiki link's underscores, and an escaped bracket opens none.
    @Test func wikiLinksAreReadFromTheSourceNotFromTheParsedText() {
        #expect(
            summary("Read [[_draft_ notes]] and \\[[not a link]] and [[a\\|b]] in a table.") == [
                "wikiLink _draft_ notes", "wikiLink a |b",
            ])
        #expect(
            summary("- item with ![[pic.webp]]\n> quoted [[Note]]\n# Heading [[Head]]\n") == [
                "wikiEmbed pic.webp", "wikiLink Note", "wikiLink Head",
            ])
        #expect(summary("[[ ]] and [[#Only a heading]] and [[unclosed\n]]") == ["wikiLink  #Only a heading"])
    }

    @Test func unicodeAndEmptyTexts() {
        #expect(summary("") == [])
        #expect(summary("日本語 ![[写真.png]] é [[Café ☕]]") == ["wikiEmbed 写真.png", "wikiLink Café ☕"])
    }

    @Test func inlineTagsAsObsidianReadsThem() {
        let text = """
            # Heading #inheading
            Plan #work and #nested/tag, (#paren) #2024 #v2 C# issue#12 #work again
            `#code` [link](https://x.example/#fragment) #trailing/
            ```
            #fenced
            ```
            #日本語
            """
        #expect(
            MarkdownScanner.tags(in: text) == [
                "inheading", "work", "nested/tag", "paren", "v2", "trailing", "日本語",
            ])
    }
}
