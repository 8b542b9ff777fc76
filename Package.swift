// swift-tools-version: 6.1
import PackageDescription

// The render kernel's mixing loops are one source (Sources/MixPaths/Loops),
// compiled once per CPU level into a module of its own; the kernel picks the
// widest the CPU has when the rig starts (MixCore's SIMDPath, `CROSSPOINT_SIMD`
// forces one). Everything else is built for the architecture's baseline, so
// the binary runs on any x86-64 CPU (docs/performance.md, "SIMD paths").
// SwiftPM's conditions cannot tell architectures apart: the x86 levels are
// chosen here by the architecture the manifest is compiled for, which is the
// build machine's (a cross build needs these flags left out by hand).
let optimised: [SwiftSetting] = [
    // @_noLocks checking needs the bodies of inlinable helpers in other files,
    // which only whole-module compilation provides in debug builds; and the
    // kernel is optimised even in debug builds, so tests run it at full speed.
    .unsafeFlags(["-O"]),
]
#if arch(x86_64)
// x86-64-v3 (Haswell: AVX2, FMA, BMI2, …) and x86-64-v4 (AVX-512 F, BW, CD,
// DQ, VL as in Skylake-SP); the fused multiply-add is used where it exists.
let avx2Flags: [SwiftSetting] = optimised + [.unsafeFlags(["-target-cpu", "haswell"]), .define("FUSED_MULTIPLY_ADD")]
let avx512Flags: [SwiftSetting] = optimised + [.unsafeFlags(["-target-cpu", "skylake-avx512"]), .define("FUSED_MULTIPLY_ADD"),
                                             .define("WIDE_REGISTERS")]
#else
// aarch64: NEON is the baseline, and the base path is the NEON path; the
// x86 modules are built plainly and never called.
let avx2Flags = optimised
let avx512Flags = optimised
#endif

