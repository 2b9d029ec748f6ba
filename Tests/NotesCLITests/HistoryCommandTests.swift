import Foundation
import NoteTestSupport
import Testing

/// `history`, `show --version`, `diff`, `--restore` and `conflicts`, with two `notes`
/// processes syncing through one folder: the first scenario, a concurrent edit of the
/// same line, and the errors.
@Suite struct HistoryCommandTests {
    let folder = TemporaryFolder("notes-cli-history")
    var cloud: URL { folder.appending("cloud") }
    var laptop: URL { folder.appending("laptop") }
    var desktop: URL { folder.appending("desktop") }
    static let base = "Leeks\nPotatoes\nSalt\nPepper\nWater\n"

    init() throws {
        try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)
    }

    @discardableResult
    func notes(_ store: URL, _ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws
        -> NotesResult
    {
        let result = try NotesCommand.run(arguments, store: store)
        #expect(result.status == 0, "\(arguments): \(result)", sourceLocation: sourceLocation)
        return result
    }

    /// Soup on both devices, synced, then edited on each before they sync again; returns its
    /// id and what the syncs after the edits printed.
    func concurrentEdits(laptopBody: String, desktopBody: String) throws -> (String, String) {
        let soup = try notes(laptop, "add", "Soup", "--body", Self.base).line
        try notes(laptop, "sync", "enable", "--cloud", cloud.path, "--device-name", "laptop")
        try notes(desktop, "sync", "enable", "--cloud", cloud.path, "--device-name", "desktop")
        try notes(desktop, "edit", soup, "--body", desktopBody)
        try notes(laptop, "edit", soup, "--body", laptopBody)
        var printed = ""
        for store in [desktop, laptop, desktop] { printed += try notes(store, "sync", "now").output }
        return (soup, printed)
    }

    @Test func editsOfTheFirstAndLastLinesMergeOnBothDevices() throws {
        let (soup, printed) = try concurrentEdits(
            laptopBody: "Two leeks\nPotatoes\nSalt\nPepper\nWater\n",
            desktopBody: "Leeks\nPotatoes\nSalt\nPepper\nStock\n")
        #expect(!printed.contains("conflicts:"), "\(printed)")
        for store in [laptop, desktop] {
            #expect(try notes(store, "cat", soup).output == "Two leeks\nPotatoes\nSalt\nPepper\nStock\n")
            let entries = try JSONChecks.array(notes(store, "history", soup, "--json").output)
            let bodies = entries.filter { $0["property"] as? String == "body" }
            #expect(bodies.map { $0["kind"] as? String } == ["merge", "edit", "edit", "edit"], "\(bodies)")
            #expect(bodies.first?["current"] as? Bool == true && bodies.first?["size"] as? Int == 37)
            #expect(Set(bodies.compactMap { $0["deviceName"] as? String }) == ["laptop", "desktop"])
            #expect(try notes(store, "conflicts", "--json").output == "[]\n")
        }
        let laptopHistory = try notes(laptop, "history", soup).output
        let desktopHistory = try notes(desktop, "history", soup).output
        #expect(laptopHistory == desktopHistory, "both devices list the same ids")
    }

    @Test func sameLineEditsLeaveAConflictCopyThatEveryDeviceLists() throws {
        let (soup, printed) = try concurrentEdits(
            laptopBody: "Leeks\nPotatoes\nSea salt\nPepper\nWater\n",
            desktopBody: "Leeks\nPotatoes\nNo salt\nPepper\nWater\n")
        // Each device says so when it finds the conflict.
        #expect(
            printed.components(
                separatedBy: "conflicts: 1 concurrent edit could not merge; nothing was lost: see 'notes conflicts'"
            ).count == 3, "\(printed)")
        // The laptop edited last: its stamp wins the line.
        var copies: [String] = []
        for store in [laptop, desktop] {
            #expect(try notes(store, "cat", soup).output == "Leeks\nPotatoes\nSea salt\nPepper\nWater\n")
            let conflicts = try JSONChecks.array(notes(store, "conflicts", "--json").output)
            #expect(conflicts.count == 1)
            let conflict = try #require(conflicts.first)
            #expect(conflict["property"] as? String == "body" && conflict["item"] as? String == soup)
            let copy = try #require(conflict["copy"] as? String)
            copies.append(copy)
            #expect(try notes(store, "cat", copy).output == "Leeks\nPotatoes\nNo salt\nPepper\nWater\n")
            let listing = try notes(store, "ls").output
            #expect(listing.contains("Soup (conflict, desktop, ") && listing.contains("(conflict copy)"), "\(listing)")
            let json = try JSONChecks.array(notes(store, "ls", "--json").output)
            #expect(json.filter { $0["conflictCopy"] as? Bool == true }.map { $0["id"] as? String } == [copy])
            #expect(
                try notes(store, "conflicts").output.contains(
                    ": concurrent edits of the same lines; copy: Soup (conflict, desktop, "))
        }
        #expect(copies[0] == copies[1], "one copy, the same id on both devices")
    }

    @Test func showVersionDiffAndRestore() throws {
        let soup = try notes(laptop, "add", "Soup", "--body", Self.base).line
        try notes(laptop, "edit", soup, "--body", "Leeks\nPotatoes\nSalt\nPepper\nStock\n")
        let entries = try JSONChecks.array(notes(laptop, "history", soup, "--json").output)
        let first = try #require(entries.last { $0["property"] as? String == "body" }?["id"] as? String)
        let second = try #require(entries.first { $0["property"] as? String == "body" }?["id"] as? String)
        #expect(first.count == 8 && first != second)

        let shown = try notes(laptop, "show", soup, "--version", String(first.prefix(5))).output
        #expect(shown.hasPrefix("version:  \(first) (edit of the body)\n"))
        #expect(shown.hasSuffix("\n\n" + Self.base))
        let json = try JSONChecks.object(notes(laptop, "show", soup, "--version", first, "--json").output)
        #expect(
            json["text"] as? String == Self.base && json["id"] as? String == first && json["current"] as? Bool == false)

        let diff = try notes(laptop, "diff", soup, first).output
        #expect(
            diff
                == "--- Soup (\(first))\n+++ Soup (current)\n@@ -2,4 +2,4 @@\n"
                + " Potatoes\n Salt\n Pepper\n-Water\n+Stock\n"
        )
        #expect(try notes(laptop, "diff", soup, first, second).output.hasSuffix("-Water\n+Stock\n"))
        #expect(try notes(laptop, "diff", soup, second).output == "")
        let colored = try NotesCommand.run(["diff", soup, first, "--color", "always"], store: laptop).output
        #expect(colored.contains("\u{1B}[31m-Water\u{1B}[0m") && colored.contains("\u{1B}[32m+Stock\u{1B}[0m"))

        #expect(
            try notes(laptop, "history", soup, "--restore", first).output == "restored the body of version \(first)\n")
        #expect(try notes(laptop, "cat", soup).output == Self.base)
        let after = try JSONChecks.array(notes(laptop, "history", soup, "--json").output)
        let restore = try #require(after.first)
        #expect(restore["kind"] as? String == "restore" && restore["current"] as? Bool == true)
        #expect((restore["restored"] as? String)?.isEmpty == false)
    }

    @Test func historyErrorsAreOneLineUsageErrors() throws {
        let soup = try notes(laptop, "add", "Soup", "--body", "x").line
        let collection = try notes(laptop, "mkcol", "Recipes").line
        for arguments in [
            ["show", soup, "--version", "zzzzzzzz"], ["diff", soup, "abcd"], ["history", soup, "--restore", "ab"],
            ["history", "nothing-here"],
        ] {
            let result = try NotesCommand.run(arguments, store: laptop)
            #expect(result.status == 64, "\(arguments): \(result)")
            #expect(result.error.hasPrefix("notes: ") && result.error.split(separator: "\n").count == 1, "\(result)")
        }
        let unknown = try NotesCommand.run(["show", soup, "--version", "zzzzzzzz"], store: laptop)
        #expect(unknown.error.contains("'Soup' has no version 'zzzzzzzz'"), "\(unknown)")
        // A collection has versions of its name only.
        let names = try JSONChecks.array(notes(laptop, "history", collection, "--json").output)
        #expect(names.map { $0["property"] as? String } == ["name"])
        let both = try NotesCommand.run(["history", soup, "--json", "--restore", "abcd"], store: laptop)
        #expect(both.status == 64)
        #expect(try notes(laptop, "conflicts").output == "no conflicts in the last 30 days\n")
        #expect(try NotesCommand.run(["conflicts", "--days", "0"], store: laptop).status == 64)
    }
}
