import Delivery
import OSC

/// Touch: a tablet says when a finger is on a control (TouchOSC's
/// `ADDRESS/z 1` and `0`; `ADDRESS/touch` for others), so that feedback for
/// that parameter never pulls the control from under the finger. Other
/// sessions get feedback as usual; on release the toucher gets the
/// parameter's value once, where it stands then.
extension Controller {
    /// `ADDRESS/z` or `ADDRESS/touch` with i, f or T/F (non-zero: touched).
    /// No reply: a tablet sends these at every touch.
    func touch(_ targets: [Target], _ message: OSCMessage, from peer: OSCPeer) -> [OSCPacket] {
        let touched: Bool
        do {
            touched = try ArgumentReader(arguments: message.arguments).onOff()
        } catch {
            return reject(message, error.reason, from: peer)
        }
        guard let feedback = subscriptions.feedback else { return [] }
        for target in targets {
            guard case .touch(let number, let touchedPlace, _) = target else { continue }
            // A linked pair's member holds its partner too (Controller+Pairs.swift).
            for place in pairedPlaces(number, touchedPlace) {
                var values = Feedback()
                for target in addressSpace.allForms(.parameter(number, place, .plain)) {
                    guard case .parameter(_, _, let form) = target, let value = live.movingValue(target) else { continue }
                    values.append(OSCMessage(addressSpace.address(target), value), form: form)
                }
                feedback.touch(values, by: peer, touched: touched)
            }
        }
        return []
    }
}
