import OSC

/// Buttons on action addresses. A TouchOSC push button sends its value on
/// press (1.0) and again on release (0.0), to whatever address it is given,
/// after any constant arguments set on it. So every action address takes
/// one trailing button argument, i, f or T/F: a press (non-zero, or T) acts
/// once, as the address without it does; a release (zero, or F) does
/// nothing, and is answered nothing.
///
/// An action with an argument of its own reads a lone number as its own
/// only where a button could not have sent it (docs/surfaces.md, Buttons):
///
///     /subscribe, /unsubscribe [port] [button]   1024 and up: a port (tablets
///                                                never listen on privileged ones)
///     /meters/subscribe [rate] [button]          above 1: a rate (1 Hz: /meters/rate)
///     /preset/undo [fade] [button]               not 0: a fade, so a button
///                                                sending 1.0 undoes over 1 s
///
/// With both arguments, the last is the button.
extension Controller {
    /// How an action reads its arguments around a button.
    struct ButtonRule {
        /// The action's own argument, which may come before the button: its
        /// name in the `/error` reason, and whether a lone argument is it
        /// rather than a button value. Nil: the action has none.
        var own: (usage: String, isOwn: (OSCArgument) -> Bool)?

        var usage: String { own.map { "\($0.usage) [button]" } ?? "[button]" }
    }

    /// The button rule of an action address; nil for everything else
    /// (parameters, and commands whose arguments are not a button's).
    static func buttonRule(_ target: Target) -> ButtonRule? {
        switch target {
        case .subscribe, .unsubscribe:
            ButtonRule(own: ("[port]", { ($0.number ?? 0) >= 1024 }))
        case .metersSubscribe:
            ButtonRule(own: ("[rate]", { ($0.number ?? 0) > 1 }))
        case .preset(.undo):
            // NaN counts as a fade, to be refused as one.
            ButtonRule(own: ("[fade]", { $0.number.map { $0 != 0 } ?? false }))
        case .matrixClear, .status, .ping, .metersUnsubscribe, .preset(.list), .preset(.current), .recallPreset,
             .logout, .role:
            ButtonRule(own: nil)
        case .parameter, .delta, .touch, .current, .matrixMap, .safe, .metersRate, .preset, .login:
            nil
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
        let loneButton = arguments.count == 1 && owns == 1 && !(rule.own?.isOwn(arguments[0]) ?? false)
        guard arguments.count == owns + 1 || loneButton else { return message }
        guard try ArgumentReader(arguments: arguments).isPressed(at: arguments.count - 1) else { return nil }
        return OSCMessage(message.address, Array(arguments.dropLast()))
    }
}
