extension ByteSet {
    /// The POSIX character class `[:name:]` as the C locale defines it
    /// (ASCII only: the rig never calls `setlocale`, so glibc's `regcomp`
    /// used these same sets), or nil for a name POSIX does not define.
    static func named(_ name: String) -> ByteSet? {
        var set = ByteSet()
        switch name {
        case "alpha": set.insert(0x41, through: 0x5A); set.insert(0x61, through: 0x7A)
        case "digit": set.insert(0x30, through: 0x39)
        case "alnum": set.insert(0x30, through: 0x39); set.insert(0x41, through: 0x5A); set.insert(0x61, through: 0x7A)
        case "upper": set.insert(0x41, through: 0x5A)
        case "lower": set.insert(0x61, through: 0x7A)
        // Space, tab, newline, vertical tab, form feed, carriage return.
        case "space": set.insert(0x20); set.insert(0x09, through: 0x0D)
        case "blank": set.insert(0x20); set.insert(0x09)
        // Printable, neither a letter, a digit nor a space.
        case "punct":
            set.insert(0x21, through: 0x2F); set.insert(0x3A, through: 0x40)
            set.insert(0x5B, through: 0x60); set.insert(0x7B, through: 0x7E)
        case "xdigit": set.insert(0x30, through: 0x39); set.insert(0x41, through: 0x46); set.insert(0x61, through: 0x66)
        case "cntrl": set.insert(0x00, through: 0x1F); set.insert(0x7F)
        case "print": set.insert(0x20, through: 0x7E)
        case "graph": set.insert(0x21, through: 0x7E)
        default: return nil
        }
        return set
    }
}
