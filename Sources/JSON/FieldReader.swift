
/// Reads typed fields out of a `JSONValue`, turning every mismatch into a
/// `FileError` that names the file and the field's path.
///
/// A field's path is only built when there is an error to report: a 64x64
/// preset reads 12,288 crosspoint fields, and making each path a string
/// cost more than parsing the whole file.
package struct FieldReader {
    package let file: String
    /// Where a lenient reading notes what it skipped; nil: strict, the
    /// first bad field is the error.
    package let skipped: SkippedFields?

    package init(file: String, skipping skipped: SkippedFields? = nil) {
        self.file = file
        self.skipped = skipped
    }

    /// What `read` reads; in a lenient reading, a field it cannot read is
    /// noted and skipped (nil), in a strict one its error is thrown.
    @discardableResult
    package func field<T>(_ read: () throws(FileError) -> T) throws(FileError) -> T? {
        do {
            return try read()
        } catch {
            guard let skipped else { throw error }
            skipped.note(error)
            return nil
        }
    }

    /// Parses a file's bytes and reads them with `body`; a document that is
    /// not JSON is a `FileError` naming the file (see `JSONDocument.read`).
    package static func read<D: Collection<UInt8>, R>(_ data: D, file: String,
                                                      _ body: (JSONValue) throws(FileError) -> R) throws(FileError) -> R {
        try JSONDocument.read(data, failure: { FileError(file: file, "not valid JSON (\($0))") }, body)
    }

    package func error(_ field: String, _ problem: String) -> FileError {
        FileError(file: file, field: field, problem)
    }

    /// `allowed`: the field names an object may have (a few, so a list).
    package func object(_ value: JSONValue, at field: @autoclosure () -> String, allowed: [StaticString]) throws(FileError) -> JSONObject {
        try object(value, at: field(), allowed: allowed.map { "\($0)" }, unknown: { $0.firstKey(notIn: allowed) })
    }

    /// The same for names known at run time (the catalogue's).
    package func object(_ value: JSONValue, at field: @autoclosure () -> String, allowed: [String]) throws(FileError) -> JSONObject {
        try object(value, at: field(), allowed: allowed, unknown: { $0.firstKey(notIn: allowed) })
    }

    private func object(_ value: JSONValue, at field: @autoclosure () -> String, allowed: [String],
                        unknown: (JSONObject) -> String?) throws(FileError) -> JSONObject {
        guard let fields = value.object else {
            let field = field()
            throw error(field.isEmpty ? "document" : field, "expected an object, got \(value.kind)")
        }
        if let unknown = unknown(fields) {
            let field = field()
            let at = field.isEmpty ? unknown : "\(field).\(unknown)"
            let problem = error(at, "unknown field (expected one of: \(allowed.map { "\($0)" }.sorted().joined(separator: ", ")))")
            // Leniently, the fields it knows are read and the others skipped.
            guard let skipped else { throw problem }
            skipped.note(problem)
        }
        return fields
    }

    /// The same check as `object`, in one pass that also hands `body` each
    /// field, by its place in `allowed`, in document order (so a field given
    /// twice ends with its last value). For the 4,096 objects of a 64x64
    /// preset's crosspoint list, where looking each field up again cost
    /// more than parsing it.
    package func fields(_ value: JSONValue, at field: @autoclosure () -> String, allowed: [StaticString],
                _ body: (_ position: Int, _ value: JSONValue) -> Void) throws(FileError) {
        guard let fields = value.object else {
            _ = try object(value, at: field(), allowed: allowed) // throws the error
            return
        }
        var known = true
        fields.forEachField { key, value in
            guard let position = allowed.firstIndex(where: { fields.document.string(at: key, is: $0) }) else {
                known = false
                return
            }
            body(position, value)
        }
        if !known { _ = try object(value, at: field(), allowed: allowed) } // throws the error
    }

    package func array(_ value: JSONValue, at field: @autoclosure () -> String, maxCount: Int) throws(FileError) -> JSONArray {
        guard let items = value.array else { throw error(field(), "expected an array, got \(value.kind)") }
        guard items.count <= maxCount else {
            throw error(field(), "\(items.count) entries, more than the \(maxCount) the channel counts allow")
        }
        return items
    }

    package func string(_ value: JSONValue, at field: @autoclosure () -> String, maxLength: Int) throws(FileError) -> String {
        guard let text = value.string else { throw error(field(), "expected a string, got \(value.kind)") }
        guard text.count <= maxLength, text.utf8.count <= 4 * maxLength else {
            throw error(field(), "longer than \(maxLength) characters")
        }
        return text
    }

    package func bool(_ value: JSONValue, at field: @autoclosure () -> String) throws(FileError) -> Bool {
        guard let flag = value.bool else { throw error(field(), "expected true or false, got \(value.kind)") }
        return flag
    }

    package func number(_ value: JSONValue, at field: @autoclosure () -> String, in range: ClosedRange<Double>) throws(FileError) -> Double {
        guard let number = value.number, number.isFinite else {
            throw error(field(), "expected a number from \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound)), got \(value.kind)")
        }
        guard range.contains(number) else {
            throw error(field(), "\(Self.format(number)) is out of range \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound))")
        }
        return number
    }

    package func integer(_ value: JSONValue, at field: @autoclosure () -> String, in range: ClosedRange<Int>) throws(FileError) -> Int {
        guard let number = value.number, number.isFinite, number == number.rounded() else {
            throw error(field(), "expected a whole number from \(range.lowerBound) to \(range.upperBound), got \(value.kind)")
        }
        guard number >= Double(range.lowerBound) && number <= Double(range.upperBound) else {
            throw error(field(), "\(Self.format(number)) is out of range \(range.lowerBound) to \(range.upperBound)")
        }
        return Int(number)
    }

    static func format(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}
