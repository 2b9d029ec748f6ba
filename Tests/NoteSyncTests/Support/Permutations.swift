/// All orders of a few elements.
enum Permutations {
    static func of<T>(_ items: [T]) -> [[T]] {
        guard items.count > 1 else { return [items] }
        var result: [[T]] = []
        for (index, item) in items.enumerated() {
            var rest = items
            rest.remove(at: index)
            for tail in of(rest) { result.append([item] + tail) }
        }
        return result
    }
}
