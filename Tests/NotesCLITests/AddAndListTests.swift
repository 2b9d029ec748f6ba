import Foundation
import NoteTestSupport
import Testing

@Suite struct AddAndListTests {
    @Test func addPrintsTheFullLowercaseID() throws {
        let fixture = CommandLineFixture()
        let result = try fixture.succeed(["add", "Groceries"])
        #expect(result.output.hasSuffix("\n"))
        let id = result.line
        #expect(id.count == 36)
        #expect(UUID(uuidString: id) != nil)
        #expect(id == id.lowercased())
        let shown = try fixture.show(id)
        #expect(shown["id"] as? String == id)
        #expect(shown["name"] as? String == "Groceries")
        #expect(shown["body"] as? String == "")
    }

    @Test func addTakesTheBodyFromTheBodyOption() throws {
        let fixture = CommandLineFixture()
        let id = try fixture.add("Groceries", body: "milk\neggs")
        #expect(try fixture.show(id)["body"] as? String == "milk\neggs")
    }

    @Test func addReadsTheBodyFromAFile() throws {
        let fixture = CommandLineFixture()
        let file = try fixture.write(Data("line one\nline two — ünïcode\n".utf8), to: "body.txt")
        let id = try fixture.succeed(["add", "From file", "--body-file", file.path]).line
        #expect(try fixture.show(id)["body"] as? String == "line one\nline two — ünïcode\n")
    }

    @Test func addReadsABodyPipedOnStandardInput() throws {
        let fixture = CommandLineFixture()
        let id = try fixture.succeed(["add", "Piped"], input: Data("from a pipe\n".utf8)).line
        #expect(try fixture.show(id)["body"] as? String == "from a pipe\n")
        let dash = try fixture.succeed(["add", "Dash", "--body-file", "-"], input: Data("dash\n".utf8)).line
        #expect(try fixture.show(dash)["body"] as? String == "dash\n")
    }

    @Test func addTrimsTheName() throws {
        let fixture = CommandLineFixture()
        let id = try fixture.add("  Padded name \t")
        #expect(try fixture.show(id)["name"] as? String == "Padded name")
    }

    @Test func addPutsTheNoteInTheCollectionGivenWithIn() throws {
        let fixture = CommandLineFixture()
        let work = try fixture.makeCollection("Work")
        let plan = try fixture.add("Plan", in: "Work")
        let shown = try fixture.show(plan)
        #expect(shown["parent"] as? String == work)
        #expect(shown["path"] as? String == "Work/Plan")
        #expect(JSONChecks.names(try fixture.list(["Work"])) == ["Plan"])
        #expect(JSONChecks.names(try fixture.list()) == ["Work"])
    }

    @Test func mkcolMakesACollectionInACollection() throws {
        let fixture = CommandLineFixture()
        let work = try fixture.makeCollection("Work")
        let ideas = try fixture.makeCollection("Ideas", in: work)
        #expect(UUID(uuidString: ideas) != nil && ideas == ideas.lowercased())
        let shown = try fixture.show(ideas)
        #expect(shown["kind"] as? String == "collection")
        #expect(shown["parent"] as? String == work)
        #expect(shown["path"] as? String == "Work/Ideas")
    }

    @Test func lsListsTheTopLevelAsText() throws {
        let fixture = CommandLineFixture()
        let tree = try fixture.makeTree()
        let lines = try fixture.succeed(["ls"]).output.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        // id prefix, two spaces, "yyyy-MM-dd HH:mm", two spaces, the name; a collection ends in '/'.
        #expect(lines.first?.hasPrefix(String(tree.home.prefix(8)) + "  ") == true)
        #expect(lines.first.map { String($0.dropFirst(28)) } == "Home")
        #expect(lines.last?.hasPrefix(String(tree.work.prefix(8)) + "  ") == true)
        #expect(lines.last.map { String($0.dropFirst(28)) } == "Work/")
    }

    @Test func lsListsACollection() throws {
        let fixture = CommandLineFixture()
        let tree = try fixture.makeTree()
        let inWork = try fixture.list(["Work"])
        #expect(JSONChecks.names(inWork) == ["Ideas", "Plan"])
        #expect(inWork.allSatisfy { $0["parent"] as? String == tree.work })
        #expect(JSONChecks.names(try fixture.list([tree.ideas])) == ["Launch"])
    }

