import Foundation
import NoteStore
import NoteTestSupport
import Testing

/// A sample image in `Samples/images/`, with what the tools that made it say about it.
///
/// Sizes as reported by `identify` (ImageMagick) and `webpinfo`; see `make-images.sh`.
struct ImageSample: Sendable, CustomTestStringConvertible {
    let file: String
    let format: ImageFormat
    let width: Int
    let height: Int

    static let all: [ImageSample] = [
        ImageSample(file: "baseline.jpg", format: .jpeg, width: 161, height: 121),
        ImageSample(file: "progressive.jpg", format: .jpeg, width: 203, height: 147),
        ImageSample(file: "photo-exif.jpg", format: .jpeg, width: 241, height: 181),
        ImageSample(file: "plain.png", format: .png, width: 121, height: 81),
        ImageSample(file: "interlaced.png", format: .png, width: 97, height: 67),
        ImageSample(file: "indexed.png", format: .png, width: 57, height: 43),
        ImageSample(file: "still.gif", format: .gif, width: 65, height: 49),
        ImageSample(file: "animated.gif", format: .gif, width: 81, height: 61),
        ImageSample(file: "lossy.webp", format: .webp, width: 151, height: 101),
        ImageSample(file: "lossless.webp", format: .webp, width: 91, height: 61),
        ImageSample(file: "extended.webp", format: .webp, width: 129, height: 97),
        ImageSample(file: "animated.webp", format: .webp, width: 81, height: 61),
    ]

    static func named(_ file: String) -> ImageSample {
        all.first { $0.file == file } ?? ImageSample(file: file, format: .png, width: 0, height: 0)
    }

    var testDescription: String { file }

    /// The sample's bytes, read from the repository next to this test file.
    func bytes() throws -> [UInt8] {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // NoteStoreTests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()
        return [UInt8](try Data(contentsOf: root.appendingPathComponent("Samples/images/\(file)")))
    }
}

@Suite struct ImageInspectorTests {
    private func inspect(_ bytes: [UInt8]) throws(ImageProblem) -> ImageInfo {
        try ImageInspector.inspect(Data(bytes))
    }

