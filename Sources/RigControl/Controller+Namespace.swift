import MixCore
import OSC

/// One address of the rig described for discovery (OSCQuery): its type,
/// current value, range and meaning.
public struct ParameterDescription: Sendable {
    public var address: String
    /// OSC type tags, without the comma; "" for an action that takes nothing.
    public var typeTags: String
    /// The current value; nil for actions.
    public var value: [OSCArgument]?
    /// Per argument: the lowest and highest value (clamped to), if numeric.
    public var range: [ClosedRange<Double>?]
    public var unit: String?
    public var description: String
    /// Whether it can be read (queried); everything can be written.
    public var readable: Bool
}

extension Controller {
    /// Every address of the rig with its current value, for discovery.
    public func parameterDescriptions() -> [ParameterDescription] {
        lock.withLock { _ in
            var result: [ParameterDescription] = []
            for target in allParameters() {
                for form in target.levelForms { result.append(describe(form)) }
            }
            result.append(describe(.matrixMap))
            for (address, types, text) in Self.actions {
                result.append(ParameterDescription(address: address, typeTags: types, value: nil, range: [],
                                                   unit: nil, description: text, readable: false))
            }
            return result
        }
    }

    static let actions: [(String, String, String)] = [
        ("/matrix/clear", "", "Every crosspoint to 0"),
        ("/status", "", "Replies /status/… with the rig's state"),
        ("/ping", "", "Replies /pong"),
        ("/subscribe", "", "Feedback of every change to the sender ([i port])"),
        ("/meters/subscribe", "", "Meters to the sender ([f rate], 20 Hz)"),
        ("/preset/save", "s", "Save the scene as a preset (s name [s notes])"),
        ("/preset/recall", "s", "Recall a preset (s name [f fade] [s scope])"),
        ("/preset/undo", "", "Back to the scene before the last recall ([f fade])"),
    ]

    private func describe(_ target: Target) -> ParameterDescription {
        let value = currentValue(target)
        func item(_ types: String, _ range: [ClosedRange<Double>?], _ unit: String?, _ text: String) -> ParameterDescription {
            ParameterDescription(address: target.address, typeTags: types, value: value, range: range, unit: unit,
                                 description: text, readable: true)
        }
        let level: (Target.LevelUnit, String) -> ParameterDescription = { unit, what in
            switch unit {
            case .linear: item("f", [0...4], "gain", "\(what) level, linear (1 = unity)")
            case .decibels: item("f", [-90...12], "dB", "\(what) level in dB (-90 = off)")
            case .fader: item("f", [0...1], "fader", "\(what) level as a console fader position (0.75 = 0 dB)")
            }
        }
        switch target {
        case .source(let n, let p):
            switch p {
            case .volume: return level(.linear, "Source \(n)")
            case .db: return level(.decibels, "Source \(n)")
            case .fader: return level(.fader, "Source \(n)")
            case .pan: return item("f", [-1...1], "pan", "Source \(n) pan, -1 left to +1 right")
            case .mute: return item("i", [0...1], nil, "Source \(n) mute")
            case .solo: return item("i", [0...1], nil, "Source \(n) solo")
            case .name: return item("s", [nil], nil, "Source \(n) name")
            }
        case .output(let m, let p):
            switch p {
            case .volume: return level(.linear, "Output \(m)")
            case .db: return level(.decibels, "Output \(m)")
            case .fader: return level(.fader, "Output \(m)")
            case .mute: return item("i", [0...1], nil, "Output \(m) mute")
            case .name: return item("s", [nil], nil, "Output \(m) name")
            }
        case .master(let p):
            switch p {
            case .volume: return level(.linear, "Master")
            case .db: return level(.decibels, "Master")
            case .fader: return level(.fader, "Master")
            case .mute: return item("i", [0...1], nil, "Master mute")
            }
        case .crosspoint(let i, let o, let unit):
            return level(unit, "Crosspoint input \(i) to output \(o)")
        case .matrixMap:
            let outputs = state.scene.outputCount
            return item(String(repeating: "i", count: outputs),
                        Array(repeating: 0...Double(state.scene.inputCount), count: outputs), nil,
                        "Channel map: for each output the input it takes at unity, 0 for none")
        case .safe(.source(let n)): return item("i", [0...1], nil, "Recall safe for source \(n)")
        case .safe(.output(let m)): return item("i", [0...1], nil, "Recall safe for output \(m)")
        case .safe(.master): return item("i", [0...1], nil, "Recall safe for the master")
        default:
            return item("", [], nil, "")
        }
    }
}
