import JSON

/// Preset names: 1-64 characters, letters, digits, `-`, `_`, `.` and spaces,
/// not starting with a dot nor starting or ending with a space, and nothing
/// invisible (a zero-width joiner, a soft hyphen). A name is also the file
/// name (`NAME.json`), so nothing else may reach the file system: no `/`,
/// no `..`, no NUL. Names are kept in Unicode's composed form (NFC): "café"
/// typed as `e` and a combining accent is the same preset, in one file.
public enum PresetName {
    public static func check(_ name: String) throws(FileError) {
        guard (1...64).contains(name.count) else {
            throw FileError(file: name, "a preset name has 1 to 64 characters")
        }
        guard !name.hasPrefix(".") else {
            throw FileError(file: name, "a preset name may not start with a dot")
        }
        guard !name.hasPrefix(" "), !name.hasSuffix(" ") else {
            throw FileError(file: name, "a preset name may not start or end with a space")
        }
        guard !name.unicodeScalars.contains(where: \.properties.isDefaultIgnorableCodePoint) else {
            throw FileError(file: name, "a preset name may not hold invisible characters")
        }
        let allowed = name.allSatisfy { c in
            c.isLetter || ("0"..."9").contains(c) || c == "-" || c == "_" || c == "." || c == " "
        }
        guard allowed else {
            throw FileError(file: name, "a preset name may hold only letters, digits, '-', '_', '.' and spaces")
        }
    }

    public static func isValid(_ name: String) -> Bool {
        (try? check(name)) != nil
    }

    /// The name in Unicode's composed form (NFC), as its file is named.
    /// (Swift compares and hashes strings by canonical equivalence, so the
    /// two forms were one name to the rig but two files on the disk.)
    public static func normalized(_ name: String) -> String {
        String(decoding: name._nfcCodeUnits, as: UTF8.self)
    }
}