    @Test func lsRecursiveListsEveryCollectionFollowedByItsContents() throws {
        let fixture = CommandLineFixture()
        let tree = try fixture.makeTree()
        let all = try fixture.list(["--recursive"])
        #expect(JSONChecks.names(all) == ["Home", "Work", "Ideas", "Launch", "Plan"])
        #expect(
            all.compactMap { $0["path"] as? String } == [
                "Home", "Work", "Work/Ideas", "Work/Ideas/Launch", "Work/Plan",
            ])
        let text = try fixture.succeed(["ls", "--recursive"]).output.split(separator: "\n").map {
            String($0.dropFirst(28))
        }
        #expect(text == ["Home", "Work/", "  Ideas/", "    Launch", "  Plan"])
        let below = try fixture.list(["-r", tree.work])
        #expect(JSONChecks.names(below) == ["Ideas", "Launch", "Plan"])
    }

    /// A listing longer than what `ls` keeps in memory (it writes the rest to a temporary
    /// file until it shows it) comes out whole and in order, as text and as JSON.
    @Test func aLongRecursiveListingComesOutWholeAndInOrder() throws {
        let fixture = CommandLineFixture()
        let source = fixture.file("vault")
        var expected: [String] = []
        for folder in 0..<40 {
            let name = String(format: "Folder %02d", folder)
            expected.append(name + "/")
            try FileManager.default.createDirectory(
                at: source.appendingPathComponent(name), withIntermediateDirectories: true)
            for note in 0..<50 {
                let title = String(format: "Note %02d-%02d", folder, note)
                expected.append("  " + title)
                try Data("text \(folder) \(note)\n".utf8).write(
                    to: source.appendingPathComponent(name).appendingPathComponent(title + ".md"))
            }
        }
        try fixture.succeed(["import", source.path])
        let text = try fixture.succeed(["ls", "--recursive"]).output
        #expect(text.utf8.count > 64 << 10, "the listing must be longer than what is kept in memory")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.map { String($0.dropFirst(28)) } == expected)
        let json = try fixture.list(["--recursive"])
        #expect(json.count == expected.count)
        #expect(
            JSONChecks.names(json) == expected.map { $0.trimmingCharacters(in: .whitespaces).replacing("/", with: "") })
        #expect(
            json.compactMap { $0["id"] as? String }.map { String($0.prefix(8)) } == lines.map { String($0.prefix(8)) })
    }

    @Test func lsSortsByNameCreatedOrModified() throws {
        let fixture = CommandLineFixture()
        let b = try fixture.add("b")
        let a = try fixture.add("a")
        let c = try fixture.add("C")
        let created = try fixture.list(["--sort", "created"])
        let dates = created.compactMap { JSONChecks.date($0["created"]) }
        try #require(dates.count == 3 && Set(dates).count == 3, "created dates must differ: \(created)")
        #expect(JSONChecks.names(try fixture.list(["--sort", "name"])) == ["a", "b", "C"])
        #expect(JSONChecks.names(try fixture.list()) == ["a", "b", "C"])
        // Dates sort newest first.
        #expect(created.compactMap { $0["id"] as? String } == [c, a, b])
        try fixture.succeed(["edit", b, "--body", "changed"])
        #expect(JSONChecks.names(try fixture.list(["--sort", "modified"])) == ["b", "C", "a"])
        #expect(JSONChecks.names(try fixture.list(["--sort", "created"])) == ["C", "a", "b"])
    }

    @Test func lsTrashSortsByCreatedToo() throws {
        let fixture = CommandLineFixture()
        let older = try fixture.add("a older")
        let newer = try fixture.add("b newer")
        try fixture.succeed(["rm", older])
        try fixture.succeed(["rm", newer])
        let trash = try fixture.list(["--trash", "--sort", "created"])
        #expect(trash.compactMap { $0["id"] as? String } == [newer, older])
    }

    @Test func lsOfAnEmptyStoreIsEmpty() throws {
        let fixture = CommandLineFixture()
        #expect(try fixture.succeed(["ls"]).output == "")
        #expect(try fixture.list().isEmpty)
    }

    @Test func showPrintsANotesNamePathDatesAndBody() throws {
        let fixture = CommandLineFixture()
        let tree = try fixture.makeTree()
        let json = try fixture.show(tree.plan)
        let text = try fixture.succeed(["show", tree.plan]).output
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.contains("name:     Plan"))
        #expect(lines.contains("kind:     note"))
        #expect(lines.contains("path:     Work/Plan"))
        #expect(lines.contains("id:       \(tree.plan)"))
        #expect(lines.contains("created:  \(json["created"] as? String ?? "?")"))
        #expect(lines.contains("modified: \(json["modified"] as? String ?? "?")"))
        #expect(text.hasSuffix("\n\nship it on monday\n"))
    }

    @Test func showPrintsACollectionAndHowManyItemsItHolds() throws {
        let fixture = CommandLineFixture()
        let tree = try fixture.makeTree()
        let text = try fixture.succeed(["show", "Work"]).output
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.contains("name:     Work"))
        #expect(lines.contains("kind:     collection"))
        #expect(lines.contains("path:     Work"))
        #expect(lines.contains("id:       \(tree.work)"))
        #expect(lines.contains("contains: 2 items"))
        #expect(!text.contains("\n\n"))
    }
}
