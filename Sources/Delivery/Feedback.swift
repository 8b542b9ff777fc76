import Catalogue
import OSC

/// Feedback messages, each with the form it writes its value in: a level's
/// form (linear, dB, fader position) or plain. A subscriber that asked for
/// some forms of levels only (`/subscribe/forms`) is sent just those;
/// plain values go to everyone.
public struct Feedback: Sendable {
    public private(set) var messages: [OSCMessage] = []
    public private(set) var forms: [Parameter.Form] = []

    public init() {}

    /// Messages that are not a level's (status, ports, presets).
    public init(plain messages: [OSCMessage]) {
        self.messages = messages
        self.forms = Array(repeating: .plain, count: messages.count)
    }

    public mutating func append(_ message: OSCMessage, form: Parameter.Form) {
        messages.append(message)
        forms.append(form)
    }

    public mutating func reserveCapacity(_ count: Int) {
        messages.reserveCapacity(count)
        forms.reserveCapacity(count)
    }

    public var isEmpty: Bool { messages.isEmpty }
    public var count: Int { messages.count }
}
