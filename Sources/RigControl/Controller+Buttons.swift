import Catalogue
import OSC

/// Buttons on action addresses. A TouchOSC push button sends its value on
/// press (1.0) and again on release (0.0), to whatever address it is given,
/// after any constant arguments set on it. So every action address takes
/// one trailing button argument, i, f or T/F: a press (non-zero, or T) acts
/// once, as the address without it does; a release (zero, or F) does
/// nothing, and is answered nothing.
///
/// An action with an argument of its own reads a lone number as its own
/// only where a button could not have sent it (docs/surfaces.md, Buttons;
/// the rules are the catalogue's, `Command.Button`):
///
///     /subscribe, /unsubscribe [port] [button]   1024 and up: a port (tablets
///                                                never listen on privileged ones)
///     /meters/subscribe [rate] [button]          above 1: a rate (1 Hz: /meters/rate)
///     /preset/undo [fade] [button]               not 0: a fade, so a button
///                                                sending 1.0 undoes over 1 s
///
/// With both arguments, the last is the button.
extension Controller {
    /// The button rule of an action address (`Command.button`, from the
    /// catalogue); nil for everything else (parameters, and commands whose
    /// arguments are not a button's).
    static func buttonRule(_ target: Target) -> Command.Button? {
        switch target {
        case .command(let name): Catalogue.command(name).button
        case .recallPreset: .plain
        case .parameter, .delta, .touch, .current, .safe: nil
        }
    }

    /// The message as an action acts on it, once its button is read: without
    /// the button when pressed; nil when released, for nothing is to be done.
    /// A message without a button, or to anything but actions, comes back as
    /// it is. (A pattern naming several actions reads them by the first's rule.)
    static func pressed(_ message: OSCMessage, on targets: [Target]) throws(ArgumentReader.Failure) -> OSCMessage? {
        guard let first = targets.first, let rule = buttonRule(first),
              targets.allSatisfy({ buttonRule($0) != nil }) else { return message }
        let arguments = message.arguments
        let owns = rule.own == nil ? 0 : 1
        guard arguments.count <= owns + 1 else {
            throw ArgumentReader.Failure(reason: "expected \(rule.usage), got \(arguments.count) arguments")
        }
        let loneButton = arguments.count == 1 && owns == 1 && !(rule.own?.isOwn(arguments[0].number) ?? false)
        guard arguments.count == owns + 1 || loneButton else { return message }
        guard try ArgumentReader(arguments: arguments).isPressed(at: arguments.count - 1) else { return nil }
        return OSCMessage(message.address, Array(arguments.dropLast()))
    }
}
