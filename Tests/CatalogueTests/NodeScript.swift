import ControlPage
import Foundation
import Testing

/// Runs one of the page's modules under Node, for the tests that hold the
/// page's maths to the rig's (`PageLawTests`, `PageEQCurveTests`): the
/// module as the binary serves it, written where Node finds it, and a
/// script that imports it from `{module}`; what the script prints.
enum NodeScript {
    static func run(page file: String, _ script: (_ module: String, _ directory: URL) throws -> String) throws -> Data {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("xp-node-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = try #require(ControlPage.files[file]?.text, "the page has no \(file)")
        let module = directory.appendingPathComponent(file.replacingOccurrences(of: ".js", with: ".mjs"))
        try text.write(to: module, atomically: true, encoding: .utf8)
        let node = Process()
        node.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        node.arguments = ["node", "--input-type=module", "-e", try script(module.path, directory)]
        let output = Pipe()
        node.standardOutput = output
        try node.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        node.waitUntilExit()
        try #require(node.terminationStatus == 0, "node failed (is nodejs installed? scripts/setup installs it)")
        return data
    }
}
