import Foundation
import Testing

/// The loops built once per CPU level (MixPaths, StagePaths: one source
/// compiled for SSE2, AVX2 and AVX-512) must define no symbol with shared
/// linkage but their own. A generic specialization of the standard
/// library's, left out of line, is such a symbol: every module that needs
/// it emits a copy under one name, each built for that module's CPU, and
/// the linker keeps one. That is how the base path's EQ came to call the
/// AVX2 build's `SIMD8<Int32>.max()` (through `all`) and stopped with
/// SIGILL on a CPU without AVX (MixRows' `anyLane`, `everyLane`). So every
/// weak symbol in a per-CPU module's objects must be mangled under that
/// module's own name. Reads the release build that scripts/test makes
/// (`QemuCPUTests.release`'s; a debug build's objects also carry the
/// runtime's weak memcpy helpers, harmless, and are not read).
extension Integration {
@Suite struct PathSymbolTests {
    static let modules = ["MixPathBase", "MixPathAVX2", "MixPathAVX512", "StagePathBase", "StagePathAVX2", "StagePathAVX512"]

    /// The weak symbols `nm` finds defined in `objects`.
    static func weakSymbols(_ objects: [String]) async throws -> [String] {
        let nm = try ChildProcess(executable: "nm", arguments: ["--defined-only"] + objects, label: "nm")
        defer { nm.terminate() }
        try #require(try await nm.waitForExit(timeout: .seconds(60)) == .exited(0), "\(nm.diagnostics())")
        return nm.standardOutput.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 3, ["W", "V", "w", "v"].contains(fields[1]) else { return nil }
            return String(fields[2])
        }
    }

    /// The objects the build made for a module's sources now, as its
    /// output file map names them (the folder may still hold objects of
    /// sources since removed).
    static func objects(of module: String, in build: URL) throws -> [String] {
        let map = build.appendingPathComponent("\(module).build/output-file-map.json")
        let data = try Data(contentsOf: map)
        let entries = try #require(try JSONSerialization.jsonObject(with: data) as? [String: [String: String]], "\(map.path)")
        return entries.filter { !$0.key.isEmpty }.compactMap { $0.value["object"] }
            .filter { FileManager.default.fileExists(atPath: $0) }
    }

    @Test func eachPerCPUModuleDefinesNoSharedSymbolButItsOwn() async throws {
        // The build `QemuCPUTests` runs: `CROSSPOINT_RELEASE_BIN`'s folder,
        // else the package's release build.
        let build = URL(fileURLWithPath: QemuCPUTests.release).deletingLastPathComponent()
        guard FileManager.default.fileExists(atPath: build.appendingPathComponent("MixPathBase.build").path) else {
            print("note: no release build at \(build.path) (scripts/test makes one): the per-CPU symbols are not checked")
            return
        }
        for module in Self.modules {
            let objects = try Self.objects(of: module, in: build)
            try #require(!objects.isEmpty, "no objects of \(module) in \(build.path)")
            let own = "$s\(module.utf8.count)\(module)"
            let weak = try await Self.weakSymbols(objects)
            #expect(weak.contains { $0.hasPrefix(own) }, "\(module): none of its own symbols found, so the check reads nothing")
            let foreign = weak.filter { !$0.hasPrefix(own) && $0 != "__swift_reflection_version" }
            #expect(foreign.isEmpty, "\(module) defines shared symbols that are not its own: \(foreign)")
        }
    }
}
}
