import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Two Syncthing instances on this machine, as two hosts would run them (for the tests and
/// the benchmark of sync between machines): each with a home of
/// its own and a copy of one shared folder, listening on loopback addresses only, with
/// discovery, relays and NAT traversal off, each knowing the other. Files written in one copy
/// reach the other by the engine, late and by its own rules, as between machines.
public final class SyncthingPair: @unchecked Sendable {
    /// The shared folder's copy on each host: what `notes sync enable --cloud` is given.
    public let clouds: [URL]
    private var processes: [Process] = []

    /// Debian's `syncthing` (`install.sh --test` installs it).
    public static let binary = "/usr/bin/syncthing"

    public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: binary) }

    /// Makes both homes in `folder`, starts both instances, and waits (up to `timeout`
    /// seconds) until a file written on one side is on the other.
    public init(in folder: URL, timeout: TimeInterval = 30) throws {
        let sides = ["host-a", "host-b"]
        clouds = sides.map { folder.appendingPathComponent("\($0)-cloud") }
        let homes = sides.map { folder.appendingPathComponent("\($0)-syncthing") }
        var ids: [String] = []
        for home in homes {
            let generated = try Self.run(["generate", "--home", home.path, "--no-default-folder"])
            guard let id = generated.split(separator: "\n").compactMap({ $0.range(of: "Device ID: ").map { line in
                String(generated[line.upperBound...].prefix(63))
            } }).first else { throw SyncthingError("syncthing generate printed no device id: \(generated)") }
            ids.append(id)
        }
        let base = Int32.random(in: 20_000...40_000)
        let listen = [base, base + 1]
        for (index, home) in homes.enumerated() {
            try FileManager.default.createDirectory(at: clouds[index], withIntermediateDirectories: true)
            let devices = zip(ids, listen).enumerated().map { offset, pair in
                "<device id=\"\(pair.0)\" name=\"\(sides[offset])\" compression=\"metadata\"><address>tcp://127.0.0.1:\(pair.1)</address></device>"
            }.joined(separator: "\n")
            let config = """
                <configuration version="36">
                    <folder id="notes" label="notes" path="\(clouds[index].path)" type="sendreceive" rescanIntervalS="3600" fsWatcherEnabled="true" fsWatcherDelayS="1">
                        \(ids.map { "<device id=\"\($0)\"></device>" }.joined())
                        <minDiskFree unit="%">0</minDiskFree>
                    </folder>
                    \(devices)
                    <gui enabled="false" tls="false"><address>127.0.0.1:\(base + 2 + Int32(index))</address></gui>
                    <options>
                        <listenAddress>tcp://127.0.0.1:\(listen[index])</listenAddress>
                        <globalAnnounceEnabled>false</globalAnnounceEnabled>
                        <localAnnounceEnabled>false</localAnnounceEnabled>
                        <relaysEnabled>false</relaysEnabled>
                        <natEnabled>false</natEnabled>
                        <startBrowser>false</startBrowser>
                        <urAccepted>-1</urAccepted>
                        <autoUpgradeIntervalH>0</autoUpgradeIntervalH>
                        <crashReportingEnabled>false</crashReportingEnabled>
                        <minHomeDiskFree unit="%">0</minHomeDiskFree>
                    </options>
                </configuration>
                """
            try config.write(to: home.appendingPathComponent("config.xml"), atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Self.binary)
            process.arguments = ["serve", "--home", home.path, "--no-browser", "--no-restart"]
            process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
            process.standardError = FileHandle(forWritingAtPath: "/dev/null")
            var environment = ProcessInfo.processInfo.environment
            environment["STNOUPGRADE"] = "1"
            process.environment = environment
            try process.run()
            processes.append(process)
        }
        let probe = "connected-\(UUID().uuidString)"
        try Data("probe".utf8).write(to: clouds[0].appendingPathComponent(probe))
        let deadline = Date().addingTimeInterval(timeout)
        while !FileManager.default.fileExists(atPath: clouds[1].appendingPathComponent(probe).path), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        guard FileManager.default.fileExists(atPath: clouds[1].appendingPathComponent(probe).path) else {
            stop()
            throw SyncthingError("the two Syncthing instances did not carry a file within \(Int(timeout)) s")
        }
    }

    /// Stops both instances.
    public func stop() {
        for process in processes where process.isRunning {
            kill(process.processIdentifier, SIGTERM)
        }
        for process in processes { process.waitUntilExit() }
        processes.removeAll()
    }

    deinit { stop() }

    private static func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}

/// Why a Syncthing pair could not be set up.
public struct SyncthingError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
