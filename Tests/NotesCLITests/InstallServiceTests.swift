import Foundation
import NoteTestSupport
import Testing

/// The systemd user service that `install.sh --service` installs runs the installed watcher.
@Suite struct InstallServiceTests {
    func printService(prefix: String, store: String?) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [SampleFiles.folder.deletingLastPathComponent().appendingPathComponent("install.sh").path,
                             "--print-service", "--prefix", prefix]
        var environment = ProcessInfo.processInfo.environment
        environment["NOTES_STORE"] = store
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self)
    }

    @Test func theUnitRunsTheInstalledWatcher() throws {
        let unit = try printService(prefix: "/opt/notes", store: nil)
        #expect(unit.contains("\nExecStart=/opt/notes/bin/notes watch\n"))
        #expect(unit.contains("\nWantedBy=default.target\n"))
        #expect(!unit.contains("Environment="))
    }

    @Test func theUnitKeepsTheStoreChosenAtInstall() throws {
        let unit = try printService(prefix: "/usr/local", store: "/home/me/notes")
        #expect(unit.contains("\nEnvironment=NOTES_STORE=/home/me/notes\n"))
    }
}
