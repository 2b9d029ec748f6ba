import Foundation
import NoteTestSupport
import Testing

@Suite struct StoreFolderTests {
    private func mode(_ url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return try #require(attributes[.posixPermissions] as? Int)
    }

    @Test func theFirstCommandMakesAPrivateFolderAndDatabase() throws {
        let fixture = CommandLineFixture()
        #expect(!FileManager.default.fileExists(atPath: fixture.store.path))
        try fixture.succeed(["ls"])
        #expect(try mode(fixture.store) == 0o700)
        let database = fixture.store.appendingPathComponent("store.sqlite")
        #expect(try mode(database) == 0o600)
        for companion in ["store.sqlite-wal", "store.sqlite-shm"] {
            let url = fixture.store.appendingPathComponent(companion)
            if FileManager.default.fileExists(atPath: url.path) { #expect(try mode(url) == 0o600) }
        }
    }

    @Test func missingParentFoldersAreMadeToo() throws {
        let fixture = CommandLineFixture()
        let deep = fixture.file("a/b/store")
        let id = try fixture.run(["add", "Deep"], store: deep)
        #expect(id.status == 0, "\(id)")
        #expect(try mode(deep) == 0o700)
        #expect(try mode(deep.appendingPathComponent("store.sqlite")) == 0o600)
    }

    @Test func theStoreOptionIsHonouredBeforeAndAfterTheSubcommand() throws {
        let fixture = CommandLineFixture()
        let other = fixture.file("other")
        let environment = ["XDG_DATA_HOME": fixture.defaultDataHome.path]
        let before = try NotesCommand.run(["--store", other.path, "add", "Before"], environment: environment)
        let after = try NotesCommand.run(["add", "After", "--store", other.path], environment: environment)
        #expect(before.status == 0 && after.status == 0, "\(before)\n\(after)")
        let listed = try JSONChecks.array(fixture.succeed(["ls", "--json"], store: other).output)
        #expect(JSONChecks.names(listed) == ["After", "Before"])
        #expect(!FileManager.default.fileExists(atPath: fixture.defaultDataHome.path))
    }

    @Test func withoutTheOptionTheStoreIsNotesStoreElseTheDataHome() throws {
        let fixture = CommandLineFixture()
        let fromEnvironment = fixture.file("env-store")
        let dataHome = fixture.defaultDataHome
        let first = try NotesCommand.run(
            ["add", "Via NOTES_STORE"],
            environment: ["NOTES_STORE": fromEnvironment.path, "XDG_DATA_HOME": dataHome.path])
        #expect(first.status == 0, "\(first)")
        #expect(FileManager.default.fileExists(atPath: fromEnvironment.appendingPathComponent("store.sqlite").path))
        #expect(!FileManager.default.fileExists(atPath: dataHome.path))
        let second = try NotesCommand.run(["add", "Via XDG_DATA_HOME"], environment: ["XDG_DATA_HOME": dataHome.path])
        #expect(second.status == 0, "\(second)")
        let inDataHome = try JSONChecks.array(
            fixture.succeed(["ls", "--json"], store: dataHome.appendingPathComponent("notes")).output)
        #expect(JSONChecks.names(inDataHome) == ["Via XDG_DATA_HOME"])
    }
}