    /// The problem `inspect` throws, or nil when it accepts the bytes.
    private func problem(_ bytes: [UInt8]) -> ImageProblem? {
        do {
            _ = try inspect(bytes)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Samples

    @Test(arguments: ImageSample.all)
    func sampleGivesItsFormatAndSize(sample: ImageSample) throws {
        let info = try inspect(try sample.bytes())
        #expect(info == ImageInfo(format: sample.format, width: sample.width, height: sample.height))
    }

    /// The samples are the kinds they are named after, so the tests above cover those kinds.
    @Test func samplesHaveTheStructureTheirNamesPromise() throws {
        let progressive = try ImageSample.named("progressive.jpg").bytes()
        #expect(progressive.occurrences(of: [0xFF, 0xC2]) == 1)  // SOF2
        #expect(progressive.occurrences(of: [0xFF, 0xDA]) > 2)  // several scans
        #expect(try ImageSample.named("baseline.jpg").bytes().occurrences(of: [0xFF, 0xC0]) == 1)

        let photo = try ImageSample.named("photo-exif.jpg").bytes()
        #expect(photo.occurrences(of: Array("Exif\0\0".utf8)) == 1)
        #expect(photo.occurrences(of: [0xFF, 0xD8, 0xFF]) == 2)  // the photo and its thumbnail

        #expect(try ImageSample.named("interlaced.png").bytes()[28] == 1)  // IHDR interlace method
        #expect(try ImageSample.named("plain.png").bytes()[28] == 0)
        let indexed = try ImageSample.named("indexed.png").bytes()
        #expect(indexed[25] == 3)  // IHDR colour type: indexed
        #expect(indexed.occurrences(of: Array("PLTE".utf8)) == 1)
        #expect(indexed.occurrences(of: Array("tRNS".utf8)) == 1)

        let animatedGIF = try ImageSample.named("animated.gif").bytes()
        #expect(animatedGIF.occurrences(of: Array("NETSCAPE2.0".utf8)) == 1)
        #expect(animatedGIF.occurrences(of: [0x21, 0xF9, 0x04]) >= 5)  // a graphic control per frame

        #expect(try ImageSample.named("lossy.webp").bytes()[12..<16].elementsEqual("VP8 ".utf8))
        #expect(try ImageSample.named("lossless.webp").bytes()[12..<16].elementsEqual("VP8L".utf8))
        let extended = try ImageSample.named("extended.webp").bytes()
        #expect(extended[12..<16].elementsEqual("VP8X".utf8))
        #expect(extended.occurrences(of: Array("ALPH".utf8)) == 1)
        let animatedWebP = try ImageSample.named("animated.webp").bytes()
        #expect(animatedWebP[12..<16].elementsEqual("VP8X".utf8))
        #expect(animatedWebP.occurrences(of: Array("ANIM".utf8)) == 1)
        #expect(animatedWebP.occurrences(of: Array("ANMF".utf8)) == 5)
    }

    @Test func nameLyingAboutTheFormatIsIgnored() throws {
        let folder = TemporaryFolder("image-inspector")
        let file = folder.appending("holiday.jpg")
        try Data(try ImageSample.named("plain.png").bytes()).write(to: file)
        let info = try ImageInspector.inspect(try Data(contentsOf: file))
        #expect(info == ImageInfo(format: .png, width: 121, height: 81))
    }

    // MARK: Refusals of any format

    @Test func textFileIsNotAnImage() {
        let text = Array("Groceries: milk, eggs, bread\nGIF of a cat, PNG of a dog\n".utf8)
        #expect(problem(text) == .unknownFormat)
    }

    @Test func emptyFileIsNotAnImage() {
        #expect(problem([]) == .unknownFormat)
    }

    @Test func messagesNameTheFormatAndTheCause() {
        #expect(ImageProblem.unknownFormat.description == "not a PNG, JPEG, GIF or WebP image")
        #expect(ImageProblem.truncated(.png).description == "truncated PNG image")
        #expect(
            ImageProblem.corrupt(.webp, "VP8 chunk at byte 12 is not a key frame").description
                == "corrupt WebP image: VP8 chunk at byte 12 is not a key frame")
    }

    @Test(arguments: ImageSample.all)
    func truncatedSampleIsRefused(sample: ImageSample) throws {
        let bytes = try sample.bytes()
        let lengths = [
            16, bytes.count / 4, bytes.count / 2, bytes.count * 3 / 4, bytes.count - 2, bytes.count - 1,
        ]
        for length in lengths {
            let found = problem(Array(bytes.prefix(length)))
            #expect(
                found == .truncated(sample.format) || found?.isCorrupt(sample.format) == true,
                "cut at \(length)")
        }
    }

    /// No prefix of a sample is accepted: a whole image always needs its last bytes.
    @Test(arguments: ImageSample.all)
    func noPrefixOfSampleIsAccepted(sample: ImageSample) throws {
        let bytes = try sample.bytes()
        let step = max(1, bytes.count / 300)
        for length in Set(
            Array(stride(from: 0, to: bytes.count, by: step)) + (0..<64) + (bytes.count - 64..<bytes.count))
        {
            #expect(problem(Array(bytes.prefix(length))) != nil, "cut at \(length)")
        }
    }

    // MARK: PNG

    @Test func pngSignatureAloneIsTruncated() {
        #expect(problem([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) == .truncated(.png))
    }

    @Test func pngWithConvertedLineEndingsIsCorrupt() throws {
        var bytes = try ImageSample.named("plain.png").bytes()
        bytes.replaceSubrange(4..<6, with: [0x0A])
        #expect(problem(bytes)?.isCorrupt(.png) == true)
    }

    @Test func flippedByteInsidePNGImageDataFailsItsChecksum() throws {
        var bytes = try ImageSample.named("plain.png").bytes()
        let type = try #require(bytes.firstOffset(of: Array("IDAT".utf8)))
        bytes[type + 4 + 100] ^= 0x01
        #expect(problem(bytes) == .corrupt(.png, "bad checksum in chunk IDAT at byte \(type - 4)"))
    }

    @Test func pngWithZeroWidthIsCorrupt() throws {
        var bytes = try ImageSample.named("plain.png").bytes()
        bytes.replaceSubrange(16..<20, with: [0, 0, 0, 0])  // IHDR width
        bytes.replaceSubrange(29..<33, with: bigEndian(crc32(bytes[12..<29])))
        #expect(problem(bytes) == .corrupt(.png, "image width is 0 in IHDR"))
    }

