import ArgumentParser
import Catalogue

/// The counts of the catalogue's kinds kept in banks, each set by its own
/// flag (`--{field} N`, `StripKind.bank`): flags ArgumentParser cannot
/// declare, since the catalogue lists them. Every argument `serve` does not
/// declare comes here; one that is no such flag is refused as
/// ArgumentParser refuses it, with the closest option suggested.
extension Serve {
    /// The counts of the kinds kept in banks, from their flags, else their defaults.
    func bankCounts() throws -> [Parameter.Strip: Int] {
        do {
            let catalogue = Catalogue()
            return catalogue.defaultBankCounts.merging(try catalogue.bankCounts(kindCounts)) { $1 }
        } catch {
            guard let flag = error.unknown, let closest = Self.closestOption(to: flag) else {
                throw ValidationError(error.reason)
            }
            throw ValidationError("\(error.reason). Did you mean '\(closest)'?")
        }
    }

    /// The option of `serve` (its help's, and the kinds' flags) closest to
    /// `flag`, if one is within 3 edits: as ArgumentParser suggests.
    static func closestOption(to flag: String) -> String? {
        let help = helpMessage(columns: 10_000)
        let words = help.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "-") })
        let options = Set(words.filter { $0.hasPrefix("--") && $0.count > 2 }.map(String.init))
        let distances = options.map { (option: $0, distance: editDistance($0, flag)) }.filter { $0.distance < 4 }
        return distances.min { ($0.distance, $0.option) < ($1.distance, $1.option) }?.option
    }

    /// Levenshtein distance, by characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let (a, b) = (Array(a), Array(b))
        var row = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let kept = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = kept
            }
        }
        return row[b.count]
    }
}
