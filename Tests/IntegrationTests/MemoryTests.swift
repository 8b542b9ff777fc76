import Foundation
import Testing

/// What `crosspoint serve` loads: not the whole of Foundation, whose
/// internationalisation and ICU cost about 8 MiB resident (docs/performance.md,
/// Memory). An `import Foundation` in any module of the rig, or a dependency
/// that pulls it in, brings them back; this test notices.
extension Integration {
@Suite struct MemoryTests {
    @Test func serveDoesNotLoadFullFoundationOrICU() async throws {
        try await withRig { rig in
            // Serving: the HTTP server, the OSC threads and JACK are all up.
            try await rig.ping()
            // Read to the end: /proc files say they are empty, and a one-shot read stops early.
            let file = try #require(FileHandle(forReadingAtPath: "/proc/\(rig.crosspoint.pid)/maps"))
            let maps = String(decoding: file.readDataToEndOfFile(), as: UTF8.self)
            try file.close()
            let libraries = Set(maps.split(separator: "\n").compactMap { line -> String? in
                guard let path = line.split(separator: " ", omittingEmptySubsequences: true).last,
                      path.hasPrefix("/") else { return nil }
                return String(path.split(separator: "/").last!)
            })
            #expect(libraries.contains { $0.hasPrefix("libjack") }, "the map was read: \(libraries.sorted())")
            for library in ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so"] {
                #expect(!libraries.contains(library), "\(library) is loaded: \(libraries.sorted())")
            }
        }
    }
}
}
