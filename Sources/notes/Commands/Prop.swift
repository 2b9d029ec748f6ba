import ArgumentParser
import Foundation
import NoteStore

extension Notes {
    struct Prop: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "prop",
            abstract: "List, show, set or remove the properties of a note.",
            usage: """
                notes prop <note>
                notes prop <note> <KEY>
                notes prop <note> <KEY> <VALUE> ...
                notes prop <note> <KEY> --remove
                """,
            discussion: """
                Properties are what a Markdown file's front matter holds besides the note's own id, \
                name, dates and tags: a key (aliases, title, status) with a value, kept in order. \
                With a key alone, prints its value: text as it is, anything else as JSON. With \
                values, sets the key: one value is text and several a list, unless --type says \
                otherwise; a key the note has keeps its type when the value reads as one (a number \
                stays a number). A property set on one device and removed on another before they \
                sync stays; of two values set at once, the later wins everywhere.
                """)

        enum ValueType: String, ExpressibleByArgument, CaseIterable {
            case text, number, bool, list, json
        }

        @OptionGroup var storeOptions: StoreOptions

        @Argument(help: ArgumentHelp("The note.", valueName: "note"), completion: ItemCompletion.items)
        var note: String

        @Argument(help: ArgumentHelp("The property's key.", valueName: "KEY"))
        var key: String?

        @Argument(help: ArgumentHelp("The value to set: several make a list.", valueName: "VALUE"))
        var values: [String] = []

        @Option(help: ArgumentHelp("How to read the values: text, number, bool, list or json.", valueName: "TYPE"))
        var type: ValueType?

        @Flag(help: "Remove the property.")
        var remove = false

        @Flag(help: "Print JSON.")
        var json = false

        @OptionGroup var references: ReferenceOptions

        func validate() throws {
            if remove && (key == nil || !values.isEmpty) { throw ValidationError("--remove takes a key and no value") }
            if type != nil && values.isEmpty { throw ValidationError("--type needs a value to read") }
            if type == .json || type == .number || type == .bool, values.count > 1 {
                throw ValidationError("--type \(type!.rawValue) reads one value, not \(values.count)")
            }
        }

        func run() throws {
            let readOnly = key == nil || (values.isEmpty && !remove)
            let store = try storeOptions.open(readOnly ? .readOnly : .readWrite)
            let target = try references.item(note, in: store, scope: .any, kind: .note, json: json, prompt: "prop> ")
            guard let key else { return try list(store.properties(of: target.id)) }
            if remove {
                if try !store.removeProperty(target.id, key) {
                    throw InputError.data("'\(target.label)' has no property '\(key)'")
                }
                return
            }
            let current = try store.properties(of: target.id).first { $0.key == Property.normalized(key) }
            if values.isEmpty {
                guard let current else {
                    throw InputError.data("'\(target.label)' has no property '\(key)'")
                }
                if json { return try JSONOutput.print(PropertyValueJSON(current.value)) }
                return print(PropertyText.text(current.value))
            }
            try store.setProperty(target.id, key, to: try value(given: current?.value))
        }

        private func list(_ properties: [NoteProperty]) throws {
            if json { return try JSONOutput.print(PropertyJSON.list(properties)) }
            for property in properties {
                print("\(property.key): \(PropertyText.text(property.value))")
            }
        }

        /// The value the arguments give: by --type, else as the key's current value reads
        /// them, else text (a list for several).
        private func value(given current: PropertyValue?) throws -> PropertyValue {
            let chosen: ValueType
            if let type {
                chosen = type
            } else if values.count > 1 {
                chosen = .list
            } else {
                switch current {
                case .integer?, .number?: chosen = Double(values[0]) == nil ? .text : .number
                case .bool?: chosen = ["true", "false"].contains(values[0]) ? .bool : .text
                case .list?: chosen = .list
                default: chosen = .text
                }
            }
            switch chosen {
            case .text: return .string(values[0])
            case .list: return .list(values.map(PropertyValue.string))
            case .number:
                if let integer = Int64(values[0]) { return .integer(integer) }
                guard let number = Double(values[0]), number.isFinite else {
                    throw InputError.data("'\(values[0])' is not a number")
                }
                return .number(number)
            case .bool:
                guard let flag = ["true": true, "false": false][values[0]] else {
                    throw InputError.data("'\(values[0])' is not true or false")
                }
                return .bool(flag)
            case .json:
                guard let value = PropertyValue(json: values[0]) else {
                    throw InputError.data(
                        "'\(values[0])' is not JSON "
                            + "(at most \(PropertyValue.maximumBytes) bytes, \(PropertyValue.maximumDepth) levels deep)"
                    )
                }
                return value
            }
        }
    }
}
