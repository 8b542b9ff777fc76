@testable import PortPatterns
import Testing

/// What patterns mean and which are refused, case by case; the
/// differential test covers the same ground at random.
@Suite struct SyntaxTests {
    /// Whether `text` matches each of `names`.
    static func answers(_ text: String, _ names: [String]) throws -> [Bool] {
        let pattern = try PortPattern(text)
        return names.map(pattern.matches)
    }

    @Test func anchors() throws {
        let names = ["system:capture_1", "system:capture_12", "xsystem:capture_1", "system:capture_", "system:capture_1a"]
        #expect(try Self.answers("^system:capture_[0-9]+$", names) == [true, true, false, false, false])
        #expect(try Self.answers("capture_[0-9]", names) == [true, true, true, false, true])
        #expect(try Self.answers("^(a|b)$", ["a", "b", "ab", ""]) == [true, true, false, false])
        #expect(try Self.answers("^a|^b", ["ax", "bx", "xa"]) == [true, true, false])
        #expect(try Self.answers("a$|^b", ["xa", "bx", "ax", "xb"]) == [true, true, false, false])
        #expect(try Self.answers("^$", ["", "a"]) == [true, false])
        #expect(try Self.answers("$^", ["", "a"]) == [true, false])
        #expect(try Self.answers("x*^b", ["b", "xb", "ba"]) == [true, false, true])
        #expect(try Self.answers("(^|:)out", ["out_1", "a:out_1", "about"]) == [true, true, false])
        #expect(try Self.answers("a^b", ["ab", "a^b"]) == [false, false])
        #expect(try Self.answers("a($|b)", ["a", "ab", "ac"]) == [true, true, false])
    }

    @Test func brackets() throws {
        #expect(try Self.answers("[]a]", ["]", "a", "b"]) == [true, true, false])
        #expect(try Self.answers("[^]a]", ["]", "a", "b", "é"]) == [false, false, true, true])
        #expect(try Self.answers("^[a-]$", ["a", "-", "b"]) == [true, true, false])
        #expect(try Self.answers("^[-a]$", ["a", "-", "b"]) == [true, true, false])
        #expect(try Self.answers("^[!--]$", ["!", ",", "-", "."]) == [true, true, true, false])
        #expect(try Self.answers("^[[:digit:][:upper:]_]+$", ["A_1", "a_1", "_"]) == [true, false, true])
        #expect(try Self.answers("[[:space:]]", ["a b", "a\tb", "ab"]) == [true, true, false])
        #expect(try Self.answers("[[:punct:]]", [":", "a", "~"]) == [true, false, true])
        #expect(try Self.answers("^[\\]$", ["\\", "]"]) == [true, false])
        #expect(try Self.answers("[[]", ["[", "a"]) == [true, false])
    }

    /// The bytes of UTF-8, case-sensitive: `.` is one byte, so "é" is two.
    @Test func bytesOfUTF8() throws {
        #expect(try Self.answers("^.$", ["é", "e"]) == [false, true])
        #expect(try Self.answers("^..$", ["é", "e"]) == [true, false])
        #expect(try Self.answers("^VLC média:out_1$", ["VLC média:out_1", "VLC media:out_1"]) == [true, false])
        #expect(try Self.answers("Out", ["out", "Out"]) == [false, true])
    }

    /// Matching stops at a NUL, where `regexec`'s C string ends; a newline
    /// is an ordinary character (no `REG_NEWLINE`), as POSIX has it.
    @Test func nulEndsAndNewlineIsOrdinary() throws {
        #expect(try Self.answers("b", ["a\u{0}b"]) == [false])
        #expect(try Self.answers("a.^b", ["a\nb"]) == [false])
        #expect(try Self.answers("a.b", ["a\nb"]) == [true])
    }

    @Test func repetitions() throws {
        #expect(try Self.answers("^a{2}$", ["a", "aa", "aaa"]) == [false, true, false])
        #expect(try Self.answers("^a{2,}$", ["a", "aa", "aaa"]) == [false, true, true])
        #expect(try Self.answers("^a{1,2}$", ["", "a", "aa", "aaa"]) == [false, true, true, false])
        #expect(try Self.answers("^a{,2}$", ["", "a", "aa", "aaa"]) == [true, true, true, false])
        #expect(try Self.answers("^(ab)+$", ["ab", "abab", "aba"]) == [true, true, false])
        #expect(try Self.answers("^x(a|)y$", ["xy", "xay"]) == [true, true])
        #expect(try Self.answers("^a{0}b$", ["b", "ab"]) == [true, false])
        #expect(try Self.answers("^\\.\\*\\($", [".*(", "a*("]) == [true, false])
    }

    @Test(arguments: [
        ("a\\1", "back-references are not supported (\\1)"),
        ("\\w", "\\w is not supported (a GNU extension; write a bracket expression or an anchor)"),
        ("\\<a", "\\< is not supported (a GNU extension; write a bracket expression or an anchor)"),
        ("\\d", "\\d is not supported (a backslash before a letter or digit)"),
        ("[é]", "non-ASCII characters in a bracket expression are not supported (write them outside, e.g. (é|è))"),
        ("[[.a.]]", "[.….] in a bracket expression is not supported (collating elements and equivalence classes)"),
        ("(a", "not a regular expression: unmatched ("),
        ("a)", "not a regular expression: unmatched ) (write \\) for the character)"),
        ("[a", "not a regular expression: unmatched ["),
        ("a{1", "not a regular expression: unmatched {"),
        ("a{x}", "not a regular expression: invalid repetition count"),
        ("a{3,2}", "not a regular expression: repetition count 3 above 2"),
        ("a{256}", "pattern too complex: repetition count 256 over 255"),
        ("*a", "not a regular expression: nothing to repeat before *"),
        ("a|+b", "not a regular expression: nothing to repeat before +"),
        ("^*", "not a regular expression: nothing to repeat before *"),
        ("a\\", "not a regular expression: trailing backslash"),
        ("[z-a]", "not a regular expression: invalid range z-a"),
        ("[a-z-9]", "not a regular expression: invalid range in a bracket expression (a - not first or last)"),
        ("[[:word:]]", "not a regular expression: unknown character class [:word:]"),
        ("a\tb", "pattern with a control character"),
        (String(repeating: "a", count: 257), "pattern longer than 256 bytes (257)"),
        ("(a|b)*a(a|b){10}", "pattern too complex: more than 1024 DFA states"),
    ])
    func refusals(text: String, reason: String) {
        #expect(PortPattern.problem(text) == reason)
    }

    @Test func theInterface() throws {
        #expect(PortPattern.longest == 256)
        #expect(PortPattern.problem("") == nil)
        #expect(PortPattern.problem("^system:") == nil)
        #expect(try PortPattern("^a|b").text == "^a|b")
        #expect(try PortPattern(String(repeating: "a", count: 256)).matches(String(repeating: "a", count: 256)))
        // "" is no patch to the rig, but as a pattern it matches everything, as regcomp's does.
        #expect(try PortPattern("").matches("anything"))
    }
}
