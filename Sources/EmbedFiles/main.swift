// Writes a Swift file holding text files as string literals, for the
// EmbedPage build plugin: `EmbedFiles ROOT OUTPUT FILE…`, each FILE under
// ROOT, named in the result by its path relative to ROOT.
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: EmbedFiles ROOT OUTPUT FILE…\n".utf8))
    exit(2)
}
let root = URL(fileURLWithPath: arguments[1]).standardizedFileURL.path + "/"
var swift = "// Generated at build time by EmbedFiles from Sources/ControlPage/page: do not edit.\n\n"
swift += "extension ControlPage {\n    static let embedded: [String: String] = [\n"
for path in arguments.dropFirst(3) {
    let file = URL(fileURLWithPath: path).standardizedFileURL.path
    guard file.hasPrefix(root), let data = FileManager.default.contents(atPath: file),
          let text = String(data: data, encoding: .utf8) else {
        FileHandle.standardError.write(Data("EmbedFiles: \(path): not a UTF-8 text file under \(root)\n".utf8))
        exit(1)
    }
    // A raw string needs more #s than any run of them after a quote (its
    // end) or a backslash (an escape) in the text.
    var hashes = "#"
    while text.contains("\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
    let name = String(file.dropFirst(root.count))
    swift += "        \(String(reflecting: name)): \(hashes)\"\"\"\n\(text)\n\"\"\"\(hashes),\n"
}
swift += "    ]\n}\n"
do {
    try swift.write(toFile: arguments[2], atomically: true, encoding: .utf8)
} catch {
    FileHandle.standardError.write(Data("EmbedFiles: cannot write \(arguments[2]): \(error)\n".utf8))
    exit(1)
}
