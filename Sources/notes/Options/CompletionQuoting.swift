import Foundation

/// The quoting between a shell's completion script and `notes`: the word being completed
/// arrives as it was typed (`Getting\ started/`, `'Getting started/`), and each candidate
/// goes back in the form the script hands on (argument-parser's scripts, read side by side
/// with the shells' manuals).
///
/// - bash: the script filters the candidates with `compgen -W`, which expands each word once
///   (quote removal among others) and compares it with the word without its quoting (see
///   ``bashScriptAddition``); bash then quotes what it inserts (`-o filenames`), and closes
///   an open quote. So each candidate goes back escaped once.
/// - zsh: `_describe` quotes what it inserts; a colon separates a description, so `:` and
///   `\` are escaped.
/// - fish: quotes what it inserts; fish 3 hands over words already unquoted, fish 4 as typed,
///   where a backslash also escapes `'` and `\` inside single quotes (fish-language(1),
///   "Quotes").
struct CompletionQuoting {
    enum Shell { case bash, zsh, fish, other }

    let shell: Shell
    /// The word as typed, without its quoting.
    let prefix: String

    init(typed: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        let version = environment["SAP_SHELL_VERSION"].flatMap { Int($0.prefix { $0.isNumber }) } ?? 0
        switch environment["SAP_SHELL"] {
        case "bash": shell = .bash
        case "zsh": shell = .zsh
        case "fish": shell = .fish
        default: shell = .other
        }
        let typedAsItIs = shell == .other || (shell == .fish && version < 4)
        prefix = typedAsItIs ? typed : Self.unquoted(typed, asFishReadsIt: shell == .fish)
    }

    /// The candidates that start with the word, in the form the shell's script takes.
    func candidates(_ values: [String]) -> [String] {
        values.filter { $0.hasPrefix(prefix) }.map(quoted)
    }

    func quoted(_ value: String) -> String {
        switch shell {
        case .bash: Self.escaped(value)
        case .zsh: value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ":", with: "\\:")
        case .fish, .other: value
        }
    }

    /// `value` with a backslash before each character that a shell would take as syntax.
    static func escaped(_ value: String) -> String {
        var result = ""
        for character in value {
            if character.isASCII && !(character.isLetter || character.isNumber || "/-_.+@%^".contains(character)) {
                result.append("\\")
            }
            result.append(character)
        }
        return result
    }

    /// A word as a POSIX shell reads it (or fish, with `asFishReadsIt`), with its quotes and
    /// backslashes removed; an unclosed quote runs to the end (the word is being typed).
    static func unquoted(_ typed: String, asFishReadsIt fish: Bool = false) -> String {
        // Inside each kind of quote, what a backslash escapes; before anything else it stays.
        let escapable: [Character: String] = ["\"": fish ? "\"\\$" : "\"\\$`", "'": fish ? "'\\" : ""]
        var result = ""
        var quote: Character?
        var escaping = false
        for character in typed {
            if escaping {
                if let quote, escapable[quote]?.contains(character) != true { result.append("\\") }
                result.append(character)
                escaping = false
            } else if character == "\\" && (quote != "'" || fish) {
                escaping = true
            } else if let open = quote, character == open {
                quote = nil
            } else if quote == nil && (character == "'" || character == "\"") {
                quote = character
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// What `notes` adds to argument-parser's bash script. Bash gives a completion function
    /// the word as typed when it escapes with backslashes (and dequoted when it opens with a
    /// quote); the script compares the candidates with that word. The addition hands the
    /// script the word without its backslashes, and is the function bash calls.
    ///
    /// Bash quotes what it inserts (`-o filenames`), but in a word without an opening quote it
    /// leaves `$` and a backquote bare when the name is no file in the working folder: it takes
    /// them for an expansion typed on purpose (`bash_quote_filename` in bash's `bashline.c`).
    /// A name with either is escaped by the addition instead, as `printf %q` does, and bash
    /// told to leave it as it is (`compopt -o noquote`).
    static let bashScriptAddition = #"""

        # Added by notes: the word being completed without its backslashes, as bash gives it
        # when it opens with a quote, so that `Getting\ started/<Tab>` completes; and names
        # with `$` or a backquote escaped here, since bash would leave those bare.
        _notes_unquoted() {
            local typed="${2}" plain="" i
            if [[ "${COMP_WORDS[COMP_CWORD]:0:1}" != [\'\"] ]]; then
                for ((i = 0; i < ${#typed}; i++)); do
                    [[ "${typed:i:1}" == \\ ]] && ((i++))
                    plain+="${typed:i:1}"
                done
                typed="${plain}"
                _notes "${1}" "${typed}" "${3}"
                if [[ "${COMPREPLY[*]}" == *[\$\`]* ]]; then
                    compopt -o noquote
                    for i in "${!COMPREPLY[@]}"; do
                        printf -v "COMPREPLY[${i}]" %q "${COMPREPLY[i]}"
                    done
                fi
            else
                _notes "${1}" "${typed}" "${3}"
            fi
        }

        complete -o filenames -F _notes_unquoted notes

        """#
}
