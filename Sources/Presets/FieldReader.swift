/// Reads typed fields out of a `JSONValue`, turning every mismatch into a
/// `PresetError` that names the file and the field's path.
struct FieldReader {
    let file: String

    func error(_ field: String, _ problem: String) -> PresetError {
        PresetError(file: file, field: field, problem)
    }

    func object(_ value: JSONValue, at field: String, allowed: Set<String>) throws(PresetError) -> [String: JSONValue] {
        guard case .object(let fields) = value else {
            throw error(field.isEmpty ? "document" : field, "expected an object, got \(value.kind)")
        }
        if let unknown = fields.keys.sorted().first(where: { !allowed.contains($0) }) {
            let at = field.isEmpty ? unknown : "\(field).\(unknown)"
            throw error(at, "unknown field (expected one of: \(allowed.sorted().joined(separator: ", ")))")
        }
        return fields
    }

    func array(_ value: JSONValue, at field: String, maxCount: Int) throws(PresetError) -> [JSONValue] {
        guard case .array(let items) = value else { throw error(field, "expected an array, got \(value.kind)") }
        guard items.count <= maxCount else {
            throw error(field, "\(items.count) entries, more than the \(maxCount) the channel counts allow")
        }
        return items
    }

    func string(_ value: JSONValue, at field: String, maxLength: Int) throws(PresetError) -> String {
        guard case .string(let text) = value else { throw error(field, "expected a string, got \(value.kind)") }
        guard text.count <= maxLength, text.utf8.count <= 4 * maxLength else {
            throw error(field, "longer than \(maxLength) characters")
        }
        return text
    }

    func bool(_ value: JSONValue, at field: String) throws(PresetError) -> Bool {
        guard case .bool(let flag) = value else { throw error(field, "expected true or false, got \(value.kind)") }
        return flag
    }

    func number(_ value: JSONValue, at field: String, in range: ClosedRange<Double>) throws(PresetError) -> Double {
        guard case .number(let number) = value, number.isFinite else {
            throw error(field, "expected a number from \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound)), got \(value.kind)")
        }
        guard range.contains(number) else {
            throw error(field, "\(Self.format(number)) is out of range \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound))")
        }
        return number
    }

    func integer(_ value: JSONValue, at field: String, in range: ClosedRange<Int>) throws(PresetError) -> Int {
        guard case .number(let number) = value, number.isFinite, number == number.rounded() else {
            throw error(field, "expected a whole number from \(range.lowerBound) to \(range.upperBound), got \(value.kind)")
        }
        guard number >= Double(range.lowerBound) && number <= Double(range.upperBound) else {
            throw error(field, "\(Self.format(number)) is out of range \(range.lowerBound) to \(range.upperBound)")
        }
        return Int(number)
    }

    static func format(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}
