import ArgumentParser
import Foundation

/// When output may be coloured or styled.
enum ColorChoice: String, CaseIterable, ExpressibleByArgument {
    case never, auto, always
}

/// `--color`: whether styled output (bold matches) is used.
struct ColorOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "When to style the output: never, auto (on a terminal, unless NO_COLOR is set or TERM is dumb) or always.",
            valueName: "WHEN"))
    var color: ColorChoice = .auto

    /// Whether to style standard output; `auto` follows https://no-color.org.
    func styles(environment: [String: String] = ProcessInfo.processInfo.environment, isTerminal: Bool = isatty(1) == 1)
        -> Bool
    {
        switch color {
        case .never: return false
        case .always: return true
        case .auto: return isTerminal && (environment["NO_COLOR"] ?? "").isEmpty && !Terminal.isDumb(environment)
        }
    }
}

/// `--utc`: the time zone in which times are printed for people.
struct TimeOptions: ParsableArguments {
    @Flag(help: "Print times in UTC instead of the local time zone.")
    var utc = false

    var zone: TimeZone { utc ? TimeZone(identifier: "UTC")! : TimeZone.current }
}

/// What the terminal can do.
enum Terminal {
    /// `TERM=dumb`: no cursor movement, no styles.
    static func isDumb(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        environment["TERM"] == "dumb"
    }
}
