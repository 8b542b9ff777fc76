#if canImport(Glibc)
import Glibc
#endif
@_implementationOnly import CCPUFeatures

/// Which build of the mixing loops the render kernel runs: the same Swift
/// source compiled for each CPU level (`MixPathBase`, `MixPathAVX2`,
/// `MixPathAVX512`). The rig takes the widest the CPU has when it starts;
/// `CROSSPOINT_SIMD` forces one, and a path the CPU lacks is refused
/// (never run: its instructions would stop the process with SIGILL).
/// docs/performance.md, "SIMD paths".
public enum SIMDPath: String, Sendable, CaseIterable, CustomStringConvertible {
    /// x86-64 baseline: SSE2, 4 floats a register, no fused multiply-add.
    case sse2
    /// x86-64-v3: AVX2 and FMA, 8 floats a register.
    case avx2
    /// x86-64-v4: AVX-512, 16 floats a register, 32 registers.
    case avx512
    /// aarch64: NEON (Advanced SIMD), 4 floats a register, with FMA.
    case neon

    public var description: String { rawValue }

    /// The environment variable that forces a path.
    public static let environmentVariable = "CROSSPOINT_SIMD"

    /// The paths this CPU runs, narrowest first.
    public static let available: [SIMDPath] = {
        let levels = crosspoint_simd_levels()
        return [(1, sse2), (2, avx2), (4, avx512), (8, neon)].compactMap { levels & $0.0 != 0 ? $0.1 : nil }
    }()

    /// The widest path this CPU runs.
    public static var widest: SIMDPath { available.last ?? .sse2 }

    /// A path refused: not a path's name, or one this CPU lacks.
    public struct Refusal: Error, CustomStringConvertible {
        public let requested: String
        public var description: String {
            let known = SIMDPath.allCases.map(\.rawValue).joined(separator: "|")
            let here = SIMDPath.available.map(\.rawValue).joined(separator: ", ")
            return SIMDPath(rawValue: requested) == nil
                ? "\(SIMDPath.environmentVariable)=\(requested) is not a SIMD path (\(known)); this CPU runs \(here)"
                : "\(SIMDPath.environmentVariable)=\(requested): this CPU cannot run the \(requested) path; it runs \(here)"
        }
    }

    /// The path to run: the one `requested` names (the value of
    /// `CROSSPOINT_SIMD`; nil or empty: none), if the CPU runs it, else the widest.
    public static func choose(_ requested: String?) throws(Refusal) -> SIMDPath {
        guard let requested, !requested.isEmpty else { return widest }
        guard let path = SIMDPath(rawValue: requested), available.contains(path) else { throw Refusal(requested: requested) }
        return path
    }

    /// This process's choice, from its environment, made once: what a mixer
    /// renders with unless told otherwise. A refused `CROSSPOINT_SIMD` leaves
    /// the widest path here; `serve` and `bench` refuse to start instead
    /// (`fromEnvironment`).
    public static let inUse: SIMDPath = (try? fromEnvironment.get()) ?? widest

    /// The choice `CROSSPOINT_SIMD` makes, or why it is refused.
    public static let fromEnvironment: Result<SIMDPath, Refusal> = {
        Result { () throws(Refusal) -> SIMDPath in
            try choose(getenv(environmentVariable).map { String(cString: $0) })
        }
    }()

    /// Why `path` runs, for the start-up log: forced, or the widest.
    public static func chosenBecause(_ path: SIMDPath) -> String {
        let here = available.map(\.rawValue).joined(separator: ", ")
        let forced = getenv(environmentVariable).map { String(cString: $0) }.map { !$0.isEmpty } ?? false
        return forced ? "forced by \(environmentVariable); this CPU runs \(here)" : "the widest of \(here)"
    }
}
