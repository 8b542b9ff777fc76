import Catalogue
import Delivery
import MixCore
import OSC

/// Changes: every target's arguments read and checked before anything
/// changes (`edit`), then the edits applied to the scene (`apply`), whose
/// changes for the audio thread wait with the packet's. Under the scene's lock.
extension Controller {
    /// Sets what a message with arguments names, or refuses it whole. A
    /// pattern refused whole names the first target that refused
    /// (`/source/1/* 0.5`: "/source/1/name: wrong argument type …").
    func change(_ targets: [Target], _ message: OSCMessage, from peer: OSCPeer) -> [OSCPacket] {
        var edits: [Edit] = []
        let role = role(of: peer)
        // A linked pair takes what one member is sent (Controller+Pairs.swift),
        // except where the message names the partner's place itself, and only
        // into outputs the sender's role may change.
        let named = Set(targets.compactMap { target -> Edit.Spot? in
            switch target {
            case .parameter(let number, let place, _), .delta(let number, let place, _): Edit.Spot(number: number, place: place)
            default: nil
            }
        })
        for target in targets {
            do {
                let direct = try edit(target, ArgumentReader(arguments: message.arguments))
                edits.append(direct)
                edits += try paired(direct).dropFirst().filter { mirror in
                    guard case .set(let number, let place, _, _) = mirror else { return true }
                    return !named.contains(Edit.Spot(number: number, place: place))
                        && permits(role, [.parameter(number, place, .plain)], message)
                }
            } catch {
                let named = targets.count > 1 || OSCAddressPattern.isPattern(message.address)
                return reject(message, named ? "\(addressSpace.address(target)): \(error.reason)" : error.reason, from: peer)
            }
        }
        commit(edits)
        live.log.debug("\(peer) \(message)")
        // What follows is about the sender's session, not the sound: not while rehearsing.
        guard !live.rehearsing else { return [] }
        // (Not a MIDI controller of the rig's: the surface desk subscribes it, once, at start.)
        if subscriptions.autoSubscribe, !peer.isSurface, let feedback = subscriptions.feedback {
            admit(feedback.subscribe(peer, port: nil, automatically: true), .feedback)
        }
        // A value set at one parameter's own address is not echoed to its sender.
        if targets.count == 1, case .parameter = targets[0], !OSCAddressPattern.isPattern(message.address) {
            // (Only the parameter: not the channel map, a pass over the whole matrix.)
            subscriptions.feedback?.noteOwnValue(message, from: peer, asHeld: {
                var held = Feedback()
                live.appendForms(of: targets[0], in: live.state, to: &held)
                return held
            })
        }
        return []
    }

    /// Whether a message would change anything in the rig at `target` (refused to
    /// read-only clients): a parameter or safe set, and the commands the
    /// catalogue says change the rig (`Command.Effect`).
    func changes(_ target: Target, _ message: OSCMessage) -> Bool {
        switch target {
        case .command(let name):
            switch Catalogue.command(name).effect {
            case .none: false
            case .changes: true
            case .changesWithArguments: !message.arguments.isEmpty
            }
        case .recallPreset: true
        case .touch, .current: false
        case .parameter, .delta, .safe: !message.arguments.isEmpty
        }
    }


    /// A checked change to one target, not yet applied.
    enum Edit {
        /// Parameter `number` at a place to a value, over a fade (nil: the smoothing time).
        case set(Int, Parameter.Place, Parameter.Value, fade: Float?)
        case safe(Target.Safe, Bool)
        case map([Int])

        /// A parameter at a place: what an edit sets, to tell a pair's
        /// mirror from a place the message names itself.
        struct Spot: Hashable {
            let number: Int
            let place: Parameter.Place
        }
    }

