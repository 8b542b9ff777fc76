import CJack
import Logging
import PortPatterns
import SystemSupport

/// The supervisor's watch over what feeds the sources: the input patches
/// (`Patchbay`), `--connect-inputs` and `--connect-outputs` for ports that
/// appear after the start, each source's presence, and the other clients' ports. It runs on the
/// supervisor's thread when JACK said a port came or went or a connection
/// changed (the callbacks only set atomics), or the patches changed: within
/// 100 ms of a client registering its ports.
extension JackHost {
    /// What the supervisor asks the rig and tells it (`supervise(_:)`).
    public struct Watch: Sendable {
        /// The sources' and outputs' names, for the ports' aliases; each
        /// source's input patch ("" none) and whether it is linked.
        public var scene: @Sendable () -> Scene
        /// Told which sources a port is connected to, when that changes.
        public var presence: @Sendable ([Bool]) -> Void
        /// Told the other clients' output ports, in JACK's order, when they change.
        public var ports: @Sendable ([String]) -> Void
        /// Asked to give clients free sources (`--auto-sources`).
        public var claim: @Sendable ([Claim]) -> Void

        /// What the supervisor reads of the rig's scene: also which
        /// sources have a direct out (a port `direct_n`).
        public struct Scene: Equatable, Sendable {
            public var inputs: [String], outputs: [String], patches: [String], links: [Bool], directs: [Bool]
            public init(inputs: [String] = [], outputs: [String] = [], patches: [String] = [], links: [Bool] = [],
                        directs: [Bool] = []) {
                (self.inputs, self.outputs, self.patches, self.links, self.directs) = (inputs, outputs, patches, links, directs)
            }
        }

        public init(scene: @escaping @Sendable () -> Scene = { Scene() },
                    presence: @escaping @Sendable ([Bool]) -> Void = { _ in },
                    ports: @escaping @Sendable ([String]) -> Void = { _ in },
                    claim: @escaping @Sendable ([Claim]) -> Void = { _ in }) {
            self.scene = scene
            self.presence = presence
            self.ports = ports
            self.claim = claim
        }
    }

    /// What the last look found, to tell the rig only what changed; made
    /// anew for each client (a server restart drops every connection).
    struct Seen {
        var client: ObjectIdentifier?
        var ports: [String]?
        var presence: [Bool]?
        var patches: [String] = []
        var links: [Bool] = []
        var patchbay = Patchbay()
        /// Clients that took sources (auto sources), and those logged as having nowhere to go.
        var claimed: Set<String> = []
        var unplaced: Set<String> = []
        /// Sources (0-based) given to a client whose patch the rig has not shown yet.
        var taken: Set<Int> = []
    }

    /// With no server: nothing feeds any source and there are no ports to
    /// patch (said once, when the server goes).
    func lostFeeds(_ seen: inout Seen) -> Report {
        var report = Report()
        if let presence = seen.presence, presence.contains(true) {
            seen.presence = presence.map { _ in false }
            report.presence = seen.presence
        }
        if let ports = seen.ports, !ports.isEmpty {
            seen.ports = []
            report.ports = []
        }
        return report
    }

    /// What a look found that the rig is to be told (outside JACK's lock:
    /// the rig's lock comes first).
    struct Report {
        var ports: [String]?
        var presence: [Bool]?
        var claims: [Claim] = []
    }

    /// Looks again if JACK or the patches changed: connects what the
    /// patches and `--connect-inputs` want, takes away what a patch made
    /// and no longer wants, and reports presence and ports.
    func watchFeeds(_ client: JackClient, patches: [String], links: [Bool], seen: inout Seen) -> Report {
        var report = Report()
        if seen.client != ObjectIdentifier(client) {
            // A new client (the server came back): the connections restored
            // for it include the patches' own, which stay theirs.
            seen = Seen(client: ObjectIdentifier(client), patchbay: seen.patchbay)
        }
        let portsChanged = context.portsChanged.exchange(false, ordering: .relaxed)
        let connectionsChanged = context.feedsChanged.exchange(false, ordering: .relaxed)
        guard portsChanged || connectionsChanged || patches != seen.patches || links != seen.links || seen.presence == nil
        else { return report }
        (seen.patches, seen.links) = (patches, links)
        let ports = client.otherOutputPorts()
        if ports != seen.ports {
            seen.ports = ports
            report.ports = ports
        }
        var feeds = client.inputFeeds()
        if portsChanged || seen.presence == nil {
            report.claims = claimSources(ports: ports, patches: patches, feeds: feeds, seen: &seen)
        }
        let (connect, disconnect) = seen.patchbay.plan(patches: patches, links: links, ports: ports, feeds: feeds)
        for feed in disconnect {
            let ours = "\(client.name):in_\(feed.source)"
            if client.disconnect(feed.port, ours) { logger.info("patch of source \(feed.source): disconnected \(feed.port) -> \(ours)") }
        }
        for feed in connect {
            let ours = "\(client.name):in_\(feed.source)"
            if client.connect(feed.port, ours) {
                logger.info("patch of source \(feed.source): connected \(feed.port) -> \(ours)")
            } else {
                seen.patchbay.failed(feed)
                logger.warning("patch of source \(feed.source): could not connect \(feed.port) -> \(ours)")
            }
        }
        if portsChanged || seen.presence == nil {
            connectLateInputs(client, ports: ports, feeds: feeds)
            connectLateOutputs(client)
        }
        if !connect.isEmpty || !disconnect.isEmpty || portsChanged { feeds = client.inputFeeds() }
        let presence = feeds.map { !$0.isEmpty }
        if presence != seen.presence {
            seen.presence = presence
            report.presence = presence
        }
        return report
    }

    /// `--connect-inputs` for ports that appeared after the start: the k-th
    /// matching port feeds input k, as at the start; a pair already
    /// connected is left as it is, and nothing is disconnected.
    private func connectLateInputs(_ client: JackClient, ports: [String], feeds: [Set<String>]) {
        guard let text = options.connectInputs, let pattern = try? PortPattern(text) else { return }
        let matching = ports.filter { pattern.matches($0) }
        for (index, port) in matching.prefix(feeds.count).enumerated() where !feeds[index].contains(port) {
            let ours = "\(client.name):in_\(index + 1)"
            if client.connect(port, ours) { logger.info("connected \(port) -> \(ours) (--connect-inputs)") }
        }
    }

    /// `--connect-outputs` for ports that appeared after the start (a
    /// network link's send ports, a recorder started later): output k feeds
    /// the k-th matching input port, as at the start; a pair already
    /// connected is left as it is, and nothing is disconnected.
    private func connectLateOutputs(_ client: JackClient) {
        guard let text = options.connectOutputs, let pattern = try? PortPattern(text) else { return }
        let sends = client.outputSends()
        let matching = client.otherInputPorts().filter { pattern.matches($0) }
        for (index, port) in matching.prefix(sends.count).enumerated() where !sends[index].contains(port) {
            let ours = "\(client.name):out_\(index + 1)"
            if client.connect(ours, port) { logger.info("connected \(ours) -> \(port) (--connect-outputs)") }
        }
    }
}
