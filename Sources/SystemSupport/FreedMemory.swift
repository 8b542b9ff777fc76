/// glibc keeps memory a program freed for its next allocations, so a
/// process that once built something large stays that large. `giveBack()`
/// returns what is free to the system (`malloc_trim(3)`): after a rig
/// changed size, the kernel and namespace it replaced.
public enum FreedMemory {
    public static func giveBack() { _ = mallocTrim(0) }
}

/// glibc's `malloc_trim`, which Swift's Glibc module does not export.
@_silgen_name("malloc_trim")
private func mallocTrim(_ pad: Int) -> Int32
