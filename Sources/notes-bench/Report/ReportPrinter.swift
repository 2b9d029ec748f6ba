import Foundation

/// Prints a ``Report``: as aligned text tables for a person, or as JSON for a program.
enum ReportPrinter {
    static func json(_ report: Report) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(report), as: UTF8.self) + "\n"
    }

    /// The lines before the scenarios: the sizes, the machine and the start.
    static func heading(_ report: Report) -> String {
        "notes-bench \(report.quick ? "--quick (small sizes: figures only indicative)" : "(full sizes)")\n"
            + "machine: \(report.machine.summary)\n" + "started: \(report.started)\n"
    }

    static func text(_ scenario: ScenarioReport) -> String {
        var out = "== \(scenario.name) ==\n"
        if !scenario.parameters.isEmpty {
            out += "  " + scenario.parameters.map { "\($0.name): \($0.value)" }.joined(separator: " · ") + "\n"
        }
        if !scenario.measurements.isEmpty {
            let rows =
                [["measurement", "median", "min – max", "p99", "n"]]
                + scenario.measurements.map { m in
                    [
                        m.name, format(m.median, m.unit),
                        format(m.min, m.unit, unit: false) + " – " + format(m.max, m.unit),
                        format(m.p99, m.unit), String(m.count),
                    ]
                }
            out += table(rows, rightAligned: [1, 2, 3, 4])
        }
        for ratio in scenario.ratios {
            let range =
                ratio.min.flatMap { min in
                    ratio.max.map { "  (median of pairs; pairs \(ratioText(min)) – \(ratioText($0)))" }
                } ?? ""
            out += "  ratio   \(ratio.name): \(ratioText(ratio.value))\(range)\n"
        }
        for fact in scenario.facts {
            out += "  fact    \(fact.name): \(fact.value)\n"
        }
        for target in scenario.targets {
            out += "  target  \(target.name): \(target.met ? "MET" : "MISSED"): \(target.detail)\n"
        }
        return out
    }

    /// A value in its unit, with about three significant digits.
    static func format(_ value: Double, _ kind: Measurement.Unit, unit: Bool = true) -> String {
        let number: String
        switch kind {
        case .milliseconds:
            let digits = value < 1 ? 3 : value < 10 ? 2 : 1
            number = String(format: "%.\(digits)f", value)
        case .rowsPerSecond, .perSecond:
            number = grouped(Int(value.rounded()))
        case .seconds:
            number = String(format: value < 10 ? "%.2f" : "%.1f", value)
        case .mebibytes:
            number = String(format: value < 10 ? "%.1f" : "%.0f", value)
        case .percent:
            number = String(format: value < 1 ? "%.3f" : "%.1f", value)
        case .bytes:
            number = grouped(Int(value.rounded()))
        }
        return unit ? "\(number) \(kind.rawValue)" : number
    }

    static func ratioText(_ value: Double) -> String {
        String(format: value < 10 ? "%.2f" : "%.1f", value) + "×"
    }

    /// An integer with a comma between groups of three digits: 123,456.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out += "," }
            out.append(digit)
        }
        return (value < 0 ? "-" : "") + out
    }

    private static func table(_ rows: [[String]], rightAligned: Set<Int>) -> String {
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            "  "
                + row.enumerated().map { column, cell in
                    let pad = String(repeating: " ", count: widths[column] - cell.count)
                    return rightAligned.contains(column) ? pad + cell : cell + pad
                }.joined(separator: "   ") + "\n"
        }.joined()
    }
}
