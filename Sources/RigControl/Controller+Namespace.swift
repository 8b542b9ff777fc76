import Catalogue
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
                for form in addressSpace.allForms(target) { result.append(describe(form)) }
            }
            result.append(describe(.matrixMap))
            for (address, types, text) in Self.actions {
                result.append(ParameterDescription(address: address, typeTags: types, value: nil, range: [],
                                                   unit: nil, description: text, readable: false))
            }
            return result
        }
    }

    /// The commands, for discovery. "[button]": a trailing button value,
    /// which acts when non-zero and does nothing when 0 (Controller+Buttons.swift).
    static let actions: [(String, String, String)] = [
        ("/matrix/clear", "", "Every crosspoint to 0 ([button])"),
        ("/status", "", "Replies /status/… with the rig's state ([button])"),
        ("/ping", "", "Replies /pong ([button])"),
        ("/subscribe", "", "Feedback of every change to the sender ([i port] [button]; a port is 1024 or more)"),
        ("/meters/subscribe", "", "Meters to the sender ([f rate] [button], 20 Hz; a rate is above 1)"),
        ("/meters/rate", "f", "Meters to the sender at this rate per second, 1-60"),
        ("/preset/save", "s", "Save the scene as a preset (s name [s notes])"),
        ("/preset/recall", "s", "Recall a preset (s name [f fade] [s scope]); /preset/recall/NAME [button] recalls one by name"),
        ("/preset/undo", "", "Back to the scene before the last recall ([f fade] [button]; a lone 0 is a release)"),
    ]

    private func describe(_ target: Target) -> ParameterDescription {
        let value = currentValue(target)
        func item(_ types: String, _ range: [ClosedRange<Double>?], _ unit: String?, _ text: String) -> ParameterDescription {
            ParameterDescription(address: addressSpace.address(target), typeTags: types, value: value, range: range,
                                 unit: unit, description: text, readable: true)
        }
        switch target {
        case .parameter(let number, let place, let form):
            let parameter = catalogue.parameters[number]
            let what = "\(place.title) \(parameter.description)"
            switch (parameter.kind, form) {
            // Units from the OSCQuery proposal's list (units.md); a fader
            // position has none there.
            case (.level, .decibels): return item("f", [-90...12], "gain.db", "\(what) in dB (-90 = off)")
            case (.level, .fader): return item("f", [0...1], "none", "\(what) as a console fader position (0.75 = 0 dB)")
            case (.level, _): return item("f", [0...4], "gain.linear", "\(what), linear (1 = unity)")
            case (.number(let range, let unit), _):
                return item("f", [Double(range.lowerBound)...Double(range.upperBound)], unit, what)
            case (.toggle, _): return item("i", [0...1], nil, what)
            case (.text, _): return item("s", [nil], nil, what)
            }
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
