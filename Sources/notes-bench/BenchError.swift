import Foundation

/// Why a benchmark could not run.
enum BenchError: Error, CustomStringConvertible {
    /// A program run by the benchmark failed.
    case process(String, String)
    /// A call of the SQLite C API failed.
    case sqlite(String, code: Int32, message: String)
    /// A result was not what the scenario set up, so its figures would mean nothing.
    case unexpected(String)
    /// The `notes` binary is not where it was looked for.
    case missingBinary(String)
    /// A program the benchmark needs, such as `git`, is not on `PATH`.
    case missingTool(String)

    var description: String {
        switch self {
        case let .process(command, reason): return "'\(command)' failed: \(reason)"
        case let .sqlite(call, code, message): return "sqlite \(call) failed (\(code)): \(message)"
        case let .unexpected(what): return what
        case let .missingBinary(path):
            return "no executable 'notes' at \(path): build it first (swift build -c release) or give --notes-binary"
        case let .missingTool(name): return "no executable '\(name)' on PATH: install it to run this comparison"
        }
    }
}
