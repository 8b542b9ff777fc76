import FoundationEssentials

/// What every file the rig reads starts with: its bytes, and its version.
extension FieldReader {
    /// The bytes of the file at `path`, or an error naming it.
    package static func contents(of path: String) throws(FileError) -> Data {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FileError(file: path, "cannot be read (missing, or not permitted)")
        }
        return data
    }

    /// Checks the document's `version` field against the one this build reads.
    package func checkVersion(_ fields: JSONObject, reads version: Int) throws(FileError) {
        guard let value = fields["version"] else { throw error("version", "missing; expected \(version)") }
        let found = try integer(value, at: "version", in: 0...Int(Int32.max))
        guard found == version else {
            throw error("version", "version \(found) is not readable by this build, which reads version \(version)")
        }
    }
}
