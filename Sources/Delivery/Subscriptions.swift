import Dispatch
import OSC

/// Whoever else is told of every change with the same messages as feedback
/// (OSCQuery's WebSocket listeners).
public protocol ChangeListeners: Sendable {
    /// Tells every listener of these messages; called under the scene's lock.
    func publish(_ messages: [OSCMessage])
    /// Whether anyone listens now.
    var isEmpty: Bool { get }
}

/// Where the rig talks back: feedback subscribers (`FeedbackHub`), meter
/// subscribers (`MeterStream`), change listeners, and later replies (a
/// preset write once on disk, a timed bundle at its time, a delayed login
/// refusal). One part of the controller, given to it whole at its start;
/// its parts keep their own state and locks.
public struct Subscriptions: Sendable {
    public var feedback: FeedbackHub?
    public var meters: MeterStream?
    public var listeners: (any ChangeListeners)?
    /// Where replies go that come after `handle` has returned. Never called
    /// under the scene's lock (a due bundle's are sent with `serial` held).
    public var reply: @Sendable (OSCPacket, OSCPeer) -> Void
    /// Whether a client that changes something is subscribed to feedback
    /// (changes from then on, not the full state), as if it had sent `/subscribe`.
    public var autoSubscribe: Bool
    /// Where subscribers' full states are made, one at a time, off the
    /// locks (`waitForFullStates` waits for those asked so far).
    package let fullStates = DispatchQueue(label: "crosspoint.full-states", qos: .utility)

    public init(feedback: FeedbackHub? = nil, meters: MeterStream? = nil, listeners: (any ChangeListeners)? = nil,
                reply: @escaping @Sendable (OSCPacket, OSCPeer) -> Void = { _, _ in }, autoSubscribe: Bool = false) {
        self.feedback = feedback
        self.meters = meters
        self.listeners = listeners
        self.reply = reply
        self.autoSubscribe = autoSubscribe
    }

    /// Whether feedback built now would reach anyone.
    package var isListening: Bool { (feedback?.count ?? 0) > 0 || !(listeners?.isEmpty ?? true) }

    /// Sends feedback to subscribers (each in the forms it takes) and
    /// listeners (every form).
    package func publish(_ feedback: Feedback) {
        self.feedback?.publish(feedback)
        listeners?.publish(feedback.messages)
    }

    /// `session` is gone: its feedback and meters end.
    package func depart(_ session: OSCPeer) {
        feedback?.depart(session)
        meters?.depart(session)
    }
}
