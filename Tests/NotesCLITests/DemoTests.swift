import Foundation
import NoteTestSupport
import Testing

/// The live demo, as a person runs it: the narrated command and the sample script.
@Suite struct DemoTests {
    @Test func theNarratedDemoTellsTheWholeStory() throws {
        let result = try NotesCommand.run(["demo"])
        #expect(result.status == 0, "\(result)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains("It reaches the") && $0.hasSuffix(" ms.") }.count == 3)
        #expect(lines.filter { $0.contains("says sync is off, and keeps its 3 notes") }.count == 3)
        #expect(lines.contains("The devices converge: each has the same 4 notes, with no duplicates."))
        #expect(
            lines.last
                == "'Groceries' merged line by line on every device, no edit lost: "
                + "oat milk, eggs, bread, coffee ('notes history' keeps each version)."
        )
        let folder = try #require(lines.first?.split(separator: " ").last.map { String($0.dropLast()) })
        #expect(!FileManager.default.fileExists(atPath: URL(fileURLWithPath: folder).deletingLastPathComponent().path))
    }

    @Test func theDemoRunsWhenNotesIsFoundOnPath() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "cd / && notes demo"]
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] =
            NotesCommand.binary.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test func theSampleScriptRunsAndCleansUp() throws {
        let script = SampleFiles.folder.appendingPathComponent("demo-three-devices.sh")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script.path]
        var environment = ProcessInfo.processInfo.environment
        environment["NOTES"] = NotesCommand.binary.path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("sync enabled again: every device has the same 3 notes"))
        let folder = try #require(text.split(separator: " ").first { $0.contains("notes-demo.") })
        #expect(!FileManager.default.fileExists(atPath: String(folder).replacingOccurrences(of: "/cloud,", with: "")))
    }
}
