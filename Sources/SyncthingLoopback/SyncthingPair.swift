import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Two Syncthing instances on this machine, as two hosts would run them (for the tests and
/// the benchmark of sync between machines): each with a home of
/// its own and a copy of one shared folder, listening on loopback addresses only, with
/// discovery, relays and NAT traversal off, each knowing the other. Files written in one copy
/// reach the other by the engine, late and by its own rules, as between machines.
// Unchecked: `processes` is filled by `init` and emptied by `stop()` (or `deinit`); a pair has one
// owner, which stops it once, after its syncs.
public final class SyncthingPair: @unchecked Sendable {
    /// The shared folder's copy on each host: what `notes sync enable --cloud` is given.
    public let clouds: [URL]
    private var processes: [Process] = []

    /// Debian's `syncthing` (`install.sh --test` installs it).
    public static let binary = "/usr/bin/syncthing"

    public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: binary) }

    /// Makes both homes in `folder`, starts both instances, and waits (up to `timeout`
    /// seconds) until a file written on one side is on the other.
    ///
    /// The wait is long because the first connection can fail: when both instances dial each
    /// other at once on a busy machine, their TLS hello can time out (after 20 s) on both
    /// connections, and the engine dials again.
    public init(in folder: URL, timeout: TimeInterval = 90) throws {
        let sides = ["host-a", "host-b"]
        clouds = sides.map { folder.appendingPathComponent("\($0)-cloud") }
        let homes = sides.map { folder.appendingPathComponent("\($0)-syncthing") }
        var ids: [String] = []
        for home in homes {
            let generated = try Self.run(["generate", "--home", home.path, "--no-default-folder"])
            guard
                let id = generated.split(separator: "\n").compactMap({
                    $0.range(of: "Device ID: ").map { line in
                        String(generated[line.upperBound...].prefix(63))
                    }
                }).first
            else { throw SyncthingError("syncthing generate printed no device id: \(generated)") }
            ids.append(id)
        }
        let ports = try Self.freePorts(4)
        let listen = [ports[0], ports[1]]
        for (index, home) in homes.enumerated() {
            try FileManager.default.createDirectory(at: clouds[index], withIntermediateDirectories: true)
            let devices = zip(ids, listen).enumerated().map { offset, pair in
                "<device id=\"\(pair.0)\" name=\"\(sides[offset])\" compression=\"metadata\">"
                    + "<address>tcp://127.0.0.1:\(pair.1)</address></device>"
            }.joined(separator: "\n")
            let config = """
                <configuration version="36">
                    <folder id="notes" label="notes" path="\(clouds[index].path)" \
                type="sendreceive" rescanIntervalS="3600" fsWatcherEnabled="true" fsWatcherDelayS="1">
                        \(ids.map { "<device id=\"\($0)\"></device>" }.joined())
                        <minDiskFree unit="%">0</minDiskFree>
                        <maxConflicts>10</maxConflicts>
                    </folder>
                    \(devices)
                    <gui enabled="false" tls="false"><address>127.0.0.1:\(ports[2 + index])</address></gui>
                    <options>
                        <listenAddress>tcp://127.0.0.1:\(listen[index])</listenAddress>
                        <globalAnnounceEnabled>false</globalAnnounceEnabled>
                        <localAnnounceEnabled>false</localAnnounceEnabled>
                        <relaysEnabled>false</relaysEnabled>
                        <natEnabled>false</natEnabled>
                        <reconnectionIntervalS>1</reconnectionIntervalS>
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
            let log = home.appendingPathComponent("serve.log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let output = try FileHandle(forWritingTo: log)
            process.standardOutput = output
            process.standardError = output
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
            let logs = homes.map { home in
                let text = (try? String(contentsOf: home.appendingPathComponent("serve.log"), encoding: .utf8)) ?? ""
                return "\(home.lastPathComponent): " + text.split(separator: "\n").suffix(5).joined(separator: " | ")
            }
            throw SyncthingError(
                "the two Syncthing instances did not carry a file within \(Int(timeout)) s; "
                    + "\(logs.joined(separator: "; "))"
            )
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

    /// Ports on 127.0.0.1 that nothing listens on now: each bound with port 0 (the kernel picks
    /// a free one), all held open together so that they differ, then released for the engine.
    private static func freePorts(_ count: Int) throws -> [UInt16] {
        var sockets: [Int32] = []
        defer { for socket in sockets { close(socket) } }
        var ports: [UInt16] = []
        for _ in 0..<count {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else {
                throw SyncthingError("cannot open a socket: \(String(cString: strerror(errno)))")
            }
            sockets.append(descriptor)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                    bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
                }
            }
            guard bound else {
                throw SyncthingError("cannot find a free port on 127.0.0.1: \(String(cString: strerror(errno)))")
            }
            ports.append(UInt16(bigEndian: address.sin_port))
        }
        return ports
    }

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
