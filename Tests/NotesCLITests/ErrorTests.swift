import Foundation
import NoteTestSupport
import Testing

/// Every failure is one line on standard error starting with `notes: `, nothing on standard
/// output, an exit status of 64 (usage), 65 (bad input data) or 1 (anything else), and a store
/// left as it was.
@Suite struct ErrorTests {
    /// Runs a command that must fail, and checks that the store did not change.
    private func expectRefused(
        _ fixture: CommandLineFixture, _ arguments: [String], status: Int32, mentioning: [String] = [],
        input: Data? = nil, environment: [String: String] = [:], unprivileged: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = try fixture.snapshot()
        let result = try fixture.run(arguments, input: input, environment: environment, unprivileged: unprivileged)
        fixture.expectFailure(result, status: status, mentioning: mentioning, sourceLocation: sourceLocation)
        #expect(
            try fixture.snapshot() == before, "notes \(arguments) changed the store", sourceLocation: sourceLocation)
    }

    @Test func anUnknownIDIsAUsageError() throws {
        let fixture = CommandLineFixture()
        try fixture.makeTree()
        let unknown = UUID().uuidString.lowercased()
        for arguments in [
            ["show", unknown], ["rm", unknown], ["restore", unknown], ["mv", unknown, "--top"],
            ["edit", unknown, "--name", "x"], ["add", "x", "--in", unknown], ["ls", unknown],
        ] {
            try expectRefused(fixture, arguments, status: 64, mentioning: ["'\(unknown)'"])
        }
    }

    @Test(arguments: [["add", ""], ["add", "   "], ["mkcol", ""], ["edit", "Home", "--name", " \t"]])
    func anEmptyNameIsBadData(_ arguments: [String]) throws {
        let fixture = CommandLineFixture()
        try fixture.makeTree()
        try expectRefused(fixture, arguments, status: 65, mentioning: ["empty"])
    }

    @Test(arguments: [["add", "two\nlines"], ["mkcol", "carriage\rreturn"], ["edit", "Home", "--name", "x\ny"]])
    func aNameWithALineBreakIsBadData(_ arguments: [String]) throws {
        let fixture = CommandLineFixture()
        try fixture.makeTree()
        try expectRefused(fixture, arguments, status: 65, mentioning: ["line break"])
    }

    @Test(
        arguments: [
            (["show", "Work\nPlan"], 64), (["mv", "Home", "--to", "Wo\rrk"], 64),
            (["add", "x", "--body-file", "no\nsuch file"], 65),
        ] as [([String], Int32)])
    func textGivenWithALineBreakIsQuotedOnOneLine(_ arguments: [String], status: Int32) throws {
        let fixture = CommandLineFixture()
        try fixture.makeTree()
        try expectRefused(fixture, arguments, status: status)
    }

    @Test func aNameOfMoreThanFiveHundredCharactersIsBadData() throws {
        let fixture = CommandLineFixture()
        try fixture.makeTree()
        try expectRefused(fixture, ["add", String(repeating: "n", count: 501)], status: 65, mentioning: ["500"])
        try fixture.add(String(repeating: "n", count: 500))
    }

    @Test func aBodyOverTenMiBIsBadData() throws {
        let fixture = CommandLineFixture()
        try fixture.makeTree()
        let big = try fixture.write(Data(repeating: UInt8(ascii: "a"), count: 10 * 1024 * 1024 + 1), to: "big.txt")
        try expectRefused(fixture, ["add", "Big", "--body-file", big.path], status: 65, mentioning: [big.path])
        try expectRefused(fixture, ["edit", "Home", "--body-file", big.path], status: 65, mentioning: [big.path])
    }

    @Test func aBodyOfExactlyTenMiBIsAccepted() throws {
        let fixture = CommandLineFixture()
        let body = Data(repeating: UInt8(ascii: "b"), count: 10 * 1024 * 1024)
        let file = try fixture.write(body, to: "limit.txt")
        let id = try fixture.succeed(["add", "At the limit", "--body-file", file.path]).line
        #expect((try fixture.show(id)["body"] as? String)?.utf8.count == body.count)
    }

    @Test func aBodyThatIsNotUTF8IsBadData() throws {
        let fixture = CommandLineFixture()
        try fixture.makeTree()
        let file = try fixture.write(Data([0x61, 0xFF, 0xFE, 0x62]), to: "latin.bin")
        try expectRefused(
            fixture, ["add", "Binary", "--body-file", file.path], status: 65, mentioning: [file.path, "UTF-8"])
    }

    @Test func movingACollectionIntoItselfOrItsDescendantIsBadData() throws {
        let fixture = CommandLineFixture()
        try fixture.makeTree()
        try expectRefused(fixture, ["mv", "Work", "--to", "Work/Ideas"], status: 65, mentioning: ["'Work'"])
        try expectRefused(fixture, ["mv", "Work", "--to", "Work"], status: 65, mentioning: ["'Work'"])
    }

    @Test func aMissingBodyFileIsBadData() throws {
        let fixture = CommandLineFixture()
        try fixture.makeTree()
        let missing = fixture.file("missing.txt").path
        try expectRefused(fixture, ["add", "x", "--body-file", missing], status: 65, mentioning: [missing])
        try expectRefused(fixture, ["edit", "Home", "--body-file", missing], status: 65, mentioning: [missing])
    }

    @Test func aFolderAsBodyFileIsBadData() throws {
        let fixture = CommandLineFixture()
        try fixture.makeTree()
        try expectRefused(
            fixture, ["add", "x", "--body-file", fixture.folder.path], status: 65, mentioning: [fixture.folder.path])
    }

    @Test func anUnreadableBodyFileIsBadData() throws {
        let fixture = CommandLineFixture()
        try fixture.makeTree()
        let file = try fixture.write(Data("secret".utf8), to: "locked.txt", mode: 0o000)
        try expectRefused(
            fixture, ["add", "x", "--body-file", file.path], status: 65,
            mentioning: [file.path, "permission denied"], unprivileged: true)
    }

    @Test func anUnwritableStoreFolderFails() throws {
        let fixture = CommandLineFixture()
        let locked = fixture.file("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false)
        chmod(locked.path, 0o500)
        let result = try fixture.run(["add", "x"], unprivileged: true, store: locked)
        fixture.expectFailure(result, status: 1, mentioning: [locked.path])
        #expect(try FileManager.default.contentsOfDirectory(atPath: locked.path).isEmpty)
        let below = locked.appendingPathComponent("store")
        let inside = try fixture.run(["ls"], unprivileged: true, store: below)
        fixture.expectFailure(inside, status: 1, mentioning: [below.path])
        #expect(!FileManager.default.fileExists(atPath: below.path))
    }

    @Test func aStoreFolderMadeReadOnlyFails() throws {
        let fixture = CommandLineFixture()
        try fixture.makeTree()
        let before = try fixture.snapshot()
        chmod(fixture.store.path, 0o500)
        let result = try fixture.run(["add", "x"], unprivileged: true)
        fixture.expectFailure(result, status: 1, mentioning: [fixture.store.path])
        chmod(fixture.store.path, 0o700)
        #expect(try fixture.snapshot() == before)
    }

    @Test func aStorePathThatIsAFileFails() throws {
        let fixture = CommandLineFixture()
        let file = try fixture.write(Data("not a store".utf8), to: "plain-file")
        let result = try fixture.run(["ls"], store: file)
        fixture.expectFailure(result, status: 1, mentioning: [file.path, "not a folder"])
        #expect(try Data(contentsOf: file) == Data("not a store".utf8))
    }

    @Test func bodyTogetherWithBodyFileIsAUsageError() throws {
        let fixture = CommandLineFixture()
        try fixture.makeTree()
        let file = try fixture.write(Data("x".utf8), to: "body.txt")
        try expectRefused(
            fixture, ["add", "x", "--body", "a", "--body-file", file.path], status: 64, mentioning: ["--body-file"])
        try expectRefused(
            fixture, ["edit", "Home", "--body", "a", "--body-file", file.path], status: 64, mentioning: ["--body-file"])
    }

    @Test func mvWithNeitherToNorTopIsAUsageError() throws {
        let fixture = CommandLineFixture()
        try fixture.makeTree()
        try expectRefused(fixture, ["mv", "Home"], status: 64, mentioning: ["--to", "--top"])
        try expectRefused(fixture, ["mv", "Home", "--to", "Work", "--top"], status: 64, mentioning: ["--to", "--top"])
    }

    @Test func anUnknownSubcommandIsAUsageError() throws {
        let fixture = CommandLineFixture()
        try fixture.makeTree()
        try expectRefused(fixture, ["frobnicate"], status: 64, mentioning: ["frobnicate"])
        try expectRefused(fixture, ["add"], status: 64)
        try expectRefused(fixture, ["ls", "--sort", "size"], status: 64, mentioning: ["size"])
    }

    @Test func inNamingANoteIsAUsageError() throws {
        let fixture = CommandLineFixture()
        let tree = try fixture.makeTree()
        try expectRefused(
            fixture, ["add", "x", "--in", "Home"], status: 64, mentioning: ["'Home'", "not a collection"])
        try expectRefused(fixture, ["mkcol", "x", "--in", tree.home], status: 64, mentioning: ["not a collection"])
        try expectRefused(fixture, ["mv", "Work/Plan", "--to", "Home"], status: 64, mentioning: ["not a collection"])
        try expectRefused(fixture, ["ls", "Home"], status: 64, mentioning: ["not a collection"])
    }

    @Test func aCollectionHasNoBodyToEdit() throws {
        let fixture = CommandLineFixture()
        try fixture.makeTree()
        try expectRefused(fixture, ["edit", "Work", "--body", "text"], status: 65, mentioning: ["'Work'"])
        try expectRefused(fixture, ["edit", "Work"], status: 64, mentioning: ["'Work'", "--name"])
    }

    @Test func aFailingEditorSavesNothing() throws {
        let fixture = CommandLineFixture()
        try fixture.makeTree()
        let editor = try fixture.write(
            Data("#!/bin/sh\nprintf changed > \"$1\"\nexit 3\n".utf8), to: "fail.sh", mode: 0o755)
        try expectRefused(
            fixture, ["edit", "Home"], status: 65, mentioning: ["editor", "status 3"],
            environment: ["EDITOR": editor.path, "VISUAL": ""])
        // Without a terminal, no fallback editor is run.
        try expectRefused(
            fixture, ["edit", "Home"], status: 64, mentioning: ["EDITOR"], environment: ["EDITOR": "", "VISUAL": ""])
    }

    @Test func trashingOrRestoringTwiceIsBadData() throws {
        let fixture = CommandLineFixture()
        let tree = try fixture.makeTree()
        try expectRefused(fixture, ["restore", tree.home], status: 65, mentioning: ["'Home'", "not in the trash"])
        try fixture.succeed(["rm", tree.home])
        try expectRefused(fixture, ["rm", tree.home], status: 65, mentioning: ["'Home'", "already in the trash"])
        try fixture.succeed(["rm", "Work/Ideas"])
        try expectRefused(
            fixture, ["mv", "Work/Plan", "--to", tree.ideas], status: 65, mentioning: ["'Ideas'", "in the trash"])
        try expectRefused(fixture, ["add", "x", "--in", tree.ideas], status: 65, mentioning: ["in the trash"])
    }

    @Test func aSearchWithoutAWordIsAUsageError() throws {
        let fixture = CommandLineFixture()
        try fixture.makeTree()
        try expectRefused(fixture, ["search", "*** !!"], status: 64)
        try expectRefused(fixture, ["search", "plan", "--limit", "0"], status: 64, mentioning: ["--limit"])
    }
}
