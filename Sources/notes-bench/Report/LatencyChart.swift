import Foundation

/// A chart of latency distributions as a standalone SVG document.
///
/// Each series is drawn as its empirical distribution function, a step line giving for every
/// latency x the share of samples at or below x, so that medians, tails and outliers of several
/// distributions can be compared at a glance where a table gives only a few order statistics.
///
/// The x axis is logarithmic, in whole decades of milliseconds, because latencies of one chart
/// often span several orders of magnitude. The y axis spreads the tail: a share s is placed at
/// −log10(1 − s), so 90%, 99% and 99.9% are evenly spaced and the p99 reads as well as the
/// median; the caption of the chart says so. A share of 100% lies infinitely far up on that
/// scale, so each line leaves the top of the plot at its largest sample; the axis reaches a
/// little above the highest share below 100%, so all the steps before that are drawn.
///
/// Lines are thinned to about one point per pixel moved, keeping the smallest and the largest
/// sample exactly, so a chart of tens of thousands of samples stays a small file. The output
/// depends only on the input: numbers are written with fixed decimals.
/// See the SVG 1.1 specification, https://www.w3.org/TR/SVG11/.
struct LatencyChart {
    /// One distribution: its name in the legend and its samples.
    struct Series {
        let label: String
        /// Latencies in milliseconds, in any order. Samples that are not finite are left out;
        /// samples of zero or less are drawn at the left edge of the plot.
        let samples: [Double]
    }

    var title: String
    var series: [Series]
    /// Vertical marker lines with a label, e.g. targets: (5, "p50 target 5 ms"), (25, "p99 target 25 ms").
    var markers: [(milliseconds: Double, label: String)] = []
    /// What one sample is, in the plural, for the y axis: "share of saves at or below x".
    var sampleName = "saves"

    /// Okabe and Ito's colour-blind-safe palette (https://jfly.uni-koeln.de/color/), without
    /// its yellow, which is too light on white. Series beyond its length reuse its colours.
    static let palette = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"]

