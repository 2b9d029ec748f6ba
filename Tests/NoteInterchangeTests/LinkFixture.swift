import Foundation
import NoteStore
import NoteTestSupport

/// The folders and store of the symbolic link tests of export and import: a folder of its
/// own holding `out`, `outside` and `vault`, files and links made in them, and a small store.
struct LinkFixture {
    let folder = TemporaryFolder("notes-links")
    var out: URL { folder.appending("out") }
    var outside: URL { folder.appending("outside") }
    var vault: URL { folder.appending("vault") }
    var image: URL { sampleImages.appendingPathComponent("plain.png") }

    func write(_ text: String, _ url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func link(_ url: URL, to destination: String) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: destination)
    }

    /// A store with a note `Plan` (with an image) in a collection `Work`, and a note `Home`.
    func store() throws -> Store {
        let store = try Store(folder: folder.appending("store"))
        let context = store.makeContext()
        let work = context.insertCollection(named: "Work")
        let plan = context.insertNote(named: "Plan", body: "ship it\n", in: work.id)
        _ = context.insertNote(named: "Home", body: "water the plants\n")
        try context.save()
        _ = try store.attachImages([image], to: plan.id)
        return store
    }

    func contents(_ url: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }
}
