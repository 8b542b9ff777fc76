import Glibc

/// glibc's own `regcomp`/`regexec` (`REG_EXTENDED | REG_NOSUB`, the C
/// locale: nothing in the tests calls `setlocale`): the oracle the
/// product's engine is held to. Only for small patterns, since glibc's
/// cost is what the engine exists to avoid.
final class GlibcRegex {
    private var compiled = regex_t()

    /// Nil when glibc refuses the pattern.
    init?(_ pattern: String) {
        guard regcomp(&compiled, pattern, REG_EXTENDED | REG_NOSUB) == 0 else { return nil }
    }

    deinit { regfree(&compiled) }

    func matches(_ name: String) -> Bool {
        regexec(&compiled, name, 0, nil, 0) == 0
    }
}