    @Test func pngWithInvalidBitDepthIsCorrupt() throws {
        var bytes = try ImageSample.named("plain.png").bytes()
        bytes[24] = 4  // truecolour allows only 8 and 16
        bytes.replaceSubrange(29..<33, with: bigEndian(crc32(bytes[12..<29])))
        #expect(problem(bytes) == .corrupt(.png, "bit depth 4 is not allowed with colour type 2"))
    }

    @Test func dataAfterPNGEndIsCorrupt() throws {
        let bytes = try ImageSample.named("plain.png").bytes()
        let found = problem(bytes + Array("garbage".utf8))
        #expect(found == .corrupt(.png, "7 bytes after IEND at byte \(bytes.count)"))
    }

    @Test func pngWithoutIEndIsTruncated() throws {
        let bytes = try ImageSample.named("interlaced.png").bytes()
        #expect(problem(Array(bytes.dropLast(12))) == .truncated(.png))
    }

    @Test func smallestPNGShapeIsAccepted() throws {
        let png =
            pngSignature + pngChunk("IHDR", pngHeader(width: 3, height: 2)) + pngChunk("IDAT", [1, 2, 3])
            + pngChunk("IEND", [])
        #expect(problem(png) == nil)
        #expect(try inspect(png) == ImageInfo(format: .png, width: 3, height: 2))
    }

    @Test func pngWhoseFirstChunkIsNotIHDRIsCorrupt() {
        // IEND's CRC is the well-known AE 42 60 82, so this also checks the CRC table.
        let png = pngSignature + [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
        #expect(problem(png) == .corrupt(.png, "chunk IEND at byte 8 comes first, expected IHDR"))
    }

    @Test func pngWithIDATsApartIsCorrupt() {
        let png =
            pngSignature + pngChunk("IHDR", pngHeader(width: 1, height: 1)) + pngChunk("IDAT", [1])
            + pngChunk("tEXt", Array("a\0b".utf8)) + pngChunk("IDAT", [2]) + pngChunk("IEND", [])
        #expect(problem(png)?.isCorrupt(.png) == true)
        let together =
            pngSignature + pngChunk("IHDR", pngHeader(width: 1, height: 1)) + pngChunk("IDAT", [1])
            + pngChunk("IDAT", [2]) + pngChunk("tEXt", Array("a\0b".utf8)) + pngChunk("IEND", [])
        #expect(problem(together) == nil)
    }

    @Test func pngWithoutIDATIsCorrupt() {
        let png = pngSignature + pngChunk("IHDR", pngHeader(width: 1, height: 1)) + pngChunk("IEND", [])
        #expect(problem(png) == .corrupt(.png, "no IDAT chunk before IEND"))
    }

    @Test func pngWithUnknownCriticalChunkIsCorrupt() {
        let png =
            pngSignature + pngChunk("IHDR", pngHeader(width: 1, height: 1)) + pngChunk("ABCD", [])
            + pngChunk("IDAT", [1]) + pngChunk("IEND", [])
        #expect(problem(png) == .corrupt(.png, "unknown critical chunk at byte 33"))
        let ancillary =
            pngSignature + pngChunk("IHDR", pngHeader(width: 1, height: 1)) + pngChunk("aBCD", [])
            + pngChunk("IDAT", [1]) + pngChunk("IEND", [])
        #expect(problem(ancillary) == nil)
    }

    @Test func indexedPNGWithoutPaletteIsCorrupt() throws {
        let bytes = try ImageSample.named("indexed.png").bytes()
        let palette = try #require(bytes.firstOffset(of: Array("PLTE".utf8))) - 4
        let length = Int(bytes[palette + 3])
        let withoutPalette = Array(bytes[..<palette] + bytes[(palette + 12 + length)...])
        #expect(
            problem(withoutPalette) == .corrupt(.png, "indexed-colour image without a PLTE chunk before IDAT")
        )
    }

    @Test func pngChunkLengthAboveTheLimitIsCorrupt() throws {
        var bytes = try ImageSample.named("plain.png").bytes()
        bytes.replaceSubrange(8..<12, with: [0xFF, 0xFF, 0xFF, 0xF0])
        #expect(problem(bytes) == .corrupt(.png, "chunk length 4294967280 exceeds 2^31-1 at byte 8"))
    }

    // MARK: JPEG

