import Foundation
import NoteTestSupport
import Testing

/// `notes sync enable --encrypt`, the ways of giving a passphrase, `sync passphrase` and
/// `sync forget-key`, through the binary.
@Suite struct EncryptionCommandTests {
    /// scrypt at its lowest accepted cost: the tests make many containers.
    static let cheap = ["NOTES_SCRYPT_COST": "1024"]

    let fixture = CommandLineFixture()
    var cloud: URL { fixture.file("cloud") }
    var container: URL { cloud.appendingPathComponent("NoteCollector") }

    init() throws {
        try FileManager.default.createDirectory(at: fixture.file("cloud"), withIntermediateDirectories: true)
    }

    func store(_ name: String) -> URL { fixture.file(name) }

    /// Every file of the container, with its size and modification time.
    func snapshot() throws -> [String] {
        let enumerator = try #require(FileManager.default.enumerator(atPath: container.path))
        return try enumerator.compactMap { $0 as? String }.sorted().map { name in
            let attributes = try FileManager.default.attributesOfItem(
                atPath: container.appendingPathComponent(name).path)
            return "\(name) \(attributes[.size] ?? 0) \(attributes[.modificationDate] ?? 0)"
        }
    }

    @discardableResult
    func makeEncrypted(passphrase: String = "correct horse") throws -> URL {
        let file = try fixture.write(Data("\(passphrase)\n".utf8), to: "passphrase", mode: 0o600)
        let result = try fixture.succeed(
            [
                "sync", "enable", "--cloud", cloud.path, "--encrypt", "--passphrase-file", file.path, "--device-name",
                "laptop",
            ],
            environment: Self.cheap, store: store("a"))
        #expect(result.output.contains("encrypted"))
        return file
    }

    @Test func aSecondDeviceJoinsWithTheVariableAndKeepsTheKey() throws {
        try makeEncrypted()
        try fixture.succeed(["add", "Soup", "--body", "leeks"], store: store("a"))
        try fixture.succeed(["sync", "now"], store: store("a"))
        try fixture.succeed(
            ["sync", "enable", "--cloud", cloud.path, "--device-name", "desk"],
            environment: ["NOTES_PASSPHRASE": "correct horse"], store: store("b"))
        #expect(try fixture.succeed(["ls"], store: store("b")).output.contains("Soup"))
        let keys = try FileManager.default.contentsOfDirectory(atPath: store("b").path).filter { $0.hasSuffix(".key") }
        #expect(keys.count == 1 && keys[0].hasPrefix("container-"))
        let key = store("b").appendingPathComponent(keys.first ?? "container.key")
        let mode = try FileManager.default.attributesOfItem(atPath: key.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let status = try fixture.succeed(["sync", "status"], store: store("b")).output
        #expect(status.contains("encrypted: yes, the container key is kept in this store"))
        let json = try fixture.succeed(["sync", "status", "--json"], store: store("b")).output
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["encrypted"] as? Bool == true)
        #expect(object["keyHeld"] as? Bool == true)
        // Later syncs ask nothing.
        try fixture.succeed(["sync", "now"], store: store("b"))
    }

