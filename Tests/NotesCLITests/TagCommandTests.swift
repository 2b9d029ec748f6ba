import Foundation
import NoteTestSupport
import Testing

/// `notes tag`, `untag`, `tags`, `ls --tag` and `tag:` in search through the binary, with their
/// JSON shapes, errors, and tags travelling between two devices.
@Suite struct TagCommandTests {
    let folder = TemporaryFolder("notes-cli-tags")
    var a: URL { folder.appending("a") }
    var b: URL { folder.appending("b") }
    var cloud: URL { folder.appending("cloud") }

    func notes(_ store: URL, _ arguments: String...) throws -> NotesResult {
        try NotesCommand.run(arguments, store: store)
    }

    @Test func tagListAndSearch() throws {
        #expect(try notes(a, "mkcol", "Kitchen").status == 0)
        #expect(try notes(a, "add", "Soup", "--in", "Kitchen", "--body", "leeks and potatoes").status == 0)
        #expect(try notes(a, "add", "Plan", "--body", "leeks later").status == 0)
        #expect(try notes(a, "add", "Other", "--body", "leeks").status == 0)
        let tagged = try notes(a, "tag", "Kitchen/Soup", "#winter", "home")
        #expect(tagged.status == 0 && tagged.output.isEmpty && tagged.error.isEmpty, "\(tagged)")
        #expect(try notes(a, "tag", "Plan", "winter").status == 0)
        let again = try notes(a, "tag", "Plan", "winter")
        #expect(again.status == 0 && again.error == "notes: 'Plan' already carries winter\n", "\(again)")
        #expect(try notes(a, "tags").output == "1  home\n2  winter\n")
        let counts =
            try JSONSerialization.jsonObject(with: Data(notes(a, "tags", "--json").output.utf8)) as? [[String: Any]]
        #expect(counts?.map { "\($0["tag"]!)=\($0["notes"]!)" } == ["home=1", "winter=2"])
        let listed = try notes(a, "ls", "--tag", "winter").output.split(separator: "\n").map {
            $0.components(separatedBy: "  ").last ?? ""
        }
        #expect(listed == ["Plan", "Kitchen/Soup"])
        #expect(try notes(a, "ls", "--tag", "winter", "--tag", "home").output.hasSuffix("  Kitchen/Soup\n"))
        #expect(try notes(a, "ls", "Kitchen", "--tag", "winter").output.hasSuffix("  Kitchen/Soup\n"))
        #expect(try notes(a, "ls", "--tag", "nothing").output.isEmpty)
        let json =
            try JSONSerialization.jsonObject(with: Data(notes(a, "ls", "--json").output.utf8)) as? [[String: Any]]
        #expect(json?.map { ($0["tags"] as? [String]) ?? ["missing"] } == [[], [], ["winter"]])
        let shown = try notes(a, "show", "Kitchen/Soup")
        #expect(shown.output.contains("\ntags:     home, winter\n"), "\(shown)")
        let shownJSON =
            try JSONSerialization.jsonObject(with: Data(notes(a, "show", "Kitchen/Soup", "--json").output.utf8))
            as? [String: Any]
        #expect(shownJSON?["tags"] as? [String] == ["home", "winter"])
        let search = try notes(a, "search", "leeks tag:winter")
        #expect(search.output.split(separator: "\n").filter { !$0.hasPrefix(" ") }.count == 2, "\(search)")
        let tagsOnly = try notes(a, "search", "tag:home", "--json")
        let found = try JSONSerialization.jsonObject(with: Data(tagsOnly.output.utf8)) as? [[String: Any]]
        #expect(
            found?.map { $0["path"] as? String } == ["Kitchen/Soup"]
                && found?.first?["tags"] as? [String] == ["home", "winter"])
        #expect(try notes(a, "untag", "Plan", "winter").status == 0)
        let none = try notes(a, "untag", "Plan", "winter")
        #expect(none.status == 0 && none.error == "notes: 'Plan' carries none of winter\n", "\(none)")
        #expect(try notes(a, "tags").output == "1  home\n1  winter\n")
        #expect(try notes(a, "rm", "Kitchen").status == 0)
        #expect(try notes(a, "tags").output.isEmpty)
        #expect(try notes(a, "tags", "--trash").output == "1  home\n1  winter\n")
    }

    /// A tag names its nested tags too: `ls --tag projects` and `tag:projects` find the notes
    /// tagged `projects/notes`, and not those of `projects-old` or `projectsx`.
    @Test func aTagFindsItsNestedTags() throws {
        #expect(try notes(a, "add", "One", "--body", "x").status == 0)
        #expect(try notes(a, "add", "Two", "--body", "x").status == 0)
        #expect(try notes(a, "add", "Three", "--body", "x").status == 0)
        #expect(try notes(a, "add", "Four", "--body", "x").status == 0)
        #expect(try notes(a, "tag", "One", "projects").status == 0)
        #expect(try notes(a, "tag", "Two", "projects/notes/deep").status == 0)
        #expect(try notes(a, "tag", "Three", "projects-old").status == 0)
        #expect(try notes(a, "tag", "Four", "projectsx").status == 0)
        let listed = try notes(a, "ls", "--tag", "projects").output.split(separator: "\n").map {
            $0.components(separatedBy: "  ").last ?? ""
        }
        #expect(listed == ["One", "Two"])
        #expect(try notes(a, "ls", "--tag", "projects/notes").output.hasSuffix("  Two\n"))
        let found =
            try JSONSerialization.jsonObject(with: Data(notes(a, "search", "x tag:projects", "--json").output.utf8))
            as? [[String: Any]]
        #expect(Set(found?.compactMap { $0["name"] as? String } ?? []) == ["One", "Two"])
    }

    @Test func badTagsAndTargetsAreOneLineErrors() throws {
        #expect(try notes(a, "mkcol", "Kitchen").status == 0)
        #expect(try notes(a, "add", "Soup", "--body", "x").status == 0)
        for (tag, reason) in [
            ("two words", "a tag cannot contain white space"), ("a,b", "a tag cannot contain a comma"),
            ("#", "a tag cannot be empty"), ("bell\u{7}", "the tag contains the control character U+0007"),
            (String(repeating: "x", count: 101), "the tag has 101 characters, more than 100"),
        ] {
            let result = try notes(a, "tag", "Soup", "fine", tag)
            #expect(
                result.status == 65 && result.error.hasPrefix("notes: invalid tag '")
                    && result.error.hasSuffix(": \(reason)\n"), "\(result)")
        }
        #expect(try notes(a, "tags").output.isEmpty)
        let collection = try notes(a, "tag", "Kitchen", "x")
        #expect(
            collection.status == 65
                && collection.error
                    == "notes: cannot change 'Kitchen': it is a collection, and only notes carry tags\n",
            "\(collection)")
        let unknown = try notes(a, "tag", "Nothing", "x")
        #expect(unknown.status == 64 && unknown.error.split(separator: "\n").count == 1, "\(unknown)")
        let noTags = try notes(a, "untag", "Soup")
        #expect(noTags.status == 64 && noTags.error.contains("missing expected argument '<TAG> ...'"), "\(noTags)")
        #expect(try notes(a, "check").output == "ok\n")
    }

    /// A tag added on A while B, not aware, removes the same tag it had from A earlier: after
    /// both sync, the new addition stays on both.
    @Test func tagsTravelAndAnAdditionWinsOverAConcurrentRemoval() throws {
        try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)
        let id = try notes(a, "add", "Soup", "--body", "leeks").line
        #expect(try notes(a, "tag", id, "winter", "home").status == 0)
        #expect(try notes(a, "sync", "enable", "--cloud", cloud.path, "--device-name", "laptop").status == 0)
        #expect(try notes(b, "sync", "enable", "--cloud", cloud.path, "--device-name", "desktop").status == 0)
        #expect(try notes(b, "tags").output == "1  home\n1  winter\n")
        #expect(try notes(b, "untag", id, "winter").status == 0)
        #expect(try notes(a, "untag", id, "winter").status == 0)
        #expect(try notes(a, "tag", id, "winter").status == 0)
        #expect(try notes(b, "sync", "now").status == 0)
        #expect(try notes(a, "sync", "now").status == 0)
        #expect(try notes(b, "sync", "now").status == 0)
        for store in [a, b] {
            let shown =
                try JSONSerialization.jsonObject(with: Data(notes(store, "show", id, "--json").output.utf8))
                as? [String: Any]
            #expect(shown?["tags"] as? [String] == ["home", "winter"])
        }
    }
}
