import Catalogue
import MixCore
import OSC
import Presets

/// One address of the rig described for discovery (OSCQuery): its argument
/// types, range and meaning, and which value it shows. Derived from the
/// catalogue once; values are read separately (`value(_:in:)`), when asked.
public struct ParameterDescription: Sendable {
    /// One way of calling an address (the catalogue's).
    public typealias Signature = Command.Signature

    /// What a client may do with the address's value: read and set a
    /// parameter's; only read one the rig reports (presence); an action or a
    /// message the rig sends has none (OSCQuery's `ACCESS` 0: "no value
    /// associated", though it takes arguments).
    public enum Access: Sendable { case readWrite, readOnly, none }

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
        let state = live.snapshot()
        let (inputs, outputs) = (state.scene.inputCount, state.scene.outputCount)
        let parameters = live.allParameters(inputs: inputs, outputs: outputs)
        for target in parameters {
            for form in addressSpace.allForms(target) { body(describe(form)) }
        }
        for command in Catalogue.commands(inputs: inputs, outputs: outputs) {
            body(ParameterDescription(address: command.address, description: command.description,
                                      signature: command.signature, overloads: command.overloads,
                                      access: command.hasValue ? .readWrite : .none,
                                      target: command.hasValue ? .command(command.name) : nil))
        }
        Self.meterMessages(inputs: inputs, outputs: outputs).forEach(body)
    }

    /// A parameter's value as `target` shows it, in the rig state `state`
    /// (a copy taken under the lock, `stateNow()`): for answering without
    /// holding it. Nil for a channel the state does not have (a namespace
    /// described before the rig shrank may still ask for one).
    public func value(_ target: Target, in state: RigState) -> [OSCArgument]? {
        guard LiveScene.fits(target, inputs: state.scene.inputCount, outputs: state.scene.outputCount) else { return nil }
        return live.value(target, in: state)
    }

    /// The rig state now, to read values from without the lock.
    public func stateNow() -> RigState { live.snapshot() }

    private func describe(_ target: Target) -> ParameterDescription {
        guard case .parameter(let number, let place, let form) = target else {
            var what = ""
            if case .safe(let safe) = target, let recall = catalogue.safe(safe.kind),
               let place = catalogue.kind(recall.strip)?.place(safe.channel, 0) {
                what = place.titled(recall.description)
            }
            return ParameterDescription(address: addressSpace.address(target), description: what,
                                        signature: .toggle, access: .readWrite, target: target)
        }
        let kind = catalogue.parameters[number].kind
        let range = kind.range(form).map { Double($0.lowerBound)...Double($0.upperBound) }
        return ParameterDescription(
            address: addressSpace.address(target),
            description: "\(place.title) \(catalogue.parameters[number].description)\(kind.formNote(form))",
            signature: .init(typeTags: String(kind.typeTag), range: [range], unit: [kind.unit(form)]),
            access: catalogue.parameters[number].isSettable ? .readWrite : .readOnly, target: target)
    }
}

extension Controller {
    /// What meter subscribers are sent: one peak or RMS level per channel,
    /// in dB (the catalogue's meter replies).
    static func meterMessages(inputs: Int, outputs: Int) -> [ParameterDescription] {
        Catalogue.replies.compactMap { reply in
            guard case .perChannel = reply.arguments else { return nil }
            let tags = reply.typeTags(inputs: inputs, outputs: outputs)
            return ParameterDescription(
                address: reply.address, description: reply.description,
                signature: .init(typeTags: tags, range: Array(repeating: nil, count: tags.count),
                                 unit: Array(repeating: "gain.db", count: tags.count)),
                access: .none, target: nil)
        }
    }
}
