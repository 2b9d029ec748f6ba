import Foundation

/// One quantity divided by another, both measured in the same run.
///
/// When the two were measured in pairs (one repetition of each, back to back), the value is
/// the median of the pairs' ratios and the range their smallest and largest: a noisy
/// neighbour tends to slow both runs of a pair, so it skews a pair's ratio far less than it
/// skews either figure alone. Otherwise the value is the ratio of the medians.
struct Ratio: Sendable, Encodable {
    let name: String
    let value: Double
    let min: Double?
    let max: Double?

    /// The ratio of `numerator` to `denominator`; with `paired`, the samples of both in the
    /// order taken, so that the i-th of each were taken together.
    init(
        _ name: String, _ numerator: Measurement, over denominator: Measurement,
        paired: (numerator: [Double], denominator: [Double])? = nil
    ) {
        self.name = name
        if let paired, paired.numerator.count == paired.denominator.count, !paired.numerator.isEmpty {
            let ratios = Measurement(
                name, unit: numerator.unit, samples: zip(paired.numerator, paired.denominator).map { $0 / $1 })
            value = ratios.median
            min = ratios.min
            max = ratios.max
        } else {
            value = numerator.median / denominator.median
            min = nil
            max = nil
        }
    }
}
