import Foundation
import NoteTestSupport
import NoteText
import Testing

/// The merge against `git merge-file` on random texts over a few short lines, so that lines
/// repeat and alignments collide: when git merges cleanly, the merge gives git's text with no
/// conflict; when git finds conflicts, the merge finds them too (its text then takes the newer
/// side, where git's holds markers), and marking them gives git's text with its markers.
///
/// CI runs 400 cases; `NOTES_MERGE_CASES=20000 swift test --filter GitMergeAgreementTests`
/// runs more.
@Suite struct GitMergeAgreementTests {
    static let cases = max(1, ProcessInfo.processInfo.environment["NOTES_MERGE_CASES"].flatMap(Int.init) ?? 400)

    @Test func mergeAgreesWithGitMergeFile() throws {
        let folder = TemporaryFolder()
        var clean = 0
        var conflicted = 0
        var disagreements: [String] = []
        for seed in 1...UInt64(Self.cases) {
            var random = SplitMix64(seed: seed)
            let texts = Self.texts(using: &random)
            let git = try Self.gitMerge(texts, in: folder)
            let ours = ThreeWayMerge.merge(base: texts.base, older: texts.older, newer: texts.newer)
            let marked = ThreeWayMerge.markingConflicts(
                base: texts.base, older: texts.older, newer: texts.newer, olderLabel: "older", newerLabel: "newer")
            let agrees: Bool
            if git.conflicts == 0 {
                clean += 1
                agrees = ours == MergeResult(text: git.text, conflicts: 0)
            } else {
                conflicted += 1
                agrees = ours.conflicts == git.conflicts && marked.text == git.text
            }
            if !agrees {
                disagreements.append(
                    "seed \(seed): \(texts), git \(git), ours \(ours), marked \(marked.text.debugDescription)")
            }
        }
        print(
            "merge against git merge-file: \(Self.cases) cases, \(clean) clean, "
                + "\(conflicted) conflicted, \(disagreements.count) disagree"
        )
        #expect(disagreements.isEmpty, "\(disagreements.count) disagree, first: \(disagreements.prefix(3))")
    }

    @Test func bothSidesAppendingTheSameLineTakeItOnce() {
        let result = ThreeWayMerge.merge(base: "b\na\n", older: "a\nb\na\na\n", newer: "b\na\na\n")
        #expect(result == MergeResult(text: "a\nb\na\na\n", conflicts: 0))
    }

    struct Texts: CustomStringConvertible {
        var base: String
        var older: String
        var newer: String

        var description: String {
            "base \(base.debugDescription), older \(older.debugDescription), newer \(newer.debugDescription)"
        }
    }

    /// A base of up to eight lines and two sides edited from it, over an alphabet of two to
    /// five lines (one without a letter, one empty); now and then a last line has no break.
    static func texts(using random: inout SplitMix64) -> Texts {
        let alphabet = Array(["a", "b", "c", "-", ""].prefix(Int.random(in: 2...5, using: &random)))
        func line() -> String { random.pick(alphabet)! }
        let base = (0..<Int.random(in: 0...8, using: &random)).map { _ in line() }
        func edited() -> [String] {
            var lines = base
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                let index = Int.random(in: 0...lines.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: lines.insert(line(), at: index)
                case 1 where index < lines.count: lines.remove(at: index)
                default: if index < lines.count { lines[index] = line() }
                }
            }
            return lines
        }
        func text(_ lines: [String]) -> String {
            let joined = lines.map { $0 + "\n" }.joined()
            return random.chance(10) && !joined.isEmpty ? String(joined.dropLast()) : joined
        }
        return Texts(base: text(base), older: text(edited()), newer: text(edited()))
    }

    /// `git merge-file -p` of the texts: its output and the number of conflicts it reports
    /// (its exit status).
    static func gitMerge(_ texts: Texts, in folder: TemporaryFolder) throws -> (text: String, conflicts: Int32) {
        for (name, text) in [("base", texts.base), ("older", texts.older), ("newer", texts.newer)] {
            try Data(text.utf8).write(to: folder.appending(name))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        process.arguments = ["merge-file", "-p", "-L", "older", "-L", "base", "-L", "newer", "older", "base", "newer"]
        process.currentDirectoryURL = folder.url
        process.environment = ["GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "PATH": "/usr/bin:/bin"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus < 128, "git merge-file failed on \(texts)")
        return (String(decoding: data, as: UTF8.self), process.terminationStatus)
    }
}
