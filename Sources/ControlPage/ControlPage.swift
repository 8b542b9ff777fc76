/// The control page a browser gets from `crosspoint serve`: plain HTML, CSS
/// and JavaScript modules under `page/`, embedded in the binary at build
/// time (the EmbedPage plugin), so a stage machine with no uplink serves it
/// alone. The page is a client session like any tablet: it talks to the rig
/// over the OSCQuery WebSocket of the port it came from (docs/page.md).
public enum ControlPage {
    /// The page's files by their path under `page/` (`index.html`, `app.js`,
    /// `elements/xp-fader.js`), with their content types.
    public static let files: [String: (contentType: String, text: String)] = embedded.reduce(into: [:]) { files, entry in
        files[entry.key] = (contentType(of: entry.key), entry.value)
    }

    /// The content type of a file by its extension.
    static func contentType(of path: String) -> String {
        switch path.split(separator: ".").last {
        case "html": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "json": "application/json"
        case "svg": "image/svg+xml"
        case "txt": "text/plain; charset=utf-8"
        default: "application/octet-stream"
        }
    }
}
