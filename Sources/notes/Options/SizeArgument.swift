import ArgumentParser

/// Sizes given on the command line: bytes, or a number with `K`, `M`, `G` or `T` (powers of
/// 1,024, with or without a trailing `B` or `iB`): `500M`, `1G`, `1.5GiB`.
enum SizeArgument {
    static func bytes(_ text: String) throws -> Int64 {
        var number = Substring(text.trimmingCharacters(in: .whitespaces).uppercased())
        if number.hasSuffix("IB") {
            number = number.dropLast(2)
        } else if number.hasSuffix("B") {
            number = number.dropLast()
        }
        var shift = 0
        if let unit = number.last, let power = ["K": 10, "M": 20, "G": 30, "T": 40][unit] {
            shift = power
            number = number.dropLast()
        }
        guard let value = Double(number), value.isFinite, value > 0, value * Double(Int64(1) << shift) < 9e18 else {
            throw ValidationError(
                "'\(text)' is not a size: give bytes, or a number with K, M, G or T (such as 500M or 2G)")
        }
        return Int64(value * Double(Int64(1) << shift))
    }
}