    @Test func jpegWithoutEOIIsTruncated() throws {
        let bytes = try ImageSample.named("baseline.jpg").bytes()
        #expect(Array(bytes.suffix(2)) == [0xFF, 0xD9])
        #expect(problem(Array(bytes.dropLast(2))) == .truncated(.jpeg))
    }

    @Test func jpegSizeComesFromTheImageNotItsExifThumbnail() throws {
        let bytes = try ImageSample.named("photo-exif.jpg").bytes()
        #expect(try inspect(bytes) == ImageInfo(format: .jpeg, width: 241, height: 181))
        // Cut inside the EXIF segment, right after the thumbnail's own EOI: still truncated.
        let thumbnailEnd = try #require(bytes.firstOffset(of: [0xFF, 0xD9]))
        #expect(thumbnailEnd < bytes.count - 2)
        #expect(problem(Array(bytes.prefix(thumbnailEnd + 2))) == .truncated(.jpeg))
    }

    @Test func jpegWithZeroHeightIsCorrupt() throws {
        var bytes = try ImageSample.named("baseline.jpg").bytes()
        let frame = try #require(bytes.firstOffset(of: [0xFF, 0xC0]))
        bytes.replaceSubrange(frame + 5..<frame + 7, with: [0, 0])
        #expect(problem(bytes)?.isCorrupt(.jpeg) == true)
    }

    @Test func jpegScanBeforeFrameHeaderIsCorrupt() throws {
        var bytes = try ImageSample.named("baseline.jpg").bytes()
        let frame = try #require(bytes.firstOffset(of: [0xFF, 0xC0]))
        bytes[frame + 1] = 0xE5  // the frame header becomes an APP5 segment
        #expect(problem(bytes)?.isCorrupt(.jpeg) == true)
    }

    @Test func bytesAfterJPEGEndAreAllowed() throws {
        let bytes = try ImageSample.named("baseline.jpg").bytes()
        #expect(try inspect(bytes + [0, 0, 0, 0]).format == .jpeg)
    }

    @Test func jpegInsideAnApplicationSegmentIsSkipped() throws {
        let thumbnail = [0xFF, 0xD8] + jpegFrame(width: 8, height: 8) + jpegScan + [0x12, 0xFF, 0xD9]
        let exif = [0xFF, 0xE1] + bigEndian16(2 + 6 + thumbnail.count) + Array("Exif\0\0".utf8) + thumbnail
        let entropyCoded: [UInt8] = [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD0, 0x56, 0xFF, 0xFF, 0xD7, 0x78]
        let jpeg =
            [0xFF, 0xD8] + exif + jpegFrame(width: 300, height: 200) + jpegScan + entropyCoded + [0xFF, 0xD9]
        #expect(problem(jpeg) == nil)
        #expect(try inspect(jpeg) == ImageInfo(format: .jpeg, width: 300, height: 200))
        #expect(problem(Array(jpeg.dropLast(2))) == .truncated(.jpeg))
    }

    @Test func jpegScansInSequenceAreFollowed() throws {
        let table: [UInt8] = [0xFF, 0xC4, 0x00, 0x04, 0x00, 0x00]  // a DHT segment between scans
        let jpeg =
            [0xFF, 0xD8] + jpegFrame(width: 5, height: 7, marker: 0xC2) + jpegScan + [1, 2]
            + table + jpegScan + [3, 0xFF, 0x00] + jpegScan + [4] + [0xFF, 0xD9]
        #expect(try inspect(jpeg) == ImageInfo(format: .jpeg, width: 5, height: 7))
    }

    @Test func jpegWithoutScanIsCorrupt() {
        let jpeg = [0xFF, 0xD8] + jpegFrame(width: 5, height: 7) + [0xFF, 0xD9]
        #expect(problem(jpeg) == .corrupt(.jpeg, "EOI at byte 21 before any scan"))
    }

    // MARK: GIF

    @Test func gifWithoutTrailerIsTruncated() throws {
        let bytes = try ImageSample.named("still.gif").bytes()
        #expect(bytes.last == 0x3B)
        #expect(problem(Array(bytes.dropLast())) == .truncated(.gif))
    }

    @Test func gifWithZeroWidthIsCorrupt() throws {
        var bytes = try ImageSample.named("animated.gif").bytes()
        bytes.replaceSubrange(6..<8, with: [0, 0])
        #expect(problem(bytes) == .corrupt(.gif, "logical screen size is 0"))
    }

