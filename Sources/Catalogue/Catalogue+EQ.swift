#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MixCore
import SceneModel

/// The EQ's parameters (docs/processing.md): a source's low cut and four
/// bands, part of the scene; an output's low cut, high cut and six bands,
/// the rig's tuning (kept in the state file, never in presets, changed by
/// the engineer alone). Frequencies and q reach the kernel as their base-2
/// logarithms, so that they ramp evenly in octaves.
extension Catalogue {
    static var eqEntries: [Parameter] {
        eqEntries(.source, bands: 4, highCut: false, storage: .scene, eq: { $0.sources[$1.channel - 1].eq },
                  setEQ: { $0.sources[$1.channel - 1].eq = $2 })
            + eqEntries(.output, bands: 6, highCut: true, storage: .rig, eq: { $0.outputs[$1.channel - 1].eq },
                        setEQ: { $0.outputs[$1.channel - 1].eq = $2 })
    }

    /// The shown range of a cut's frequency, in Hz.
    static let lowCutFrequencies: ClosedRange<Float> = 20...1_000
    static let highCutFrequencies: ClosedRange<Float> = 1_000...20_000

    private static func eqEntries(_ strip: Parameter.Strip, bands: Int, highCut: Bool, storage: Parameter.Storage,
                                  eq: @escaping @Sendable (Scene, Parameter.Place) -> Equaliser,
                                  setEQ: @escaping @Sendable (inout Scene, Parameter.Place, Equaliser) -> Void) -> [Parameter] {
        let ramp = { (field: RampBlock.EQField, value: @escaping @Sendable (Parameter.Value) -> Float) in
            Parameter.Kernel.ramp(RampBlock(strip == .source ? .source : .output, .eq(field), .linear), ramp: value)
        }
        let onOff: @Sendable (Parameter.Value) -> Float = { $0.isOn ? 1 : 0 }
        let octaves: @Sendable (Parameter.Value) -> Float = { log2(max($0.number, 1e-3)) }
        func edit(_ change: @escaping @Sendable (inout Equaliser, Parameter.Value) -> Void)
            -> @Sendable (inout Scene, Parameter.Place, Parameter.Value) -> Void {
            { scene, place, value in
                var shaped = eq(scene, place)
                change(&shaped, value)
                setEQ(&scene, place, shaped)
            }
        }
        func entry(_ name: String, _ kind: Parameter.Kind, _ description: String, _ defaultValue: Parameter.Value,
                   _ kernel: Parameter.Kernel, _ display: Parameter.Display,
                   check: @escaping @Sendable (Parameter.Value) -> String? = { _ in nil },
                   get: @escaping @Sendable (Equaliser) -> Parameter.Value,
                   set: @escaping @Sendable (inout Equaliser, Parameter.Value) -> Void) -> Parameter {
            // A linked pair's EQ is one, as its level is: the page shows the pair as one strip.
            Parameter(strip, name, kind, description, default: defaultValue, kernel: kernel, storage: storage,
                      sharedByPair: strip == .source, display: display, check: check,
                      get: { get(eq($0, $1)) }, set: edit(set))
        }
        let slope = Parameter.Kind.number(12...24, unit: "none")
        let slopeCheck: @Sendable (Parameter.Value) -> String? = {
            $0.number == 12 || $0.number == 24 ? nil : "a slope is 12 or 24 dB/octave (got \(Int($0.number)))"
        }
        func cut(_ which: RampBlock.EQField.Cut, _ name: String, _ words: String, _ range: ClosedRange<Float>,
                 _ path: WritableKeyPath<Equaliser, Equaliser.Cut> & Sendable) -> [Parameter] {
            let first = which == .low ? Equaliser(bands: 0).lowCut : Equaliser(bands: 0).highCut
            return [
                entry("\(name)/on", .toggle, "\(words) on", .toggle(false), ramp(.cut(which, .on), onOff),
                      .init(.toggle(label: name.uppercased()), "{Strip} \(words)", view: .eq),
                      get: { .toggle($0[keyPath: path].on) }, set: { $0[keyPath: path].on = $1.isOn }),
                entry("\(name)/freq", .number(range, unit: "time.hz"), "\(words) frequency in Hz",
                      .number(first.frequency), ramp(.cut(which, .frequency), octaves),
                      .init(.number(step: 1, suffix: "Hz"), "{Strip} \(words) frequency in Hz", view: .eq),
                      get: { .number($0[keyPath: path].frequency) }, set: { $0[keyPath: path].frequency = $1.number }),
                entry("\(name)/slope", slope, "\(words) slope: 12 or 24 dB/octave (Butterworth)", .number(24),
                      ramp(.cut(which, .slope), { $0.number }),
                      .init(.choice(options: ["12", "24"]), "{Strip} \(words) slope in dB/octave", view: .eq),
                      check: slopeCheck,
                      get: { .number($0[keyPath: path].slope) }, set: { $0[keyPath: path].slope = $1.number }),
            ]
        }
        var entries = cut(.low, "hpf", "low cut", lowCutFrequencies, \.lowCut)
        if highCut { entries += cut(.high, "lpf", "high cut", highCutFrequencies, \.highCut) }
        entries.append(entry("eq/on", .toggle, "the EQ's bands on", .toggle(true), ramp(.on, onOff),
                             .init(.toggle(label: "EQ"), "{Strip} EQ on", view: .eq),
                             get: { .toggle($0.on) }, set: { $0.on = $1.isOn }))
        let kinds = EQBand.Kind.allCases.map(\.rawValue)
        for b in 1...bands {
            let band = Equaliser(bands: bands).bands[b - 1]
            entries += [
                entry("eq/\(b)/type", .text(maxLength: 16), "band \(b) shape: peak, lowshelf or highshelf",
                      .text(band.type.rawValue), ramp(.band(b, .shape), { EQBand.Kind(rawValue: $0.text)?.code ?? 0 }),
                      .init(.choice(options: kinds), "{Strip} band \(b) shape", view: .eq),
                      check: { EQBand.Kind(rawValue: $0.text) == nil ? "'\($0.text)' is not a band shape: peak, lowshelf or highshelf" : nil },
                      get: { .text($0.bands[b - 1].type.rawValue) },
                      set: { $0.bands[b - 1].type = EQBand.Kind(rawValue: $1.text) ?? .peak }),
                entry("eq/\(b)/freq", .number(20...20_000, unit: "time.hz"), "band \(b) frequency in Hz",
                      .number(band.frequency), ramp(.band(b, .frequency), octaves),
                      .init(.number(step: 1, suffix: "Hz"), "{Strip} band \(b) frequency in Hz", view: .eq),
                      get: { .number($0.bands[b - 1].frequency) }, set: { $0.bands[b - 1].frequency = $1.number }),
                entry("eq/\(b)/gain", .number(-15...15, unit: "gain.db"), "band \(b) gain in dB", .number(0),
                      ramp(.band(b, .gain), { $0.number }),
                      .init(.number(step: 0.5, suffix: "dB"), "{Strip} band \(b) gain in dB", view: .eq),
                      get: { .number($0.bands[b - 1].gain) }, set: { $0.bands[b - 1].gain = $1.number }),
                entry("eq/\(b)/q", .number(0.3...16, unit: "none"), "band \(b) q (shelves: the cookbook's Q)", .number(1),
                      ramp(.band(b, .q), octaves),
                      .init(.number(step: 0.1, suffix: "Q"), "{Strip} band \(b) q", view: .eq),
                      get: { .number($0.bands[b - 1].q) }, set: { $0.bands[b - 1].q = $1.number }),
                entry("eq/\(b)/on", .toggle, "band \(b) on", .toggle(false), ramp(.band(b, .on), onOff),
                      .init(.toggle(label: "On"), "{Strip} band \(b) on", view: .eq),
                      get: { .toggle($0.bands[b - 1].on) }, set: { $0.bands[b - 1].on = $1.isOn }),
            ]
        }
        return entries
    }
}
