/// The attribute names of the OSCQuery proposal, as they appear as JSON keys
/// and as URL queries (`/path?VALUE`).
enum OSCQueryAttribute: String, CaseIterable, Sendable {
    // Required ("core") attributes.
    case fullPath = "FULL_PATH"
    case contents = "CONTENTS"
    case type = "TYPE"
    case hostInfo = "HOST_INFO"
    // Optional attributes this server serves.
    case access = "ACCESS"
    case value = "VALUE"
    case range = "RANGE"
    case description = "DESCRIPTION"
    case unit = "UNIT"
    case clipMode = "CLIPMODE"
    case overloads = "OVERLOADS"
    // Optional attributes of the proposal this server does not serve.
    case tags = "TAGS"
    case extendedType = "EXTENDED_TYPE"
    case critical = "CRITICAL"
    case html = "HTML"

    /// Whether this server answers a query for the attribute.
    var isServed: Bool {
        switch self {
        case .tags, .extendedType, .critical, .html: false
        default: true
        }
    }

    /// The `EXTENSIONS` object of `HOST_INFO`: every optional attribute and
    /// bi-directional feature of the proposal, and whether this server has it
    /// (`PATH_ADDED` and `PATH_REMOVED`: `OSCQueryServer.replaceModel(with:)`).
    static let extensions: [(String, Bool)] = [
        ("ACCESS", true),
        ("VALUE", true),
        ("RANGE", true),
        ("DESCRIPTION", true),
        ("UNIT", true),
        ("CLIPMODE", true),
        ("TYPE", true),
        ("TAGS", false),
        ("EXTENDED_TYPE", false),
        ("CRITICAL", false),
        ("OVERLOADS", true),
        ("HTML", false),
        ("LISTEN", true),
        ("PATH_CHANGED", false),
        ("PATH_RENAMED", false),
        ("PATH_ADDED", true),
        ("PATH_REMOVED", true),
    ]
}
