import Foundation
import NoteFiles
import NoteTestSupport
import Testing

/// The listing of a folder of many files with names of every length: every name comes back
/// whole, read from the records the system gives without reading past them.
@Suite struct FolderListingTests {
    let folder = TemporaryFolder("notes-listing")

    @Test func aFolderOfThousandsOfLongNamesIsListedWhole() throws {
        var expected: Set<String> = []
        for index in 0..<3_000 {
            let name = "note \(index) " + String(repeating: "é", count: index % 100) + ".md"
            expected.insert(name)
            #expect(FileManager.default.createFile(atPath: folder.appending(name).path, contents: Data()))
        }
        try FileManager.default.createDirectory(at: folder.appending("inner"), withIntermediateDirectories: false)
        let entries = try FolderListing.entries(of: folder.url.path)
        #expect(Set(entries.filter { $0.kind == .file }.map(\.name)) == expected)
        #expect(entries.filter { $0.kind == .folder }.map(\.name) == ["inner"])
        #expect(entries.count == 3_001)
    }
}
