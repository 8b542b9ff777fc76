import Catalogue
import MixCore
import OSC
import Presets

/// One address of the rig described for discovery (OSCQuery): its argument
/// types, range and meaning, and which value it shows. Derived from the
/// catalogue once; values are read separately (`value(_:in:)`), when asked.
public struct ParameterDescription: Sendable {
    /// One way of calling an address: its type tags and, per argument, the
    /// range it is clamped to (if numeric) and the unit.
    public struct Signature: Sendable {
        /// OSC type tags, without the comma; "" for no argument.
        public var typeTags: String
        /// Per argument: the lowest and highest value, if numeric.
        public var range: [ClosedRange<Double>?]
        /// Per argument: a unit from the OSCQuery proposal's list, if any.
        public var unit: [String?]
        /// What this form does, when it differs from the others.
        public var description: String?
    }

    /// What a client may do with the address's value: read and set a
    /// parameter's; an action or a message the rig sends has none (OSCQuery's
    /// `ACCESS` 0: "no value associated", though it takes arguments).
    public enum Access: Sendable { case readWrite, none }

    public var address: String
    public var description: String
    /// How the address is called (`TYPE`), and its other forms (`OVERLOADS`).
    public var signature: Signature
    public var overloads: [Signature] = []
    public var access: Access
    /// The parameter whose value the address shows; nil for actions.
    public var target: Target?
}

extension Controller {
    /// Every address of the rig, for discovery: each parameter in each of
    /// its forms, the channel map and the safes, the actions with all their
    /// forms, and the meter messages subscribers are sent. Given to `body`
    /// one at a time (a 256x256 rig has 200,000), so that no list of them
    /// all is ever built. They depend on the rig's size and the catalogue,
    /// not on the scene: describe them once.
    public func describeAddresses(_ body: (ParameterDescription) -> Void) {
        let (inputs, outputs, parameters) = lock.withLock { _ in
            (state.scene.inputCount, state.scene.outputCount, allParameters())
        }
        for target in parameters {
            for form in addressSpace.allForms(target) { body(describe(form)) }
        }
        body(ParameterDescription(
            address: "/matrix/map", description: "Channel map: for each output the input it takes at unity, 0 for none",
            signature: .init(typeTags: String(repeating: "i", count: outputs),
                             range: Array(repeating: 0...Double(inputs), count: outputs),
                             unit: Array(repeating: nil, count: outputs)),
            access: .readWrite, target: .matrixMap))
        Self.actions.forEach(body)
        Self.meterMessages(inputs: inputs, outputs: outputs).forEach(body)
    }

    /// A parameter's value as `target` shows it, in the rig state `state`
    /// (a copy taken under the lock): for answering without holding it.
    public func value(_ target: Target, in state: RigState) -> [OSCArgument]? {
        switch target {
        case .parameter(let number, let place, let form):
            arguments(of: catalogue.parameters[number].get(state.scene, place), in: form)
        case .matrixMap:
            channelMap(state.scene).map { .int32(Int32($0)) }
        case .safe(.source(let n)): [.int32(state.safes.sources.contains(n) ? 1 : 0)]
        case .safe(.output(let m)): [.int32(state.safes.outputs.contains(m) ? 1 : 0)]
        case .safe(.master): [.int32(state.safes.master ? 1 : 0)]
        case .safe(.mix(let m)): [.int32(state.safes.mixes.contains(m) ? 1 : 0)]
        default: nil
        }
    }

    /// The rig state now, to read values from without the lock.
    public func stateNow() -> RigState {
        lock.withLock { _ in state }
    }

    private func describe(_ target: Target) -> ParameterDescription {
        guard case .parameter(let number, let place, let form) = target else {
            let what = switch target {
            case .safe(.source(let n)): "Recall safe for source \(n)"
            case .safe(.output(let m)): "Recall safe for output \(m)"
            case .safe(.mix(let m)): "Mix safe for output \(m): every crosspoint into it keeps its level through recalls and undo"
            default: "Recall safe for the master"
            }
            return ParameterDescription(address: addressSpace.address(target), description: what,
                                        signature: .toggle, access: .readWrite, target: target)
        }
        let parameter = catalogue.parameters[number]
        let what = "\(place.title) \(parameter.description)"
        func item(_ types: String, _ range: ClosedRange<Double>?, _ unit: String?, _ text: String) -> ParameterDescription {
            ParameterDescription(address: addressSpace.address(target), description: text,
                                 signature: .init(typeTags: types, range: [range], unit: [unit]),
                                 access: .readWrite, target: target)
        }
        switch (parameter.kind, form) {
        // Units from the OSCQuery proposal's list (units.md); a fader
        // position has none there.
        case (.level, .decibels): return item("f", -90...12, "gain.db", "\(what) in dB (-90 = off)")
        case (.level, .fader): return item("f", 0...1, "none", "\(what) as a console fader position (0.75 = 0 dB)")
        case (.level, _): return item("f", 0...4, "gain.linear", "\(what), linear (1 = unity)")
        case (.number(let range, let unit), _):
            return item("f", Double(range.lowerBound)...Double(range.upperBound), unit, what)
        case (.toggle, _): return item("i", 0...1, nil, what)
        case (.text, _): return item("s", nil, nil, what)
        }
    }
}

