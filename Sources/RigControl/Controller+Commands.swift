import Delivery
import Catalogue
import OSC

/// The handlers of the catalogue's commands (`Catalogue+Commands.swift`),
/// by name: each reads its arguments (the button already read:
/// Controller+Buttons.swift) and answers. The address, the forms, who may
/// send it and whether a timed bundle rehearses it are the table's.
extension Controller {
    /// Runs a command the message names first; nil for those the general
    /// path answers as queries or sets as values (`/status`, `/ping`,
    /// `/matrix/clear` on a press, `/matrix/map`).
    func run(_ name: Command.Name, _ targets: [Target], _ message: OSCMessage, from peer: OSCPeer) -> [OSCPacket]? {
        switch name {
        case .login, .logout, .role:
            guard targets.count == 1 else { return reject(message, "\(name.address) takes no patterns", from: peer) }
            return roleMessage(name, message, from: peer)
        case .metersSubscribe, .metersUnsubscribe:
            return meterSubscription(name == .metersSubscribe, ArgumentReader(arguments: message.arguments), message,
                                     from: peer)
        case .metersRate:
            return meterRate(message, from: peer)
        case .subscribe, .unsubscribe:
            return subscription(name == .subscribe, ArgumentReader(arguments: message.arguments), message, from: peer)
        case .subscribeForms:
            return subscriptionInForms(message, from: peer)
        case .presetSave, .presetRecall, .presetUndo, .presetList, .presetCurrent, .presetDelete, .presetRename,
             .presetUnreadable:
            guard targets.count == 1 else { return reject(message, "preset commands take no patterns", from: peer) }
            do throws(ArgumentReader.Failure) {
                return try presets.run(name, ArgumentReader(arguments: message.arguments), from: peer)
            } catch {
                return reject(message, error.reason, from: peer)
            }
        case .jackPorts, .rigs:
            // What the rig sees around it: the other JACK clients' ports, the other rigs.
            guard targets.count == 1 else { return reject(message, "\(name.address) takes no patterns", from: peer) }
            do throws(ArgumentReader.Failure) {
                try ArgumentReader(arguments: message.arguments).none()
            } catch {
                return reject(message, error.reason, from: peer)
            }
            return [.message(name == .rigs ? otherRigs.message() : jack.portsMessage())]
        case .rigInputs, .rigOutputs:
            return message.arguments.isEmpty ? nil : resize(name, targets, message, from: peer)
        case .stateNoteAck:
            return acknowledgeStateNote()
        case .midiLearn, .midiForget:
            return midiLearn(name, targets, message, from: peer)
        case .matrixMap, .matrixClear, .listenClear, .status, .ping:
            return nil
        }
    }

    /// `/subscribe [i port]`: feedback to the sender's host at `port` (or to
    /// where it sends from), starting with the whole state. `/unsubscribe [i port]` ends it.
    /// (A number below 1024 is a button's, read before: Controller+Buttons.swift.)
    func subscription(_ subscribe: Bool, _ args: ArgumentReader, _ message: OSCMessage,
                              from peer: OSCPeer) -> [OSCPacket] {
        guard let feedback = subscriptions.feedback else { return reject(message, "feedback is not available", from: peer) }
        var port: Int?
        do {
            if let number = try args.optionalNumber(in: Catalogue.subscriberPorts, usage: "[port]") { port = Int(number) }
        } catch {
            return reject(message, error.reason, from: peer)
        }
        if subscribe {
            self.subscribe(peer, port: port, levelForms: nil, through: feedback)
        } else {
            sessions.end(feedback.unsubscribe(peer, port: port), .feedback)
        }
        return []
    }

    /// `/subscribe/forms s FORMS [i port]`: as `/subscribe`, with each level
    /// only in the forms FORMS names ("linear", "linear,fader"): a page or a
    /// layout that reads one form is not sent three.
    func subscriptionInForms(_ message: OSCMessage, from peer: OSCPeer) -> [OSCPacket] {
        guard let feedback = subscriptions.feedback else { return reject(message, "feedback is not available", from: peer) }
        let usage = "forms [port]"
        let arguments = message.arguments
        guard (1...2).contains(arguments.count) else {
            return reject(message, "expected \(usage), got \(arguments.count) arguments", from: peer)
        }
        guard case .string(let list) = arguments[0] else {
            return reject(message, "wrong argument type '\(arguments[0].typeTag)' at 1, expected a string (\(usage))", from: peer)
        }
        guard let forms = Parameter.Form.levelForms(named: list) else {
            return reject(message, "expected a comma-separated list of \(Parameter.Form.levelFormNames) "
                          + "(got \"\(list.cut(to: 64))\")", from: peer)
        }
        var port: Int?
        do {
            let rest = ArgumentReader(arguments: Array(arguments.dropFirst()))
            if let number = try rest.optionalNumber(in: Catalogue.subscriberPorts, usage: "[port]") { port = Int(number) }
        } catch {
            return reject(message, error.reason, from: peer)
        }
        subscribe(peer, port: port, levelForms: forms, through: feedback)
        return []
    }