let package = Package(
    name: "Crosspoint",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "crosspoint", targets: ["crosspoint"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // No traits: Hummingbird's default ones (FullFoundation,
        // ConfigurationSupport) link the whole of Foundation and ICU, about
        // 8 MiB resident that serve does not use (docs/performance.md, Memory).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // C libraries, found with pkg-config.
        .systemLibrary(name: "CJack", pkgConfig: "jack",
                       providers: [.apt(["libjack-jackd2-dev"])]),
        .systemLibrary(name: "CLiblo", pkgConfig: "liblo",
                       providers: [.apt(["liblo-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib",
                       providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CAvahi", pkgConfig: "avahi-client",
                       providers: [.apt(["libavahi-client-dev"])]),

        // Pure Swift: laws, ramps, the lock-free queue and the real-time
        // render kernel. No JACK, no liblo: renders offline in tests.
        .target(name: "MixCore", dependencies: ["MixRows", "Shaping", "Dynamics", "MixPathBase", "MixPathAVX2", "MixPathAVX512",
                                                  "StagePathBase", "StagePathAVX2", "StagePathAVX512", "CCPUFeatures"],
                swiftSettings: optimised),

        // The mixing loops, one source compiled three times: for the
        // architecture's baseline (SSE2 on x86-64, NEON on aarch64), for
        // x86-64-v3 (AVX2) and for x86-64-v4 (AVX-512). Each directory holds
        // links to the files in Sources/MixPaths/Loops. `MixRows` is what
        // they are handed; `CCPUFeatures` asks the CPU which it can run.
        .target(name: "MixRows", swiftSettings: optimised),
        .target(name: "MixPathBase", dependencies: ["MixRows"], path: "Sources/MixPaths/Base", swiftSettings: optimised),
        .target(name: "MixPathAVX2", dependencies: ["MixRows"], path: "Sources/MixPaths/AVX2", swiftSettings: avx2Flags),
        .target(name: "MixPathAVX512", dependencies: ["MixRows"], path: "Sources/MixPaths/AVX512", swiftSettings: avx512Flags),
        .target(name: "CCPUFeatures"),

        // Shaping sound: the EQ's bands (the Audio EQ Cookbook's responses,
        // run as trapezoidal state-variable filters, eight channels a SIMD
        // lane each) and the plain forms they are held to (docs/processing.md).
        .target(name: "Shaping", dependencies: ["MixRows"], swiftSettings: optimised),
        // Protecting ears and speakers: the brickwall limiter, eight
        // channels a SIMD lane each (docs/processing.md).
        .target(name: "Dynamics", dependencies: ["MixRows"], swiftSettings: optimised),
        // The EQ and the limiters compiled once per CPU level, as the mixing
        // loops are: each directory links Sources/StagePaths/Loops.
        .target(name: "StagePathBase", dependencies: ["Shaping", "Dynamics", "CFrames"], path: "Sources/StagePaths/Base",
                swiftSettings: optimised),
        .target(name: "StagePathAVX2", dependencies: ["Shaping", "Dynamics", "CFrames"], path: "Sources/StagePaths/AVX2",
                swiftSettings: avx2Flags),
        .target(name: "StagePathAVX512", dependencies: ["Shaping", "Dynamics", "CFrames"], path: "Sources/StagePaths/AVX512",
                swiftSettings: avx512Flags),
        // The stages' transposes on the avx2 and avx512 paths (eight or
        // sixteen lanes), with the CPU's shuffles (Sources/CFrames/include/
        // frames.h says why in C); optimised in debug builds too, as the
        // loops are.
        .target(name: "CFrames", cSettings: [.unsafeFlags(["-O2"])]),

        // The scene as the control side keeps it (`Scene`, `Source`,
        // `Output`, `Master`, `CrosspointMatrix`): value types the kernel
        // never sees.
        .target(name: "SceneModel"),

        // The parameter catalogue: every kind of parameter described once,
        // and the kernel's ramp layout derived from it.
        .target(name: "Catalogue", dependencies: ["MixCore", "SceneModel", "SystemSupport", "PortPatterns"]),

        // What we used full Foundation for, on POSIX: threads, printf-style
        // formatting, trimming and ordering strings. The rest (Date, URL,
        // FileManager, Data) comes from FoundationEssentials.
        .target(name: "SystemSupport"),

        // Port patterns (POSIX extended regular expressions without
        // back-references) compiled to a DFA under caps, so that any
        // accepted pattern costs bounded time and memory (docs/sources.md).
        // Optimised even in debug builds, as the kernel is: the caps are set
        // so that the worst accepted pattern compiles in about 4 ms, and
        // unoptimised code would take some 30 times longer.
        .target(name: "PortPatterns", dependencies: ["SystemSupport"], swiftSettings: [.unsafeFlags(["-O"])]),

        // OSC values, address patterns, and the liblo server and client.
        // Who is let in is asked of an `Admission` the server is given (the
        // rig's `AccessDoor`): the transport knows no policy.
        .target(name: "OSC", dependencies: [
            "CLiblo", "SystemSupport", .product(name: "Logging", package: "swift-log"),
        ]),

        // Strict JSON, once: the reader (every field's type checked, errors
        // naming the file and field), the files' line layout, the compact
        // stream, escaping. For presets, the state file, the access file,
        // OSCQuery and the page's description.
        .target(name: "JSON"),

        // Preset files and the saved rig state: format, strict reading, atomic writing.
        .target(name: "Presets", dependencies: [
            "MixCore", "SceneModel", "Catalogue", "JSON", "SystemSupport", .product(name: "Logging", package: "swift-log"),
        ]),

        // Who may do what, in one place: who is let in (`AccessPolicy`, the
        // `AccessDoor` in force, the OSC server's `Admission`, which the
        // HTTP server asks too), roles,
        // the access file (`serve --access`), codes, logins and the limit on
        // guessing them.
        .target(name: "Access", dependencies: ["JSON", "OSC"]),

        // Delivery to clients: feedback of changes (paced, coalesced, lasting),
        // meters at their rates, timed bundles waiting for their time, and
        // where replies go. It knows OSC packets and peers, not the scene.
        .target(name: "Delivery", dependencies: [
            "MixCore", "Catalogue", "OSC", "SystemSupport", .product(name: "Logging", package: "swift-log"),
        ]),

        // The control side: the authoritative rig state and the OSC address space.
        .target(name: "RigControl", dependencies: [
            "MixCore", "SceneModel", "Catalogue", "OSC", "Presets", "Access", "Delivery", "SystemSupport",
            .product(name: "Logging", package: "swift-log"),
        ]),

        // The JACK client that hosts the mixer, and the server it may start.
        .target(name: "JackHost", dependencies: [
            "CJack", "MixCore", "MIDI", "SystemSupport", "PortPatterns", .product(name: "Logging", package: "swift-log"),
        ]),

        // MIDI between the audio thread and the control side: lock-free
        // rings of events, one each way per surface (docs/surfaces.md).
        .target(name: "MIDI", swiftSettings: optimised),

        // MIDI controllers on the control side: the map file, the bindings
        // from controls to the catalogue's parameters, pick-up (docs/surfaces.md).
        .target(name: "Surfaces", dependencies: [
            "MIDI", "RigControl", "Catalogue", "OSC", "JSON", "Presets", "SystemSupport", .product(name: "Logging", package: "swift-log"),
        ]),

        // OSCQuery discovery: the namespace as JSON over HTTP, value streaming
        // over a WebSocket on the same port (Hummingbird), access control;
        // zlib for gzip answers.
        .target(name: "OSCQuery", dependencies: [
            "OSC", "Access", "JSON", "SystemSupport", "CZlib",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Logging", package: "swift-log"),
        ]),

        // DNS-SD advertising through the Avahi daemon (`_osc._udp`,
        // `_oscjson._tcp`), on Avahi's own thread.
        .target(name: "Advertising", dependencies: [
            "CAvahi", .product(name: "Logging", package: "swift-log"),
        ]),

        // The control page (HTML, CSS, JavaScript under page/), embedded in the
        // binary at build time by the EmbedPage plugin and its EmbedFiles tool.
        .target(name: "ControlPage", dependencies: ["Catalogue", "JSON"], exclude: ["page"],
                plugins: ["EmbedPage"]),
        .executableTarget(name: "EmbedFiles"),
        .plugin(name: "EmbedPage", capability: .buildTool(), dependencies: ["EmbedFiles"]),

        // Offline timing of the render kernel and of a preset recall (`crosspoint bench`).
        .target(name: "Bench", dependencies: [
            "MixCore", "SceneModel", "Catalogue", "OSC", "Presets", "RigControl", "SystemSupport",
            .product(name: "Logging", package: "swift-log"),
        ]),

        .executableTarget(name: "crosspoint", dependencies: [
            "MixCore", "SceneModel", "Catalogue", "OSC", "OSCQuery", "Advertising", "ControlPage", "Presets", "RigControl", "Delivery", "JackHost", "Access",
            "MIDI", "Surfaces", "Bench", "JSON", "SystemSupport", "PortPatterns", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ], linkerSettings: [
            // Release builds link the Swift runtime and FoundationEssentials
            // statically: only what is used is kept (--gc-sections), no
            // separate libraries to load and relocate; about 2 MiB less
            // resident for serve (docs/performance.md, Memory). The two
            // libraries are FoundationEssentials' own, which a static link
            // must name. Debug builds (and so the tests) stay dynamic.
            .unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release)),
            .linkedLibrary("_FoundationCShims", .when(platforms: [.linux], configuration: .release)),
            .linkedLibrary("_FoundationCollections", .when(platforms: [.linux], configuration: .release)),
        ]),

        // An OSC encoder and decoder written from the specification, for the
        // tests only: the oracle the product's codec is held to, and the
        // integration tests' client's codec.
        .target(name: "OSCOracle", dependencies: ["OSC"], path: "Tests/OSCOracle"),

        .testTarget(name: "MixCoreTests", dependencies: ["MixCore", "SceneModel", "Catalogue", "SystemSupport", "Shaping",
                                                        "StagePathAVX2", "StagePathAVX512", "Dynamics", "CFrames"],
                    swiftSettings: optimised),
        .testTarget(name: "DynamicsTests", dependencies: ["Dynamics", "StagePathBase", "SystemSupport"], swiftSettings: optimised),
        .testTarget(name: "ShapingTests", dependencies: ["Shaping", "MixRows"], swiftSettings: optimised),
        .testTarget(name: "RigControlTests", dependencies: ["RigControl", "Delivery", "MixCore", "SceneModel", "Catalogue", "OSC", "Presets",
                                                           "Access"]),
        .testTarget(name: "CatalogueTests", dependencies: [
            "Catalogue", "ControlPage", "Delivery", "MixCore", "SceneModel", "OSC", "Presets", "RigControl", "Shaping",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "AccessTests", dependencies: ["Access", "OSC", "JSON"]),
        .testTarget(name: "SurfacesTests", dependencies: ["Surfaces", "MIDI", "RigControl", "Catalogue", "OSC", "JSON"]),
        .testTarget(name: "PresetsTests", dependencies: ["Presets", "MixCore", "SceneModel", "Catalogue", "JSON"]),
        .testTarget(name: "OSCTests", dependencies: ["OSC", "OSCOracle", "SystemSupport"]),
        .testTarget(name: "SystemSupportTests", dependencies: ["SystemSupport"]),
        .testTarget(name: "PortPatternsTests", dependencies: ["PortPatterns", "SystemSupport"]),
        .testTarget(name: "OSCQueryTests", dependencies: [
            "OSCQuery", "OSC", "OSCOracle", "JSON", "Access",
            .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "IntegrationTests", dependencies: [
            "CJack", "CLiblo", "OSC", "OSCOracle", "Shaping",
            .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "NIOCore", package: "swift-nio"),
        ]),
    ]
)
