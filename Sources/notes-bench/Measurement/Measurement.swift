import Foundation

/// Repeated observations of one quantity, with the order statistics the report shows.
///
/// Machines are shared and noisy, so a figure is never a single observation: it is the median
/// of several, shown with its spread from the smallest to the largest. The p99 is taken by
/// nearest rank, so with fewer than 100 samples it is the largest one.
struct Measurement: Sendable {
    /// What the samples count.
    enum Unit: String, Sendable, Encodable {
        case milliseconds = "ms"
        case rowsPerSecond = "rows/s"
        case seconds = "s"
        case mebibytes = "MiB"
        case perSecond = "/s"
        case percent = "%"
        case bytes = "B"
    }

    let name: String
    let unit: Unit
    /// The observations, smallest first.
    let samples: [Double]

    init(_ name: String, unit: Unit, samples: [Double]) {
        precondition(!samples.isEmpty, "a measurement needs at least one sample")
        self.name = name
        self.unit = unit
        self.samples = samples.sorted()
    }

    var count: Int { samples.count }
    var min: Double { samples[0] }
    var max: Double { samples[samples.count - 1] }
    /// The range from the smallest to the largest sample.
    var spread: Double { max - min }
    var p99: Double { percentile(99) }

    var median: Double {
        let middle = samples.count / 2
        return samples.count % 2 == 1 ? samples[middle] : (samples[middle - 1] + samples[middle]) / 2
    }

    /// The nearest-rank percentile: the smallest sample with at least `p` percent of the
    /// samples at or below it.
    func percentile(_ p: Double) -> Double {
        let rank = Int((p / 100 * Double(samples.count)).rounded(.up))
        return samples[Swift.min(Swift.max(rank, 1), samples.count) - 1]
    }
}

extension Measurement: Encodable {
    private enum CodingKeys: String, CodingKey {
        case name, unit, count, median, min, max, p99, spread
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(unit, forKey: .unit)
        try container.encode(count, forKey: .count)
        try container.encode(median, forKey: .median)
        try container.encode(min, forKey: .min)
        try container.encode(max, forKey: .max)
        try container.encode(p99, forKey: .p99)
        try container.encode(spread, forKey: .spread)
    }
}
