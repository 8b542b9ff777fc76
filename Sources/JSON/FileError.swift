
/// Why a preset or state file could not be read or written: names the file
/// and, where there is one, the field.
public struct FileError: Error, Equatable, CustomStringConvertible {
    public let file: String
    /// A path into the document, like `sources[3].pan`; empty for the whole file.
    public let field: String
    public let problem: String

    public init(file: String, field: String = "", _ problem: String) {
        self.file = file
        self.field = field
        self.problem = problem
    }

    public var description: String {
        field.isEmpty ? "\(file): \(problem)" : "\(file): \(field): \(problem)"
    }
}
