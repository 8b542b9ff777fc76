import CJack
import PortPatterns

/// The surfaces' hardware (`serve --surface-connect NAME=RE`,
/// docs/surfaces.md): `NAME_in` connected from every MIDI output port
/// the expression matches (`PortPattern`, as the patches match) and
/// `NAME_out` to every MIDI input port it matches, at the start and whenever ports appear; and a surface whose
/// output port is connected again after being connected to nothing is
/// reported (`Watch.surfacesJoined`), so the rig brings it up to date.
extension JackHost {
    /// Under the host's lock: whether every connection wanted is made, and
    /// the surfaces whose output port it connected to something new (each
    /// a controller that came, even one that left and came back between
    /// two looks, so that its output never seemed unconnected).
    @discardableResult
    func connectSurfaces(_ client: JackClient) -> (made: Bool, came: Set<Int>) {
        guard let surfaces = options.surfaces else { return (true, []) }
        var made = true
        var came: Set<Int> = []
        for (s, name) in surfaces.names.enumerated() {
            guard let text = options.surfaceConnect[name], let pattern = try? PortPattern(text) else { continue }
            let (input, output) = ("\(client.name):\(name)_in", "\(client.name):\(name)_out")
            let connected = client.midiConnections()
            guard s < connected.count / 2 else { continue }
            for port in client.midiPorts(flags: JackPortIsOutput)
            where pattern.matches(port) && !connected[2 * s].contains(port) {
                if client.connect(port, input) {
                    logger.info("connected \(port) -> \(input) (--surface-connect)")
                } else {
                    made = false
                }
            }
            for port in client.midiPorts(flags: JackPortIsInput)
            where pattern.matches(port) && !connected[2 * s + 1].contains(port) {
                if client.connect(output, port) {
                    came.insert(s)
                    logger.info("connected \(output) -> \(port) (--surface-connect)")
                } else {
                    made = false
                }
            }
        }
        return (made, came)
    }

    /// Under the host's lock: the surfaces whose output port has a
    /// connection now and had none at the last look, and those in `came`.
    func surfacesJoined(_ client: JackClient, came: Set<Int>, seen: inout Seen) -> [Int] {
        let connected = client.midiConnections()
        let heard = stride(from: 1, to: connected.count, by: 2).map { !connected[$0].isEmpty }
        defer { seen.surfacesHeard = heard }
        // (At a client's first look every connected surface counts as come:
        // one connected before the rig's first look is sent the full state a
        // second time, which costs a few packets; one that came between the
        // desk's subscription and that look would otherwise miss it.)
        return heard.indices.filter {
            came.contains($0) || heard[$0] && !(seen.surfacesHeard.indices.contains($0) && seen.surfacesHeard[$0])
        }
    }
}