    /// The SVG document, from the XML declaration to the closing `</svg>`.
    func svg() -> String {
        let distributions = series.map { series in
            (label: series.label, samples: series.samples.filter(\.isFinite).sorted())
        }
        let layout = Layout(
            samples: distributions.flatMap(\.samples), largestCount: distributions.map(\.samples.count).max() ?? 0,
            markers: markers.map(\.milliseconds), legendRows: distributions.count)
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(layout.width)" height="\(layout.height)" \
            viewBox="0 0 \(layout.width) \(layout.height)" font-family="sans-serif" font-size="12">
            <title>\(escaped(title))</title>
            <rect width="\(layout.width)" height="\(layout.height)" fill="white"/>
            <text x="\(layout.plotLeft)" y="30" font-size="16" font-weight="bold">\(escaped(title))</text>

            """
        out += yAxis(layout) + xAxis(layout)
        for (index, distribution) in distributions.enumerated() {
            out += line(distribution.samples, color: Self.color(index), layout)
        }
        out +=
            "<rect x=\"\(layout.plotLeft)\" y=\"\(layout.plotTop)\" width=\"\(layout.plotWidth)\" "
            + "height=\"\(layout.plotHeight)\" fill=\"none\" stroke=\"#808080\"/>\n"
        out += markerLines(layout)
        for (index, distribution) in distributions.enumerated() {
            out += legendRow(index, label: distribution.label, samples: distribution.samples, layout)
        }
        out += caption(layout)
        return out + "</svg>\n"
    }

    static func color(_ index: Int) -> String {
        palette[index % palette.count]
    }
}

// MARK: - Layout

extension LatencyChart {
    /// Where everything goes: the plot's frame, the ranges of its axes, and the rows below it.
    private struct Layout {
        let width = 800
        let plotLeft = 76
        let plotTop = 52
        let plotWidth = 700
        let plotHeight = 270
        /// The x axis, in decades: from 10^lowDecade ms to 10^highDecade ms.
        let lowDecade: Int
        let highDecade: Int
        /// The y axis ends at the share 1 − 10^−topLevel (2: 99%, 3: 99.9%).
        let topLevel: Double
        let legendRows: Int

        var plotRight: Int { plotLeft + plotWidth }
        var plotBottom: Int { plotTop + plotHeight }
        /// The baseline of the legend's first row, below the x axis and its title.
        var legendTop: Int { plotBottom + 60 }
        var captionTop: Int { legendTop + 18 * legendRows + 6 }
        var height: Int { captionTop + 36 }

        init(samples: [Double], largestCount: Int, markers: [Double], legendRows: Int) {
            let positive = (samples + markers).filter { $0 > 0 && $0.isFinite }
            let low = positive.min().map { Int(log10($0).rounded(.down)) } ?? 0
            let high = positive.max().map { Int(log10($0).rounded(.up)) } ?? 1
            lowDecade = low
            highDecade = Swift.max(high, low + 1)
            // The highest step of n samples is at (n − 1)/n, below 1 − 10^−log10(n); a few tenths
            // of a decade above it keep that step clear of the frame.
            topLevel = Swift.max(2, log10(Double(Swift.max(largestCount, 1)))) + 0.4
            self.legendRows = legendRows
        }

        /// The horizontal position of a latency in milliseconds.
        func x(_ milliseconds: Double) -> Double {
            guard milliseconds > 0 else { return Double(plotLeft) }
            let decades = (log10(milliseconds) - Double(lowDecade)) / Double(highDecade - lowDecade)
            return Double(plotLeft) + Double(plotWidth) * Swift.min(Swift.max(decades, 0), 1)
        }

        /// The vertical position of a share from 0 to 1, on the scale −log10(1 − share).
        func y(_ share: Double) -> Double {
            y(level: share >= 1 ? topLevel : -log10(1 - share))
        }

        /// The vertical position of a level of the scale: 0 for 0%, 1 for 90%, 2 for 99%.
        func y(level: Double) -> Double {
            let fraction = Swift.min(Swift.max(level / topLevel, 0), 1)
            return Double(plotBottom) - Double(plotHeight) * fraction
        }
    }
}

// MARK: - Axes

extension LatencyChart {
    private func yAxis(_ layout: Layout) -> String {
        var levels: [(level: Double, label: String, strong: Bool)] = [(0, "0%", false), (log10(2), "50%", true)]
        for level in 1...Int(layout.topLevel) {
            let label = String(format: "%.\(Swift.max(level - 2, 0))f%%", 100 * (1 - pow(10, -Double(level))))
            levels.append((Double(level), label, level == 2))
        }
        var out = ""
        for tick in levels {
            let y = decimal(layout.y(level: tick.level))
            out +=
                "<line x1=\"\(layout.plotLeft)\" y1=\"\(y)\" x2=\"\(layout.plotRight)\" y2=\"\(y)\" "
                + "stroke=\"\(tick.strong ? "#A8A8A8" : "#E0E0E0")\"/>\n"
            out +=
                "<text x=\"\(layout.plotLeft - 6)\" y=\"\(decimal(layout.y(level: tick.level) + 4))\" "
                + "text-anchor=\"end\" font-size=\"11\""
                + "\(tick.strong ? " font-weight=\"bold\"" : "")>\(tick.label)</text>\n"
        }
        let middle = layout.plotTop + layout.plotHeight / 2
        out +=
            "<text transform=\"translate(16 \(middle)) rotate(-90)\" text-anchor=\"middle\">"
            + "share of \(escaped(sampleName)) at or below x</text>\n"
        return out
    }

    private func xAxis(_ layout: Layout) -> String {
        var out = ""
        let decadeWidth = Double(layout.plotWidth) / Double(layout.highDecade - layout.lowDecade)
        for decade in layout.lowDecade...layout.highDecade {
            let x = layout.x(pow(10, Double(decade)))
            out +=
                "<line x1=\"\(decimal(x))\" y1=\"\(layout.plotTop)\" x2=\"\(decimal(x))\" y2=\"\(layout.plotBottom)\" "
                + "stroke=\"#E0E0E0\"/>\n"
            out +=
                "<text x=\"\(decimal(x))\" y=\"\(layout.plotBottom + 16)\" text-anchor=\"middle\" font-size=\"11\">"
                + "\(Self.decadeLabel(decade))</text>\n"
            guard decade < layout.highDecade, decadeWidth >= 40 else { continue }
            for step in 2...9 {
                let x = decimal(layout.x(Double(step) * pow(10, Double(decade))))
                out +=
                    "<line x1=\"\(x)\" y1=\"\(layout.plotTop)\" x2=\"\(x)\" y2=\"\(layout.plotBottom)\" "
                    + "stroke=\"#F2F2F2\"/>\n"
            }
        }
        out +=
            "<text x=\"\(layout.plotLeft + layout.plotWidth / 2)\" y=\"\(layout.plotBottom + 36)\" "
            + "text-anchor=\"middle\">x: latency (log scale)</text>\n"
        return out
    }

    /// A power of ten of milliseconds as an axis label: "0.1 ms", "10 ms", "1 s".
    static func decadeLabel(_ decade: Int) -> String {
        switch decade {
        case ..<0: String(format: "%.\(-decade)f ms", pow(10, Double(decade)))
        case 0..<3: "\(Int(pow(10, Double(decade)))) ms"
        default: "\(Int(pow(10, Double(decade - 3)))) s"
        }
    }
}

// MARK: - Lines and markers

extension LatencyChart {
    /// The step line of sorted samples: up by 1/n at each sample, up to the top at the last.
    private func line(_ samples: [Double], color: String, _ layout: Layout) -> String {
        guard !samples.isEmpty else { return "" }
        var corners: [(x: Double, y: Double)] = []
        var share = 0.0
        for (index, sample) in samples.enumerated() where index == samples.count - 1 || samples[index + 1] != sample {
            let x = layout.x(sample)
            corners.append((x, layout.y(share)))
            share = Double(index + 1) / Double(samples.count)
            corners.append((x, layout.y(share)))
        }
        let points = Self.thinned(corners).map { "\(decimal($0.x)),\(decimal($0.y))" }.joined(separator: " ")
        return "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\" stroke-linejoin=\"round\" "
            + "points=\"\(points)\"/>\n"
    }

    /// The points of a monotone line, without those less than a pixel from the last one kept;
    /// the first point and the last two (the largest sample and the line's end) are all kept.
    ///
    /// A line that only moves right and up crosses the plot once, so this leaves at most one
    /// point per pixel of the plot's width plus its height, and moves no drawn point by more
    /// than about a pixel.
    static func thinned(_ points: [(x: Double, y: Double)]) -> [(x: Double, y: Double)] {
        guard points.count > 3 else { return points }
        var kept = [points[0]]
        for point in points[1..<(points.count - 2)] {
            let last = kept[kept.count - 1]
            if Swift.max(abs(point.x - last.x), abs(point.y - last.y)) >= 1 {
                kept.append(point)
            }
        }
        return kept + points.suffix(2)
    }

    /// Dashed vertical lines, each labelled at the top; a label that would overlap another goes
    /// a row lower, and one that would run past the right edge goes to the left of its line.
    private func markerLines(_ layout: Layout) -> String {
        var out = ""
        var taken: [[ClosedRange<Double>]] = []
        for marker in markers.sorted(by: { $0.milliseconds < $1.milliseconds }) where marker.milliseconds.isFinite {
            let x = layout.x(marker.milliseconds)
            out +=
                "<line x1=\"\(decimal(x))\" y1=\"\(layout.plotTop)\" x2=\"\(decimal(x))\" y2=\"\(layout.plotBottom)\" "
                + "stroke=\"#404040\" stroke-width=\"1.2\" stroke-dasharray=\"6 4\"/>\n"
            let width = 6.6 * Double(marker.label.count)
            let onRight = x + 4 + width <= Double(layout.plotRight)
            let span = onRight ? (x + 4)...(x + 4 + width) : (x - 4 - width)...(x - 4)
            let row = taken.firstIndex { !$0.contains { $0.overlaps(span) } } ?? taken.count
            if row == taken.count { taken.append([]) }
            taken[row].append(span)
            let text =
                "x=\"\(decimal(onRight ? x + 4 : x - 4))\" y=\"\(layout.plotTop + 14 + 15 * row)\" "
                + "text-anchor=\"\(onRight ? "start" : "end")\" font-size=\"11\""
            out +=
                "<text \(text) fill=\"white\" stroke=\"white\" stroke-width=\"4\" stroke-linejoin=\"round\">"
                + "\(escaped(marker.label))</text>\n"
            out += "<text \(text) fill=\"#202020\">\(escaped(marker.label))</text>\n"
        }
        return out
    }
}

// MARK: - Legend and caption

extension LatencyChart {
    private func legendRow(_ index: Int, label: String, samples: [Double], _ layout: Layout) -> String {
        let y = layout.legendTop + 18 * index
        var summary = "no samples"
        if !samples.isEmpty {
            let measurement = Measurement(label, unit: .milliseconds, samples: samples)
            summary =
                "p50 \(Self.milliseconds(measurement.median)) ms · p99 \(Self.milliseconds(measurement.p99)) ms"
                + " · max \(Self.milliseconds(measurement.max)) ms"
        }
        return "<line x1=\"\(layout.plotLeft)\" y1=\"\(y - 4)\" x2=\"\(layout.plotLeft + 24)\" y2=\"\(y - 4)\" "
            + "stroke=\"\(Self.color(index))\" stroke-width=\"3\"/>\n"
            + "<text x=\"\(layout.plotLeft + 32)\" y=\"\(y)\"><tspan font-weight=\"bold\">\(escaped(label))</tspan>"
            + "<tspan fill=\"#505050\" dx=\"10\">\(summary)</tspan></text>\n"
    }

    private func caption(_ layout: Layout) -> String {
        let lines = [
            "Each line: the share of \(sampleName) taking at most x (empirical distribution); "
                + "p50 is the median, p99 by nearest rank.",
            "y scale spreads the tail: 90%, 99%, 99.9% are evenly spaced, 0–50% is compressed; "
                + "lines leave the top at their maximum.",
        ]
        return lines.enumerated().map { index, line in
            "<text x=\"\(layout.plotLeft)\" y=\"\(layout.captionTop + 10 + 15 * index)\" "
                + "font-size=\"11\" fill=\"#505050\">"
                + "\(escaped(line))</text>\n"
        }.joined()
    }

    /// A latency in milliseconds with three significant digits, or more for 1,000 ms and up.
    static func milliseconds(_ value: Double) -> String {
        guard value != 0 else { return "0" }
        let digits = Swift.min(Swift.max(2 - Int(log10(abs(value)).rounded(.down)), 0), 6)
        return String(format: "%.\(digits)f", value)
    }
}

/// A number with one decimal, as coordinates are written.
private func decimal(_ value: Double) -> String {
    String(format: "%.1f", value)
}

/// Text with the characters that XML reserves replaced by their entities.
private func escaped(_ text: String) -> String {
    var out = ""
    for character in text {
        switch character {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&apos;"
        default: out.append(character)
        }
    }
    return out
}
