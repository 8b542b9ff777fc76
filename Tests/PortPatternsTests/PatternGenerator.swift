import SystemSupport

/// Random patterns and port-like names from a seed, for the differential
/// test: mostly well-formed patterns built from the grammar (so that many
/// compile and match), and some token soup (so that refusals are tried as
/// well). Small alphabets, so that names often match.
struct PatternGenerator {
    private var random: SplitMix

    init(seed: UInt64) { random = SplitMix(seed: seed) }

    private mutating func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
    private mutating func pick(_ choices: [String]) -> String { choices[below(choices.count)] }

    /// A pattern: a grammatical one three times in four, else token soup.
    mutating func pattern() -> String {
        below(4) == 0 ? soup() : alternatives(depth: 0)
    }

    /// A name of 0 to 12 bytes from the letters the patterns use, with an
    /// occasional non-ASCII character.
    mutating func name() -> String {
        let letters = ["a", "b", "x", ":", "_", "1", "9", "-", ".", "(", "]", "{", "\\", "é", " ", "A"]
        return (0..<below(13)).map { _ in pick(letters) }.joined()
    }

    private mutating func alternatives(depth: Int) -> String {
        (0..<(below(5) == 0 ? 2 + below(2) : 1)).map { _ in branch(depth: depth) }.joined(separator: "|")
    }

    private mutating func branch(depth: Int) -> String {
        (0..<below(4)).map { _ in expression(depth: depth) }.joined()
    }

    private mutating func expression(depth: Int) -> String {
        let atom: String
        switch below(12) {
        case 0: atom = "^"
        case 1: atom = "$"
        case 2: atom = "."
        case 3, 4: atom = bracket()
        case 5 where depth < 3: atom = "(" + alternatives(depth: depth + 1) + ")"
        case 6: atom = pick(["\\.", "\\(", "\\)", "\\{", "\\[", "\\\\", "\\|", "\\*", "}", "]", "é"])
        default: atom = pick(["a", "b", "x", ":", "_", "1", "-"])
        }
        if atom == "^" || atom == "$" { return atom }
        switch below(9) {
        case 0: return atom + "*"
        case 1: return atom + "+"
        case 2: return atom + "?"
        case 3: return atom + pick(["{0}", "{1}", "{2}", "{0,1}", "{1,3}", "{2,}", "{,2}", "{0,0}", "{,}"])
        case 4 where below(3) == 0: return atom + pick(["*?", "+*", "{1}{2}", "??"])
        default: return atom
        }
    }

    private mutating func bracket() -> String {
        let items = ["a", "b", "x", "a-c", "0-9", "[:alpha:]", "[:digit:]", "[:punct:]", "[:space:]",
                     "[:upper:]", "_", ":", "-", "]", "^", "[", "\\", ".", "!--"]
        var text = "[" + (below(3) == 0 ? "^" : "")
        if below(6) == 0 { text += "]" }
        if below(6) == 0 { text += "-" }
        text += (0..<(1 + below(3))).map { _ in pick(items) }.joined()
        if below(6) == 0 { text += "-" }
        return text + "]"
    }

    /// Tokens in no particular order: unbalanced groups and brackets,
    /// repetitions with nothing to repeat, odd intervals and escapes.
    private mutating func soup() -> String {
        let tokens = ["a", "b", ":", "(", ")", "[", "]", "{", "}", "|", "*", "+", "?", "^", "$", ".", "\\",
                      "{1}", "{2,1}", "{1,", "{x}", "[:alpha:]", "[:nope:]", "[a-", "z-a", "\\1", "\\w", "\\n",
                      "\\<", "[.a.]", "[=a=]", "-", "é", "[é]", "{300}", "()", "(|)"]
        return (0..<(1 + below(7))).map { _ in pick(tokens) }.joined()
    }
}
