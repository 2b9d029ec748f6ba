import Foundation

/// Wall-clock timing on the monotonic clock, in milliseconds.
enum Stopwatch {
    /// Runs `body` and returns its result with the time it took.
    static func time<T>(_ body: () throws -> T) rethrows -> (result: T, milliseconds: Double) {
        let clock = ContinuousClock()
        let start = clock.now
        let result = try body()
        return (result, (clock.now - start).milliseconds)
    }

    /// The time `body` took, in milliseconds.
    static func milliseconds(_ body: () throws -> Void) rethrows -> Double {
        try time(body).milliseconds
    }
}

extension Duration {
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