    private func edit(_ target: Target, _ args: ArgumentReader) throws(ArgumentReader.Failure) -> Edit {
        switch target {
        case .parameter(let number, let place, let form):
            let parameter = catalogue.parameters[number]
            guard parameter.isSettable else { throw ArgumentReader.Failure(reason: "read-only: the rig reports it") }
            if case .membership? = catalogue.kind(parameter.strip)?.shape { try args.member() }
            let (read, fade) = try Self.read(parameter.kind, form, args, what: parameter.name)
            if let problem = parameter.check(read) ?? live.refusal(number, read) { throw ArgumentReader.Failure(reason: problem) }
            return .set(number, place, live.latched(number, at: place, read), fade: fade)
        case .delta(let number, let place, let form):
            // From the scene's value now: deltas earlier in the bundle have moved it.
            let (step, fade) = try args.stepAndFade()
            let parameter = catalogue.parameters[number]
            let value = parameter.kind.stepped(form, from: parameter.get(live.state.scene, place), by: step)
            // A step lands where a value may (a cut's slope is 12 or 24, not 23).
            if let problem = parameter.check(value) ?? live.refusal(number, value) { throw ArgumentReader.Failure(reason: problem) }
            return .set(number, place, value, fade: fade.map(Float.init))
        case .safe(let safe):
            return .safe(safe, try args.onOff())
        case .command(.matrixMap):
            return .map(try args.channelNumbers(in: 0...live.state.scene.inputCount, atMost: live.state.scene.outputCount))
        case .current:
            throw ArgumentReader.Failure(reason: "query only")
        case .touch, .command, .recallPreset:
            // Touches and commands branch off before (an action's button is read first:
            // Controller+Buttons.swift); only a pattern mixing them with
            // parameters could come here.
            throw ArgumentReader.Failure(reason: "takes no arguments")
        }
    }

    /// A parameter's value (and fade) from the arguments, as its kind and
    /// the address's form take it (`Parameter+Forms`): a level in gain, dB
    /// or fader position, a number in its range, on/off, a text.
    static func read(_ kind: Parameter.Kind, _ form: Target.Form, _ args: ArgumentReader,
                     what: String = "name") throws(ArgumentReader.Failure) -> (Parameter.Value, Float?) {
        switch kind {
        case .level, .number:
            let range = kind.range(form) ?? 0...0
            let (number, fade) = try args.valueAndFade(in: Double(range.lowerBound)...Double(range.upperBound))
            return (kind.value(number, in: form), fade.map(Float.init))
        case .toggle:
            return (.toggle(try args.onOff()), nil)
        case .text(let maxLength):
            return (.text(try args.name(maxLength: maxLength, what: what)), nil)
        }
    }

    /// Applies edits read and checked, and stages their changes for the
    /// mixer with the packet's; the solo gates follow when a solo moved, the
    /// talk sends and dims when a talkback's setting did.
    func commit(_ edits: [Edit]) {
        var changes: [Change] = []
        // Solo gates move only when a solo does; working them out visits every source.
        let solos = edits.contains { edit in
            guard case .set(let number, _, _, _) = edit, case .soloGate = catalogue.parameters[number].kernel else { return false }
            return true
        }
        let gates = solos ? live.soloGates() : []
        // A talkback's level fades over its fade; the rest of talk moves over the smoothing.
        var talks = false, listens = false, fades: [Int: Float] = [:]
        for case .set(let number, let place, _, let fade) in edits {
            let parameter = catalogue.parameters[number]
            switch parameter.kernel {
            case .talkbacks:
                (talks, listens) = (true, true)
                if let fade, parameter.isLevel { fades[place.channel] = fade }
            case .listen: listens = true
            default: if parameter.strip == .source && ["invert", "link"].contains(parameter.name) { listens = true }
            }
        }
        let before = talks || listens ? live.state.scene : nil
        for edit in edits { apply(edit, into: &changes) }
        if solos { live.updateSoloGates(from: gates, seconds: live.smoothing, into: &changes) }
        if let before {
            if talks { live.updateTalk(from: before, fades: fades, into: &changes) }
            if listens { live.updateListen(from: before, edits: edits, into: &changes) }
        }
        live.submit(changes)
    }

    func apply(_ edit: Edit, into changes: inout [Change]) {
        switch edit {
        case .set(let number, let place, let value, let fade):
            live.set(number, at: place, to: value, seconds: fade ?? live.smoothing, into: &changes)
        case .safe(let safe, let on):
            live.setSafe(safe, on)
        case .map(let inputs):
            live.map(inputs, into: &changes)
        }
    }
}
