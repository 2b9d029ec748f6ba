import Foundation

/// A deterministic random number generator (SplitMix64), so that every run writes the same
/// notes: figures from two runs then describe the same data.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Word-filled text: sentences and paragraphs of made-up words drawn with a Zipf-like
/// frequency (the n-th most common word about 1/n as often as the first), as words are in
/// prose, so that the full-text index has realistic posting lists.
struct TextGenerator {
    /// A word that no drawn text contains, placed on purpose in chosen notes so that a search
    /// for it has a known number of matches.
    static let markedWord = "quetzal"

    private static let syllables = [
        "ka", "lo", "mi", "ren", "tu", "sa", "ve", "no", "dar", "li", "pe", "mon", "ta", "ri",
        "ga", "sol", "be", "nu", "for", "el", "an", "is", "do", "mar", "ter", "vi", "cor", "pa",
        "len", "os", "ba", "ne", "ro", "ti", "gu", "hal", "den", "fi", "mo", "stra",
    ]

    var random: SeededGenerator
    private let vocabulary: [String]
    /// The running sum of the words' weights, for drawing by binary search.
    private let cumulativeWeights: [Double]

    init(seed: UInt64, vocabularySize: Int = 5000) {
        var random = SeededGenerator(seed: seed)
        var words: [String] = []
        var seen: Set<String> = [Self.markedWord]
        while words.count < vocabularySize {
            let length = Int.random(in: 1...4, using: &random)
            let word = (0..<length).map { _ in Self.syllables.randomElement(using: &random)! }.joined()
            if seen.insert(word).inserted { words.append(word) }
        }
        self.random = random
        // Short words are the common ones, as in real text.
        vocabulary = words.sorted { ($0.count, $0) < ($1.count, $1) }
        var total = 0.0
        cumulativeWeights = (1...vocabularySize).map { rank in
            total += 1 / Double(rank)
            return total
        }
    }

    /// One word, drawn by frequency.
    mutating func word() -> String {
        let target = Double.random(in: 0..<cumulativeWeights[cumulativeWeights.count - 1], using: &random)
        var low = 0
        var high = cumulativeWeights.count - 1
        while low < high {
            let middle = (low + high) / 2
            if cumulativeWeights[middle] <= target { low = middle + 1 } else { high = middle }
        }
        return vocabulary[low]
    }

    /// A title of a few capitalized words.
    mutating func title(words: ClosedRange<Int>) -> String {
        (0..<Int.random(in: words, using: &random)).map { _ in word().capitalizedFirst }.joined(separator: " ")
    }

    /// A body of sentences in paragraphs; with `marked`, ``markedWord`` is one of its words.
    mutating func body(words: ClosedRange<Int>, marked: Bool) -> String {
        let count = Int.random(in: words, using: &random)
        let markAt = marked ? Int.random(in: 0..<count, using: &random) : -1
        var text = ""
        text.reserveCapacity(count * 7)
        var sentenceLeft = 0
        var sentencesLeftInParagraph = Int.random(in: 3...5, using: &random)
        for index in 0..<count {
            var next = index == markAt ? Self.markedWord : word()
            if sentenceLeft == 0 {
                if index > 0 {
                    text += "."
                    sentencesLeftInParagraph -= 1
                    if sentencesLeftInParagraph == 0 {
                        text += "\n\n"
                        sentencesLeftInParagraph = Int.random(in: 3...5, using: &random)
                    } else {
                        text += " "
                    }
                }
                sentenceLeft = Int.random(in: 6...16, using: &random)
                next = next.capitalizedFirst
            } else {
                text += " "
            }
            text += next
            sentenceLeft -= 1
        }
        return text + "."
    }
}

extension String {
    /// The word with its first letter upper-cased (the words here are ASCII).
    fileprivate var capitalizedFirst: String {
        guard let first = first else { return self }
        return first.uppercased() + dropFirst()
    }
}
