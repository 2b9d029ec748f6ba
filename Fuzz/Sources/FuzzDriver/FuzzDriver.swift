import Foundation

/// libFuzzer's driver, from its runtime without `main` (SwiftPM makes the executable's main).
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// The function under test; set once, before the driver starts.
nonisolated(unsafe) private var target: ((Data) -> Void)?

/// Runs libFuzzer with this process's arguments, giving `body` each input; exits with the
/// driver's status (non-zero after a crash, a leak, a timeout or too much memory).
public func fuzz(_ body: @escaping (Data) -> Void) -> Never {
    target = body
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(
        runDriver(&argc, &argv) { bytes, count in
            target?(bytes.map { Data(bytes: $0, count: count) } ?? Data())
            return 0
        })
}
