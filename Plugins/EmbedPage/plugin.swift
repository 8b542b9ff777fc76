import Foundation
import PackagePlugin

/// Embeds the files under a target's `page/` directory into the target at
/// build time (`EmbedFiles`), so the binary alone serves the control page:
/// no files beside it, nothing from the network.
@main
struct EmbedPage: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let page = target.directoryURL.appending(path: "page")
        let files = (FileManager.default.enumerator(at: page, includingPropertiesForKeys: [.isRegularFileKey])?
            .compactMap { $0 as? URL } ?? [])
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .sorted { $0.path < $1.path }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedPage.swift")
        return [.buildCommand(displayName: "Embedding the control page (\(files.count) files)",
                              executable: try context.tool(named: "EmbedFiles").url,
                              arguments: [page.path, output.path] + files.map(\.path),
                              inputFiles: files, outputFiles: [output])]
    }
}
