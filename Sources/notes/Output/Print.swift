import NoteTerminal

/// Prints as the standard library's `print` does, with the characters of ``TerminalText``
/// escaped (line feeds and tabs kept). Every line a command prints goes through here, so
/// that no text from a store or the cloud reaches the terminal raw.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    let text = items.map { String(describing: $0) }.joined(separator: separator)
    Swift.print(TerminalText.escaped(text, keepingLayout: true), terminator: terminator)
}
