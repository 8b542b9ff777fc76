/// Who the OSC servers let in, and how far: asked for each sender's
/// address before anything it sent is decoded. The rig's access policy
/// (`Access`'s `AccessDoor`) is one; the transport knows only this.
public protocol Admission: Sendable {
    /// What the sender at `ip` (4 or 16 bytes) may do.
    func access(for ip: [UInt8]) -> OSCPeer.Access
    /// How many times the answers have changed (rules reloaded): a server
    /// that keeps an answer per connection asks again when it moves.
    var generation: Int { get }
}
