import Foundation

extension Item {
    /// The name as the store keeps it: surrounding white space removed.
    public static func normalizedName(_ name: String) -> String {
        // Most names have nothing to trim: say so without Foundation, which bridges the text.
        if let first = name.unicodeScalars.first, let last = name.unicodeScalars.last,
            first.value > 0x20, first.value < 0x7F, last.value > 0x20, last.value < 0x7F
        {
            return name
        }
        return name.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Checks the rules on single properties: name and body.
    ///
    /// Rules that involve other items (the parent, cycles) are checked by the context on save,
    /// inside the transaction, where the other items are known.
    func propertyFailures() -> [ValidationFailure] {
        Self.propertyFailures(name: name, body: body, id: id)
    }

    /// The rules on single properties for a name (as normalized) and a body, before there is
    /// an item: what an import checks so that one bad file never fails a whole save.
    public static func propertyFailures(name: String, body: String?, id: UUID = UUID()) -> [ValidationFailure] {
        var failures: [ValidationFailure] = []
        func fail(_ rule: ValidationFailure.Rule, _ message: String) {
            failures.append(ValidationFailure(item: name, id: id, rule: rule, message: message))
        }
        // Printable ASCII has no line break, control or formatting character, and one
        // character per byte: most names, checked without walking their characters.
        let printableASCII = name.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
        if name.isEmpty {
            fail(.nameEmpty, "the name is empty")
        } else if (printableASCII ? name.utf8.count : name.count) > Item.maximumNameLength {
            fail(.nameTooLong, "the name has \(name.count) characters, more than \(Item.maximumNameLength)")
        }
        if !printableASCII {
            if name.contains(where: \.isNewline) {
                fail(.nameHasLineBreak, "the name contains a line break")
            } else if let control = ControlCharacters.first(in: name) {
                fail(.nameHasControlCharacter, "the name contains \(ControlCharacters.describe(control))")
            }
        }
        if let body, body.utf8.count > Item.maximumBodyBytes {
            fail(
                .bodyTooLarge,
                "the body has \(body.utf8.count) bytes, more than the limit of 10 MB (\(Item.maximumBodyBytes) bytes)")
        }
        return failures
    }

    /// A label for messages: the name (shortened), or the id's first characters.
    public var label: String {
        if name.isEmpty { return id.storeString.prefix(8).description }
        return name.count > 60 ? String(name.prefix(57)) + "..." : name
    }
}