    @Test func aWrongOrMissingPassphraseIsOneLineAndWritesNothing() throws {
        try makeEncrypted()
        let before = try snapshot()
        let wrong = try fixture.run(
            ["sync", "enable", "--cloud", cloud.path], environment: ["NOTES_PASSPHRASE": "wrong horse"],
            store: store("c"))
        #expect(wrong.status == 65)
        #expect(
            wrong.error
                == "notes: wrong passphrase for the encrypted container '\(container.path)': nothing was written\n")
        let none = try fixture.run(["sync", "enable", "--cloud", cloud.path], store: store("c"))
        #expect(none.status == 1)
        #expect(none.error.contains("NOTES_PASSPHRASE or --passphrase-file"))
        #expect(none.error.split(separator: "\n").count == 1)
        let missing = try fixture.run(
            ["sync", "enable", "--cloud", cloud.path, "--passphrase-file", fixture.file("nowhere").path],
            store: store("c"))
        #expect(missing.status == 65)
        #expect(missing.error.contains("does not exist"))
        // A file with no line break in its first 64 KiB is refused without being read whole.
        let huge = fixture.file("huge")
        try Data(repeating: 0x61, count: (64 << 10) + 1).write(to: huge)
        let long = try fixture.run(
            ["sync", "enable", "--cloud", cloud.path, "--passphrase-file", huge.path], store: store("c"))
        #expect(long.status == 65)
        #expect(
            long.error.contains("its first line is longer than 64 KiB") && long.error.split(separator: "\n").count == 1,
            "\(long.error)")
        #expect(try snapshot() == before)
        #expect(!FileManager.default.fileExists(atPath: store("c").path), "a new store folder is not even made")
    }

    @Test func aForgottenKeyIsAskedForAgain() throws {
        let file = try makeEncrypted()
        #expect(try fixture.succeed(["sync", "forget-key"], store: store("a")).output.contains("removed"))
        #expect(
            try fixture.succeed(["sync", "forget-key"], store: store("a")).output.contains("keeps no container key"))
        #expect(try fixture.succeed(["sync", "status"], store: store("a")).output.contains("the key is needed"))
        let refused = try fixture.run(["sync", "now"], store: store("a"))
        #expect(refused.status == 1)
        #expect(refused.error.contains("does not hold its key"))
        try fixture.succeed(["sync", "now", "--passphrase-file", file.path], store: store("a"))
        try fixture.succeed(["sync", "now"], store: store("a"))
    }

    @Test func aNewPassphraseIsNeededByNewDevicesOnly() throws {
        try makeEncrypted()
        try fixture.succeed(
            ["sync", "enable", "--cloud", cloud.path], environment: ["NOTES_PASSPHRASE": "correct horse"],
            store: store("b"))
        let new = try fixture.write(Data("battery staple\n".utf8), to: "new-passphrase")
        try fixture.succeed(["sync", "passphrase", "--new-passphrase-file", new.path], store: store("a"))
        try fixture.succeed(["add", "After the change"], store: store("b"))
        try fixture.succeed(["sync", "now"], store: store("b"))
        try fixture.succeed(["sync", "now"], store: store("a"))
        #expect(try fixture.succeed(["ls"], store: store("a")).output.contains("After the change"))
        let old = try fixture.run(
            ["sync", "enable", "--cloud", cloud.path], environment: ["NOTES_PASSPHRASE": "correct horse"],
            store: store("d"))
        #expect(old.status == 65)
        try fixture.succeed(
            ["sync", "enable", "--cloud", cloud.path], environment: ["NOTES_PASSPHRASE": "battery staple"],
            store: store("d"))
        #expect(try fixture.succeed(["ls"], store: store("d")).output.contains("After the change"))
    }

    @Test func aPlainContainerIsNotMadeEncryptedAndAPlainOneHasNoPassphrase() throws {
        try fixture.succeed(["sync", "enable", "--cloud", cloud.path], store: store("a"))
        let before = try snapshot()
        let refused = try fixture.run(
            ["sync", "enable", "--cloud", cloud.path, "--encrypt"], environment: ["NOTES_PASSPHRASE": "x"],
            store: store("b"))
        #expect(refused.status == 1)
        #expect(refused.error.contains("is not encrypted"))
        #expect(try snapshot() == before)
        let change = try fixture.run(
            ["sync", "passphrase"], environment: ["NOTES_NEW_PASSPHRASE": "x"], store: store("a"))
        #expect(change.status == 1)
        #expect(change.error.contains("not encrypted"))
    }

    @Test func aNewContainerAsksThePassphraseTwiceOnTheTerminal() throws {
        let differ = try NotesCommand.runOnTerminal(
            ["sync", "enable", "--cloud", cloud.path, "--encrypt"], store: store("a"), environment: Self.cheap,
            input: Data("one\ntwo\n".utf8))
        #expect(differ.status == 64, "\(differ.output)")
        #expect(differ.output.contains("differ"))
        #expect(!FileManager.default.fileExists(atPath: container.path))
        let made = try NotesCommand.runOnTerminal(
            ["sync", "enable", "--cloud", cloud.path, "--encrypt"], store: store("a"), environment: Self.cheap,
            input: Data("tea timd\u{7f}e\ntea time\n".utf8))
        #expect(made.status == 0, "\(made.output)")
        #expect(made.output.contains("new passphrase for"))
        try fixture.succeed(
            ["sync", "enable", "--cloud", cloud.path], environment: ["NOTES_PASSPHRASE": "tea time"], store: store("b"))
    }
}

extension EncryptionCommandTests {
    /// Watchers on an encrypted container: each unwraps the key before it starts when the store
    /// does not hold it, then syncs live; one without any passphrase says so and does not start.
    @Test func watchersSyncAnEncryptedContainerLive() throws {
        let file = try makeEncrypted()
        try fixture.succeed(
            ["sync", "enable", "--cloud", cloud.path, "--passphrase-file", file.path], store: store("b"))
        try fixture.succeed(["sync", "forget-key"], store: store("b"))
        let refused = try fixture.run(["watch"], store: store("b"))
        #expect(refused.status == 1)
        #expect(refused.error.contains("does not hold its key"))
        let a = try BackgroundNotes(["watch"], store: store("a"))
        let b = try BackgroundNotes(["watch", "--passphrase-file", file.path], store: store("b"))
        for name in ["a", "b"] {
            #expect(
                eventually {
                    (try? fixture.run(["sync", "status"], store: store(name)).output.contains("watcher:   running"))
                        == true
                })
        }
        try fixture.succeed(["add", "Live and sealed", "--body", "leeks"], store: store("a"))
        #expect(
            eventually(within: 10) {
                (try? fixture.run(["ls"], store: store("b")).output.contains("Live and sealed")) == true
            })
        #expect(a.stop(SIGTERM) == 0)
        #expect(b.stop(SIGTERM) == 0)
    }

    /// A device stopped after publishing the sentinel of the encrypted container it made, but
    /// before its key file: others cannot join and say why; running its `sync enable --encrypt`
    /// again writes the key file, and they can.
    @Test func aKeyFileLostByItsMakerIsWrittenAgainByIt() throws {
        let file = try makeEncrypted()
        try FileManager.default.removeItem(at: container.appendingPathComponent("key.json"))
        let waiting = try fixture.run(
            ["sync", "enable", "--cloud", cloud.path, "--passphrase-file", file.path], store: store("b"))
        #expect(waiting.status == 1)
        #expect(waiting.error.contains("has no key file key.json yet"))
        try fixture.succeed(
            ["sync", "enable", "--cloud", cloud.path, "--passphrase-file", file.path], store: store("a"))
        #expect(FileManager.default.fileExists(atPath: container.appendingPathComponent("key.json").path))
        try fixture.succeed(
            ["sync", "enable", "--cloud", cloud.path, "--passphrase-file", file.path], store: store("b"))
    }
}
