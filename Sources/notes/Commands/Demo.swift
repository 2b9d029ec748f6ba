import ArgumentParser
import Foundation

extension Notes {
    struct Demo: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "demo",
            abstract: "Show live sync between three devices on this machine, narrated, with the time each note takes.",
            discussion: """
                Makes three stores sharing one cloud folder in a temporary folder, runs 'notes watch' \
                for each, adds a note on each and measures when it reaches the others, then switches \
                sync off by removing the container's sentinel and on again. It stops the watchers it \
                started and removes the temporary folder, unless --keep is given.
                """)

        @Flag(help: "Keep the temporary folder, to look at the stores and the container afterwards.")
        var keep = false

        func run() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "notes-demo-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let demo = LiveDemo(folder: folder) { print($0) }
            defer {
                demo.stopWatchers()
                if keep {
                    print("\nThe stores and the cloud folder are kept in \(folder.path).")
                } else {
                    try? FileManager.default.removeItem(at: folder)
                }
            }
            try demo.run()
        }
    }
}