extension ParameterDescription.Signature {
    static let none = Self(typeTags: "", range: [], unit: [])
    static let toggle = Self(typeTags: "i", range: [0...1], unit: [nil])
    /// A trailing button value (Controller+Buttons.swift).
    static let button = Self(typeTags: "f", range: [0...1], unit: [nil],
                             description: "A button: acts when not 0; 0 (a release) does nothing")

    init(_ typeTags: String, _ range: [ClosedRange<Double>?], _ description: String, units: [String?]? = nil) {
        self.init(typeTags: typeTags, range: range, unit: units ?? Array(repeating: nil, count: range.count),
                  description: description)
    }
}

extension Controller {
    /// The commands, with every form they take (Controller+Buttons.swift
    /// for how a lone number is told from a button).
    static let actions: [ParameterDescription] = {
        typealias Signature = ParameterDescription.Signature
        func action(_ address: String, _ text: String, _ signature: Signature = .none,
                    _ overloads: [Signature] = [.button]) -> ParameterDescription {
            ParameterDescription(address: address, description: text, signature: signature, overloads: overloads,
                                 access: .none, target: nil)
        }
        let port: ClosedRange<Double> = 1024...65535
        let subscribeForms = [
            Signature("i", [port], "To this UDP port of the sender's host"), .button,
            Signature("if", [port, 0...1], "A port, then a button"),
        ]
        let fade = 0...ArgumentReader.longestFade
        let rates = 1...MeterStream.highestRate
        let scope = "sources, matrix, outputs, master, or a comma-separated list"
        return [
            action("/matrix/clear", "Every crosspoint to 0"),
            action("/status", "Replies /status/… with the rig's state"),
            action("/ping", "Replies /pong"),
            action("/subscribe", "Feedback of every change, and the full state now, to the sender", .none,
                   subscribeForms),
            action("/unsubscribe", "No more feedback to the sender", .none, subscribeForms),
            action("/meters/subscribe", "Meters to the sender, 20 times a second", .none, [
                Signature("f", [rates], "At this rate per second (a rate is above 1; 1 or less is a button)"),
                Signature("ff", [rates, 0...1], "A rate, then a button"),
            ]),
            action("/meters/unsubscribe", "No more meters to the sender"),
            action("/meters/rate", "Meters to the sender at this rate per second, whether subscribed or not",
                   Signature(typeTags: "f", range: [rates], unit: [nil]), []),
            action("/preset/save", "Save the scene as a preset", Signature(typeTags: "s", range: [nil], unit: [nil]),
                   [Signature("ss", [nil, nil], "A name and notes")]),
            action("/preset/recall",
                   "Recall a preset, fading over the preset's own time; /preset/recall/NAME recalls one on a button",
                   Signature(typeTags: "s", range: [nil], unit: [nil]), [
                       Signature("sf", [nil, fade], "A name and a fade time", units: [nil, "time.second"]),
                       Signature("ss", [nil, nil], "A name and a scope: \(scope)"),
                       Signature("sfs", [nil, fade, nil], "A name, a fade time and a scope",
                                 units: [nil, "time.second", nil]),
                   ]),
            action("/preset/undo", "Back to the scene before the last recall", .none, [
                Signature("f", [fade], "Over this fade time (not 0: a lone 0 is a button's release)",
                          units: ["time.second"]),
                Signature("ff", [fade, 0...1], "A fade time, then a button", units: ["time.second", nil]),
            ]),
            action("/preset/list", "Replies /preset/list with every preset's name"),
            action("/preset/current",
                   "Replies /preset/current with the last recalled preset and 1 if the scene changed since"),
            action("/preset/delete", "Delete a preset", Signature(typeTags: "s", range: [nil], unit: [nil]), []),
            action("/preset/rename", "Rename a preset (old name, new name)",
                   Signature(typeTags: "ss", range: [nil, nil], unit: [nil, nil]), []),
            action("/login", "Log this session in with a code from the access file: it takes the code's role",
                   Signature(typeTags: "s", range: [nil], unit: [nil]), []),
            action("/logout", "Back to the role of the address this session sends from"),
            action("/role", "Replies /role with this session's role: its name, its control (all, none or outputs), and its outputs"),
        ]
    }()

    /// What meter subscribers are sent: one peak or RMS level per channel, in dB.
    static func meterMessages(inputs: Int, outputs: Int) -> [ParameterDescription] {
        [("input", inputs), ("output", outputs)].flatMap { side, count in
            [("", "peak"), ("/rms", "RMS")].map { suffix, what in
                ParameterDescription(
                    address: "/meters/\(side)\(suffix)",
                    description: "Sent to meter subscribers: each \(side)'s \(what) level in dB (-90 = silence)",
                    signature: .init(typeTags: String(repeating: "f", count: count),
                                     range: Array(repeating: nil, count: count),
                                     unit: Array(repeating: "gain.db", count: count)),
                    access: .none, target: nil)
            }
        }
    }
}
