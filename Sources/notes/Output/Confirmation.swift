import Foundation
import NoteTerminal

/// A yes-or-no question asked on the terminal.
enum Confirmation {
    /// Asks `question` on standard error and reads the answer: true for `y` or `yes`.
    static func ask(_ question: String) -> Bool {
        FileHandle.standardError.write(Data("\(TerminalText.escaped(question, keepingLayout: false)) [y/N] ".utf8))
        guard let answer = readLine() else { return false }
        return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
    }
}
