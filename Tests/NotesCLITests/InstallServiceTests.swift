import Foundation
import NoteTestSupport
import Testing

/// The systemd user service that `install.sh --service` installs runs the installed watcher.
@Suite struct InstallServiceTests {
    /// Runs `install.sh` with `arguments`; returns what it printed, after checking it succeeded.
    func installScript(_ arguments: [String], environment: [String: String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments =
            [SampleFiles.folder.deletingLastPathComponent().appendingPathComponent("install.sh").path] + arguments
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self)
    }

    func printService(prefix: String, store: String?) throws -> String {
        var environment = ProcessInfo.processInfo.environment
        environment["NOTES_STORE"] = store
        return try installScript(["--print-service", "--prefix", prefix], environment: environment)
    }

    @Test func theUnitRunsTheInstalledWatcher() throws {
        let unit = try printService(prefix: "/opt/notes", store: nil)
        #expect(unit.contains("\nExecStart=/opt/notes/bin/notes watch\n"))
        #expect(unit.contains("\nWantedBy=default.target\n"))
        #expect(!unit.contains("Environment="))
    }

    /// `--uninstall` removes what an install put under the prefix, and the user service that
    /// runs that prefix's watcher, and nothing else.
    @Test func uninstallRemovesTheInstalledFilesAndNothingElse() throws {
        let folder = TemporaryFolder("notes-uninstall")
        let prefix = folder.appending("prefix"), config = folder.appending("config")
        let installed = [
            "bin/notes", "share/man/man1/notes.1", "share/bash-completion/completions/notes",
            "share/zsh/site-functions/_notes", "share/fish/vendor_completions.d/notes.fish",
        ]
        let others = ["bin/other", "share/man/man1/other.1"]
        for relative in installed + others {
            let url = prefix.appendingPathComponent(relative)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("x".utf8).write(to: url)
        }
        let unit = config.appendingPathComponent("systemd/user/notes-watch.service")
        try FileManager.default.createDirectory(at: unit.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(try printService(prefix: prefix.path, store: nil).utf8).write(to: unit)
        func uninstall() throws -> String {
            try installScript(
                ["--uninstall", "--prefix", prefix.path],
                environment: ["PATH": "/usr/bin:/bin", "HOME": folder.url.path, "XDG_CONFIG_HOME": config.path])
        }
        let first = try uninstall()
        #expect(first.contains("removed notes from \(prefix.path) (5 files)"), "\(first)")
        #expect(first.contains("removed the user service"), "\(first)")
        for relative in installed {
            #expect(!FileManager.default.fileExists(atPath: prefix.appendingPathComponent(relative).path))
        }
        for relative in others {
            #expect(FileManager.default.fileExists(atPath: prefix.appendingPathComponent(relative).path))
        }
        #expect(!FileManager.default.fileExists(atPath: unit.path))
        #expect(try uninstall().contains("nothing to remove"))
    }

    @Test func theUnitKeepsTheStoreChosenAtInstall() throws {
        let unit = try printService(prefix: "/usr/local", store: "/home/me/notes")
        #expect(unit.contains("\nEnvironment=NOTES_STORE=/home/me/notes\n"))
    }
}