    /// Subscribes `peer` (at `port` of its host) and sends its full state.
    /// Another machine's port that did not ask itself gets changes at once
    /// and its full state once shown alive (docs/access.md, "Reflection");
    /// its own port, a stream, or this machine's: at once.
    private func subscribe(_ peer: OSCPeer, port: Int?, levelForms: Set<Parameter.Form>?, through feedback: FeedbackHub) {
        let destination = FeedbackHub.destination(peer, port: port)
        if port != nil && !destination.isSamePath(as: peer) && !destination.address.isThisMachine {
            admit(feedback.subscribeAwaitingProof(peer, port: port, levelForms: levelForms), .feedback)
            return
        }
        let (subscribed, subscription) = feedback.subscribeForFullState(peer, port: port, levelForms: levelForms)
        admit(subscribed, .feedback)
        sendFullState(to: subscribed, subscription: subscription, levelForms: levelForms, through: feedback)
    }

    /// Queues the whole state for a subscriber. The full state (200,000
    /// messages at 256x256, a fifth of a second to make) is made from a copy
    /// of the state, off the lock: other clients' messages do not wait for
    /// it, and the hub holds this subscriber's feedback until it is queued,
    /// so that what changes meanwhile wins. Under the scene's lock.
    func sendFullState(to destination: OSCPeer, subscription: Int, levelForms: Set<Parameter.Form>?,
                       through feedback: FeedbackHub) {
        let copy = live.state
        // The size first: a page builds its strips from it.
        let targets = [.command(.rigInputs), .command(.rigOutputs)]
            + live.allParameters(inputs: copy.scene.inputCount, outputs: copy.scene.outputCount)
        let live = live
        subscriptions.fullStates.async {
            feedback.publishFullState(live.feedbackMessages(for: targets, in: copy, levelForms: levelForms).messages, to: destination,
                                      subscription: subscription)
        }
    }

    /// `/meters/subscribe [f rate]` (default 20 Hz, at most 60): meters to
    /// where the sender sends from. `/meters/unsubscribe` ends them.
    /// (A rate of 1 or less is a button's, read before: Controller+Buttons.swift.)
    func meterSubscription(_ subscribe: Bool, _ args: ArgumentReader, _ message: OSCMessage,
                                   from peer: OSCPeer) -> [OSCPacket] {
        guard let meters = subscriptions.meters else { return reject(message, "meters are not available", from: peer) }
        guard subscribe else {
            meters.unsubscribe(peer)
            sessions.end(peer, .meters)
            return []
        }
        guard args.arguments.count <= 1 else {
            return reject(message, "expected [rate], got \(args.arguments.count) arguments", from: peer)
        }
        do {
            let rate = args.arguments.isEmpty ? Catalogue.defaultMeterRate : try args.number(at: 0)
            meters.subscribe(peer, rate: min(max(rate, Catalogue.meterRates.lowerBound), Catalogue.meterRates.upperBound))
            admit(peer, .meters)
        } catch {
            return reject(message, error.reason, from: peer)
        }
        return []
    }


    /// `/meters/rate f RATE`: meters to the sender at RATE per second, 1…60,
    /// whether or not it was subscribed (a new rate replaces the old). Unlike
    /// `/meters/subscribe`, which clamps, a rate outside the range is refused:
    /// nothing here can be a button's value, so a wrong number is a mistake.
    func meterRate(_ message: OSCMessage, from peer: OSCPeer) -> [OSCPacket] {
        guard let meters = subscriptions.meters else { return reject(message, "meters are not available", from: peer) }
        do {
            meters.subscribe(peer, rate: try Self.meterRate(ArgumentReader(arguments: message.arguments)))
            admit(peer, .meters)
        } catch {
            return reject(message, error.reason, from: peer)
        }
        return []
    }

    private static func meterRate(_ args: ArgumentReader) throws(ArgumentReader.Failure) -> Double {
        guard args.arguments.count == 1 else {
            throw ArgumentReader.Failure(reason: "expected 1 argument (rate per second), got \(args.arguments.count)")
        }
        let rate = try args.number(at: 0)
        guard Catalogue.meterRates.contains(rate) else {
            throw ArgumentReader.Failure(reason: "rate \(rate) out of range (\(Int(Catalogue.meterRates.lowerBound))-\(Int(Catalogue.meterRates.upperBound)))")
        }
        return rate
    }

    /// Waits until every preset write queued so far is on disk (or has
    /// failed) and answered: at shutdown, and in tests.
    public func waitForPresetWrites() {
        presets.store.waitForWrites()
    }
}