    @Test func gifWithUnknownVersionIsCorrupt() throws {
        var bytes = try ImageSample.named("still.gif").bytes()
        bytes[4] = Character("8").asciiValue ?? 0
        #expect(problem(bytes) == .corrupt(.gif, "unknown version in header"))
    }

    @Test func gifWithoutImageIsCorrupt() {
        let header = Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0]
        #expect(problem(header + [0x3B]) == .corrupt(.gif, "no image before the trailer"))
    }

    @Test func smallestGIFShapeIsAccepted() throws {
        #expect(try inspect(gif(codeSize: 2)) == ImageInfo(format: .gif, width: 2, height: 2))
        #expect(
            problem(gif(codeSize: 9))
                == .corrupt(.gif, "image at byte 13 has LZW minimum code size 9, not 2 to 8"))
        #expect(problem(gif(codeSize: 1))?.isCorrupt(.gif) == true)
    }

    @Test func dataAfterGIFTrailerIsCorrupt() throws {
        let bytes = try ImageSample.named("still.gif").bytes()
        #expect(problem(bytes + [0x3B])?.isCorrupt(.gif) == true)
    }

    // MARK: WebP

    @Test(arguments: ["lossy.webp", "lossless.webp", "extended.webp", "animated.webp"])
    func webpWhoseRIFFSizeDisagreesIsRefused(file: String) throws {
        let bytes = try ImageSample.named(file).bytes()
        let size = bytes.count - 8
        #expect(problem(withRIFFSize(bytes, size + 2)) == .truncated(.webp))
        #expect(problem(withRIFFSize(bytes, size - 2))?.isCorrupt(.webp) == true)
        #expect(problem(bytes + [0, 0])?.isCorrupt(.webp) == true)
    }

    @Test func riffThatIsNotWebPIsUnknown() {
        let wave = Array("RIFF".utf8) + [4, 0, 0, 0] + Array("WAVE".utf8)
        #expect(problem(wave) == .unknownFormat)
    }

    @Test func webpWithoutImageChunkIsCorrupt() throws {
        let bytes = try ImageSample.named("extended.webp").bytes()
        let vp8x = Array(bytes[12..<30])
        let file = Array("RIFF".utf8) + littleEndian(UInt32(4 + vp8x.count)) + Array("WEBP".utf8) + vp8x
        #expect(problem(file) == .corrupt(.webp, "no VP8 or VP8L chunk after VP8X"))
    }

    @Test func webpChunkLargerThanTheFileIsCorrupt() throws {
        var bytes = try ImageSample.named("lossless.webp").bytes()
        bytes.replaceSubrange(16..<20, with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(
            problem(bytes) == .corrupt(.webp, "VP8L chunk at byte 12 extends past the end of the RIFF data"))
    }

    @Test func lossyWebPThatIsNotAKeyFrameIsCorrupt() throws {
        var bytes = try ImageSample.named("lossy.webp").bytes()
        bytes[20] |= 0x01  // frame tag: interframe
        #expect(problem(bytes) == .corrupt(.webp, "VP8 chunk at byte 12 is not a key frame"))
    }

    // MARK: Mutations

    /// Seeded random damage must never crash the inspector, and what it accepts must make sense.
    ///
    /// Half of the damaged files have their PNG checksums or RIFF size made to agree again, so
    /// that the damage reaches the checks behind those. A failure names its seed and round.
    @Test(arguments: ImageSample.all)
    func randomDamageIsRefusedOrStillTheSameFormat(sample: ImageSample) throws {
        let original = try sample.bytes()
        let seed = sample.file.utf8.reduce(UInt64(0x5EED)) { $0 &* 31 &+ UInt64($1) }
        var random = SplitMix64(seed: seed)
        var refused = 0
        for round in 0..<300 {
            var mutated = mutate(original, using: &random)
            if random.next(below: 2) == 0 { mutated = repairingEnvelope(of: mutated, format: sample.format) }
            do {
                let info = try inspect(mutated)
                #expect(
                    info.format == sample.format && info.width > 0 && info.height > 0,
                    "seed \(seed), round \(round)")
            } catch {
                refused += 1
            }
        }
        #expect(refused > 0)
    }

    /// One to three random edits: mostly flipped or overwritten bytes, else inserted or deleted
    /// bytes, or the end cut off.
    private func mutate(_ bytes: [UInt8], using random: inout SplitMix64) -> [UInt8] {
        var result = bytes
        for _ in 0..<(1 + random.next(below: 3)) {
            let position = random.next(below: result.count + 1)
            switch random.next(below: 8) {
            case 0...2 where position < result.count:
                result[position] ^= UInt8(1 + random.next(below: 255))
            case 0...4:
                let count = min(1 + random.next(below: 4), result.count - position)
                let values = (0..<count).map { _ in UInt8(random.next(below: 256)) }
                result.replaceSubrange(position..<position + count, with: values)
            case 5:
                let inserted = (0..<(1 + random.next(below: 8))).map { _ in UInt8(random.next(below: 256)) }
                result.insert(contentsOf: inserted, at: position)
            case 6:
                result.removeSubrange(position..<min(result.count, position + 1 + random.next(below: 8)))
            default:
                result.removeSubrange(position...)
            }
        }
        return result
    }

    /// The bytes with every PNG chunk's CRC recomputed, or with the RIFF size set to the length.
    private func repairingEnvelope(of bytes: [UInt8], format: ImageFormat) -> [UInt8] {
        var result = bytes
        switch format {
        case .png:
            var offset = 8
            while offset + 12 <= result.count {
                let length = Int(result[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
                guard length <= result.count - offset - 12 else { break }
                let end = offset + 8 + length
                result.replaceSubrange(end..<end + 4, with: bigEndian(crc32(result[(offset + 4)..<end])))
                offset = end + 4
            }
        case .webp where result.count >= 8:
            result.replaceSubrange(4..<8, with: littleEndian(UInt32(result.count - 8)))
        default:
            break
        }
        return result
    }

    // MARK: Helpers

    private let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    private func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeAndData = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typeAndData + bigEndian(crc32(typeAndData[...]))
    }

    /// IHDR data for 8-bit truecolour, not interlaced.
    private func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        bigEndian(width) + bigEndian(height) + [8, 2, 0, 0, 0]
    }

    /// A frame header with three components (SOF0 unless told).
    private func jpegFrame(width: Int, height: Int, marker: UInt8 = 0xC0) -> [UInt8] {
        [0xFF, marker, 0x00, 17, 8] + bigEndian16(height) + bigEndian16(width)
            + [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
    }

    /// A scan header over the three components of ``jpegFrame(width:height:marker:)``.
    private let jpegScan: [UInt8] = [0xFF, 0xDA, 0x00, 12, 3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0]

    private func bigEndian16(_ value: Int) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }

    /// A 2x2 GIF89a with one image: no colour tables, the given LZW minimum code size, 3 data bytes.
    private func gif(codeSize: UInt8) -> [UInt8] {
        Array("GIF89a".utf8) + [2, 0, 2, 0, 0, 0, 0]
            + [0x2C, 0, 0, 0, 0, 2, 0, 2, 0, 0, codeSize, 3, 0x44, 0x01, 0x05, 0] + [0x3B]
    }

    private func withRIFFSize(_ bytes: [UInt8], _ size: Int) -> [UInt8] {
        var result = bytes
        result.replaceSubrange(4..<8, with: littleEndian(UInt32(size)))
        return result
    }

    private func littleEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    private func bigEndian(_ value: UInt32) -> [UInt8] {
        littleEndian(value).reversed()
    }

    /// CRC-32 computed bit by bit, apart from the inspector's table-driven one.
    private func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

extension SplitMix64 {
    /// A number in 0..<bound (0 when bound is 0).
    mutating func next(below bound: Int) -> Int {
        bound > 0 ? Int(next() % UInt64(bound)) : 0
    }
}

extension ImageProblem {
    fileprivate func isCorrupt(_ format: ImageFormat) -> Bool {
        if case .corrupt(let found, _) = self { return found == format }
        return false
    }
}

extension Array where Element == UInt8 {
    fileprivate func firstOffset(of pattern: [UInt8]) -> Int? {
        guard !pattern.isEmpty, pattern.count <= count else { return nil }
        return (0...(count - pattern.count)).first { self[$0..<$0 + pattern.count].elementsEqual(pattern) }
    }

    fileprivate func occurrences(of pattern: [UInt8]) -> Int {
        guard !pattern.isEmpty, pattern.count <= count else { return 0 }
        return (0...(count - pattern.count)).count { self[$0..<$0 + pattern.count].elementsEqual(pattern) }
    }
}
