#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MixCore
import SceneModel

/// An output's brickwall limiter's parameters (docs/processing.md): the
/// rig's tuning, kept in the state file, never in presets, changed by the
/// engineer alone (they protect ears). The ceiling reaches the kernel as a
/// linear gain.
extension Catalogue {
    static var limiterEntries: [Parameter] {
        func entry(_ name: String, _ kind: Parameter.Kind, _ description: String, _ defaultValue: Parameter.Value,
                   _ field: RampBlock.LimiterField, ramp: @escaping @Sendable (Parameter.Value) -> Float,
                   _ display: Parameter.Display,
                   get: @escaping @Sendable (Limiter) -> Parameter.Value,
                   set: @escaping @Sendable (inout Limiter, Parameter.Value) -> Void) -> Parameter {
            Parameter(.output, "limiter/\(name)", kind, description, default: defaultValue,
                      kernel: .ramp(RampBlock(.output, .limiter(field), .linear), ramp: ramp), storage: .rig,
                      display: display,
                      get: { get($0.outputs[$1.channel - 1].limiter) },
                      set: { scene, place, value in set(&scene.outputs[place.channel - 1].limiter, value) })
        }
        let blank = Limiter()
        return [
            entry("on", .toggle, "brickwall limiter on: no sample above the ceiling", .toggle(blank.on), .on,
                  ramp: { $0.isOn ? 1 : 0 }, .init(.toggle(label: "Lim"), "{Strip} limiter", view: .limiter),
                  get: { .toggle($0.on) }, set: { $0.on = $1.isOn }),
            entry("ceiling", .number(-40...0, unit: "gain.db"), "limiter ceiling in dBFS", .number(blank.ceiling), .ceiling,
                  ramp: { powf(10, $0.number / 20) },
                  .init(.number(step: 0.5, suffix: "dBFS"), "{Strip} limiter ceiling in dBFS", view: .limiter),
                  get: { .number($0.ceiling) }, set: { $0.ceiling = $1.number }),
            entry("release", .number(1...1000, unit: "time.ms"), "limiter release in milliseconds", .number(blank.release),
                  .release, ramp: { $0.number },
                  .init(.number(step: 1, suffix: "ms"), "{Strip} limiter release in ms", view: .limiter),
                  get: { .number($0.release) }, set: { $0.release = $1.number }),
            entry("lookahead", .number(0...5, unit: "time.ms"),
                  "limiter lookahead in milliseconds: the output is delayed by exactly this much while the limiter is on",
                  .number(blank.lookahead), .lookahead, ramp: { $0.number },
                  .init(.number(step: 0.1, suffix: "ms"), "{Strip} limiter lookahead in ms", view: .limiter),
                  get: { .number($0.lookahead) }, set: { $0.lookahead = $1.number }),
        ]
    }
}
