import Foundation

/// Everything one run of the benchmark found, as printed or written as JSON.
struct Report: Encodable {
    let tool = "notes-bench"
    /// True when run with `--quick`: small sizes, figures only indicative.
    let quick: Bool
    let command: String
    let started: String
    let machine: MachineInfo
    var scenarios: [ScenarioReport] = []
}

/// What one scenario measured.
struct ScenarioReport: Encodable {
    let name: String
    /// The sizes it ran with, in order.
    var parameters: [Fact] = []
    /// Counts and sizes observed along the way, in order.
    var facts: [Fact] = []
    var measurements: [Measurement] = []
    var ratios: [Ratio] = []
    var targets: [TargetCheck] = []
    /// A picture of the scenario's distributions, written by `--chart`.
    var chart: LatencyChart?

    private enum CodingKeys: String, CodingKey {
        case name, parameters, facts, measurements, ratios, targets
    }

    init(name: String) {
        self.name = name
    }

    /// The measurement named `name`; scenarios look up their own figures to compare them.
    func measurement(_ name: String) -> Measurement? {
        measurements.first { $0.name == name }
    }
}

/// A named value in a report.
struct Fact: Encodable {
    let name: String
    let value: String

    init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    init(_ name: String, _ value: Int) {
        self.init(name, ReportPrinter.grouped(value))
    }
}

/// Whether a performance target of ARCHITECTURE.md (or of an issue) is met, and by how much.
struct TargetCheck: Encodable {
    let name: String
    let met: Bool
    /// The figures behind the verdict, in one sentence.
    let detail: String
}
