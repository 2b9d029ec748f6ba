import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The machine the figures were taken on, as far as a process can see it.
struct MachineInfo: Encodable {
    let cores: Int
    let cpu: String
    let memoryGiB: Double
    let kernel: String
    let sqlite: String

    static func current() -> MachineInfo {
        MachineInfo(
            cores: ProcessInfo.processInfo.activeProcessorCount,
            cpu: cpuModel() ?? "unknown",
            memoryGiB: (Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824 * 10).rounded() / 10,
            kernel: kernelRelease(),
            sqlite: RawConnection.libraryVersion)
    }

    /// The `model name` line of /proc/cpuinfo.
    private static func cpuModel() -> String? {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }
        let line = text.split(separator: "\n").first { $0.hasPrefix("model name") }
        return line?.split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces)
    }

    private static func kernelRelease() -> String {
        var name = utsname()
        uname(&name)
        let release = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let system = withUnsafeBytes(of: &name.sysname) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return "\(system) \(release)"
    }

    var summary: String {
        "\(cores) cores, \(cpu), \(memoryGiB) GiB, \(kernel), SQLite \(sqlite)"
    }
}
