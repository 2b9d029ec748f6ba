import Foundation
import NoteStore
import NoteTestSupport
import Testing

/// The corner cases of link resolution as data (`Fixtures/link-resolution.json`): each case
/// makes notes by path, applies its steps (`add`, `rename`, `move`, `alias`, `trash`,
/// `purge`), then names, for each linking note, the paths its links reach (null: nothing).
@Suite struct LinkResolutionFixtureTests {
    struct Case: Decodable, CustomTestStringConvertible {
        let `case`: String
        let notes: [String: String]
        let steps: [[String]]?
        let expect: [String: [String?]]
        var testDescription: String { self.case }
    }

    static let cases: [Case] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "Fixtures/link-resolution.json")
        return (try? JSONDecoder().decode([Case].self, from: Data(contentsOf: url))) ?? []
    }()

    @Test func theFixturesAreRead() {
        #expect(Self.cases.count >= 9)
    }

    @Test(arguments: cases)
    func resolves(_ fixture: Case) throws {
        let folder = TemporaryFolder()
        let store = try Store(folder: folder.appending("store"))
        // Collections first, then notes, in path order, so that the same case makes the same store.
        func collection(_ path: [String]) throws -> UUID? {
            var parent: UUID?
            for name in path {
                let existing = try store.fetch(
                    ItemRequest(kind: .collection, scope: parent.map { .children(of: $0) } ?? .topLevel))
                parent = try existing.first { $0.name == name }?.id ?? store.addCollection(named: name, in: parent).id
            }
            return parent
        }
        func add(_ path: String, _ body: String) throws {
            let names = path.split(separator: "/").map(String.init)
            _ = try store.addNote(named: names.last!, body: body, in: try collection(Array(names.dropLast())))
        }
        for path in fixture.notes.keys.sorted() { try add(path, fixture.notes[path]!) }
        for step in fixture.steps ?? [] {
            switch step[0] {
            case "add": try add(step[1], step[2])
            case "rename": _ = try store.edit(try store.resolve(step[1]).id, name: step[2])
            case "move":
                try store.move(
                    try store.resolve(step[1]).id, to: try collection(step[2].split(separator: "/").map(String.init)))
            case "alias":
                try store.setProperty(
                    try store.resolve(step[1]).id, "aliases", to: .list(step.dropFirst(2).map(PropertyValue.string)))
            case "trash": _ = try store.trash(try store.resolve(step[1]).id)
            case "purge": _ = try store.emptyTrash()
            default: Issue.record("unknown step \(step[0])")
            }
        }
        for (source, expected) in fixture.expect {
            let note = try store.resolve(source, scope: .any)
            let reached = try store.links(of: note.id).map { link in
                try link.resolved.map { try store.path(of: store.item($0)) }
            }
            #expect(reached == expected, "\(source)")
        }
    }
}
