import JSON

/// Preset names: 1-64 characters, letters, digits, `-`, `_`, `.` and spaces,
/// not starting with a dot. A name is also the file name (`NAME.json`), so
/// nothing else may reach the file system: no `/`, no `..`, no NUL.
public enum PresetName {
    public static func check(_ name: String) throws(FileError) {
        guard (1...64).contains(name.count) else {
            throw FileError(file: name, "a preset name has 1 to 64 characters")
        }
        guard !name.hasPrefix(".") else {
            throw FileError(file: name, "a preset name may not start with a dot")
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
}
