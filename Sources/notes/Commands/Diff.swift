import ArgumentParser
import Foundation
import NoteStore
import NoteSync
import NoteText
import NoteTerminal

extension Notes {
    struct Diff: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "diff",
            abstract: "Show how two versions of a note's body (or an item's name) differ, as a unified diff.",
            discussion:
                "VERSION and VERSION2 are ids from 'notes history'. Without VERSION2, VERSION against the current text."
        )

        @OptionGroup var storeOptions: StoreOptions

        @Argument(help: "The item.", completion: ItemCompletion.items)
        var item: String

        @Argument(help: ArgumentHelp("The older version.", valueName: "VERSION"))
        var version: String

        @Argument(help: ArgumentHelp("The newer version (default: the current text).", valueName: "VERSION2"))
        var other: String?

        @OptionGroup var references: ReferenceOptions

        @OptionGroup var colorOptions: ColorOptions

        @OptionGroup var pagerOptions: PagerOptions

        func run() throws {
            let store = try storeOptions.open(.readOnly)
            let shown = try references.item(item, in: store, scope: .any, prompt: "diff> ")
            let history = try ItemHistory(store: store, item: shown)
            let first = try history.entry(version)
            let old = try history.text(of: first)
            let new: String
            let newLabel: String
            if let other {
                let second = try history.entry(other)
                guard second.property == first.property else {
                    throw InputError.usage(
                        "version \(first.id) is of the \(first.property.rawValue) "
                            + "and \(second.id) of the \(second.property.rawValue): compare versions of one"
                    )
                }
                new = try history.text(of: second)
                newLabel = "\(shown.name) (\(second.id))"
            } else {
                new = (first.property == .name ? shown.name : shown.body) ?? ""
                newLabel = "\(shown.name) (current)"
            }
            let lines = UnifiedDiff.render(
                old: old, new: new, oldLabel: "\(shown.name) (\(first.id))", newLabel: newLabel)
            let styled = colorOptions.styles()
            let pager = pagerOptions.start()
            defer { pager?.finish() }
            for line in lines {
                // Escaped first, then styled: the codes are the only control characters printed.
                if styled {
                    Swift.print(Self.colored(TerminalText.escaped(line, keepingLayout: true)))
                } else {
                    print(line)
                }
            }
        }

        /// Headers bold, hunk lines cyan, removals red, additions green.
        static func colored(_ line: String) -> String {
            let code: String
            if line.hasPrefix("--- ") || line.hasPrefix("+++ ") {
                code = "1"
            } else if line.hasPrefix("@@") {
                code = "36"
            } else if line.hasPrefix("-") {
                code = "31"
            } else if line.hasPrefix("+") {
                code = "32"
            } else {
                return line
            }
            return "\u{1B}[\(code)m" + line + "\u{1B}[0m"
        }
    }
}
