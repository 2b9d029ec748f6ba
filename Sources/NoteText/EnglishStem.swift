/// A light English stemmer for search: the stem of a word without its inflection (`synced`,
/// `syncing` and `syncs` give `sync`; `notes` gives `note`; `stories` gives `story`), which a
/// search then looks up as a prefix. It strips one plural, past or progressive ending, and
/// `-ly`, leaving at least three letters; words of other languages, and anything not made of
/// ASCII letters, are left as they are.
public enum EnglishStem {
    public static func stem(_ word: String) -> String {
        guard word.count > 3, word.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic }) else {
            return word
        }
        var stem = word.lowercased()
        func strip(_ suffix: String, keeping: Int = 3, then: String = "") -> Bool {
            guard stem.hasSuffix(suffix), stem.count - suffix.count >= keeping else { return false }
            let rest = String(stem.dropLast(suffix.count))
            // An ending after a consonant-only stem ("sing", "bed") is no ending.
            guard rest.contains(where: { "aeiouy".contains($0) }) else { return false }
            stem = rest + then
            return true
        }
        if strip("ies", then: "y") || strip("sses", then: "ss") { return stem }
        if ["xes", "ches", "shes", "zes"].contains(where: stem.hasSuffix), strip("es", keeping: 2) { return stem }
        if stem.hasSuffix("s"), !stem.hasSuffix("ss"), !stem.hasSuffix("us"), !stem.hasSuffix("is"), strip("s") {
            return stem
        }
        if strip("ingly") || strip("edly") || strip("ing") || strip("ed") {
            // A doubled last consonant goes with the ending: "stopped", "running".
            if let last = stem.last, stem.count > 3, stem.dropLast().last == last, !"lsz".contains(last),
                !"aeiou".contains(last)
            {
                stem.removeLast()
            }
            return stem
        }
        if strip("ly") { return stem }
        return stem
    }
}
