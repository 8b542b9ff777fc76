import CJack
import Logging
import PortPatterns
import SystemSupport

/// The supervisor's watch over what feeds the sources: the input patches
/// (`Patchbay`), `--connect-inputs`, `--connect-outputs` and
/// `--connect-talkbacks` for ports that appear after the start, each source's presence, and the other clients' ports. It runs on the
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
        /// Told which surfaces (by place in `Options.surfaces`) have their
        /// output port connected again after it was connected to nothing:
        /// their hardware came (back).
        public var surfacesJoined: @Sendable ([Int]) -> Void = { _ in }
        /// Told the other clients' output ports, in JACK's order, when they change.
        public var ports: @Sendable ([String]) -> Void
        /// Asked to give clients free sources (`--auto-sources`).
        public var claim: @Sendable ([Claim]) -> Void

        /// What the supervisor reads of the rig's scene: also which
        /// sources have a direct out (a port `direct_n`), and how late each
        /// output is, in ms (its limiter's lookahead while on: its latency).
        public struct Scene: Equatable, Sendable {
            public var inputs: [String], outputs: [String], patches: [String], links: [Bool], directs: [Bool]
            public var lookaheads: [Float]
            public init(inputs: [String] = [], outputs: [String] = [], patches: [String] = [], links: [Bool] = [],
                        directs: [Bool] = [], lookaheads: [Float] = []) {
                (self.inputs, self.outputs, self.patches, self.links, self.directs) = (inputs, outputs, patches, links, directs)
                self.lookaheads = lookaheads
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
        /// Per surface, whether its output port was connected at the last look of this client.
        var surfacesHeard: [Bool] = []
        /// A `--surface-connect` connection failed (JACK refuses one to a
        /// client that registered its port but is not active yet): the
        /// supervisor looks again at its next turn.
        var surfacesPending = false
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
        var surfacesJoined: [Int] = []
    }

    /// What the supervisor read of JACK, under the host's lock, for the
    /// patterns' work to be done outside it (`plan`): the other clients'
    /// output ports and what feeds each source; when ports came or went,
    /// also the other clients' input ports and what each output feeds.
    struct Survey {
        let client: JackClient
        let ports: [String]
        let feeds: [Set<String>]
        /// Ports came or went (or this is the first look at this client).
        let portsChanged: Bool
        let late: (inputPorts: [String], sends: [Set<String>], talks: [Set<String>], listen: [Set<String>])?
    }

    /// What to connect and disconnect, worked out from a survey without
    /// any lock: every pattern is compiled and matched here.
    struct Plan {
        var connect: [Patchbay.Feed] = []
        var disconnect: [Patchbay.Feed] = []
        /// `--connect-inputs`, `--connect-outputs`, `--connect-talkbacks` and
        /// `--connect-listen` for ports that appeared after the start: by
        /// flag, our port's number (1-based) and the other client's port.
        var lateInputs: [(number: Int, port: String)] = []
        var lateOutputs: [(number: Int, port: String)] = []
        var lateTalks: [(number: Int, port: String)] = []
        var lateListen: [(number: Int, port: String)] = []
    }

    /// Under the host's lock: reads JACK if JACK or the patches changed
    /// since the last look; nil if nothing did.
    func survey(_ client: JackClient, patches: [String], links: [Bool], seen: inout Seen) -> Survey? {
        if seen.client != ObjectIdentifier(client) {
            // A new client (the server came back): the connections restored
            // for it include the patches' own, which stay theirs.
            seen = Seen(client: ObjectIdentifier(client), patchbay: seen.patchbay)
        }
        let portsChanged = context.portsChanged.exchange(false, ordering: .relaxed)
        let connectionsChanged = context.feedsChanged.exchange(false, ordering: .relaxed)
        guard portsChanged || connectionsChanged || seen.surfacesPending || patches != seen.patches || links != seen.links || seen.presence == nil
        else { return nil }
        let late = portsChanged || seen.presence == nil
        (seen.patches, seen.links) = (patches, links)
        return Survey(client: client, ports: client.otherOutputPorts(), feeds: client.inputFeeds(), portsChanged: late,
                      late: late ? (client.otherInputPorts(), client.outputSends(), client.talkFeeds(), client.listenSends()) : nil)
    }

    /// Without a lock: the sources clients take (`--auto-sources`), what the
    /// patches want connected and disconnected, and what `--connect-inputs`
    /// and `--connect-outputs` want of ports that appeared after the start
    /// (the k-th matching port feeds input k, output k feeds the k-th
    /// matching input port, as at the start; a pair already connected is
    /// left as it is, and nothing is disconnected).
    func plan(_ survey: Survey, patches: [String], links: [Bool], seen: inout Seen, report: inout Report) -> Plan {
        if survey.ports != seen.ports {
            seen.ports = survey.ports
            report.ports = survey.ports
        }
        if survey.portsChanged {
            report.claims = claimSources(ports: survey.ports, patches: patches, feeds: survey.feeds, seen: &seen)
        }
        var plan = Plan()
        (plan.connect, plan.disconnect) = seen.patchbay.plan(patches: patches, links: links, ports: survey.ports,
                                                             feeds: survey.feeds)
        if let late = survey.late {
            plan.lateInputs = Self.late(options.connectInputs, survey.ports, survey.feeds)
            plan.lateOutputs = Self.late(options.connectOutputs, late.inputPorts, late.sends)
            plan.lateListen = Self.late(options.connectListen, late.inputPorts, late.listen)
            plan.lateTalks = Self.late(options.connectTalkbacks, survey.ports, late.talks)
        }
        return plan
    }

    /// What a `--connect-…` pattern wants of ports that appeared later: the
    /// k-th of `candidates` it matches for our k-th port (of as many as
    /// `connected` lists), where the two are not connected yet.
    static func late(_ text: String?, _ candidates: [String], _ connected: [Set<String>]) -> [(number: Int, port: String)] {
        guard let text, let pattern = try? PortPattern(text) else { return [] }
        let matching = candidates.filter { pattern.matches($0) }
        return matching.prefix(connected.count).enumerated().compactMap { index, port in
            connected[index].contains(port) ? nil : (index + 1, port)
        }
    }

    /// Under the host's lock: makes the connections a plan wants, and
    /// reports which sources anything feeds now.
    func carry(_ plan: Plan, of survey: Survey, seen: inout Seen, report: inout Report) {
        let client = survey.client
        for feed in plan.disconnect {
            let ours = "\(client.name):in_\(feed.source)"
            if client.disconnect(feed.port, ours) { logger.info("patch of source \(feed.source): disconnected \(feed.port) -> \(ours)") }
        }
        for feed in plan.connect {
            let ours = "\(client.name):in_\(feed.source)"
            if client.connect(feed.port, ours) {
                logger.info("patch of source \(feed.source): connected \(feed.port) -> \(ours)")
            } else {
                seen.patchbay.failed(feed)
                logger.warning("patch of source \(feed.source): could not connect \(feed.port) -> \(ours)")
            }
        }
        for (late, prefix, inbound, flag) in [(plan.lateInputs, "in_", true, "--connect-inputs"),
                                              (plan.lateOutputs, "out_", false, "--connect-outputs"),
                                              (plan.lateListen, "listen_", false, "--connect-listen"),
                                              (plan.lateTalks, "talk_", true, "--connect-talkbacks")] {
            for (number, port) in late {
                let ours = "\(client.name):\(prefix)\(number)"
                let (from, to) = inbound ? (port, ours) : (ours, port)
                if client.connect(from, to) { logger.info("connected \(from) -> \(to) (\(flag))") }
            }
        }
        var came: Set<Int> = []
        if survey.portsChanged || seen.surfacesPending {
            let surfaces = connectSurfaces(client)
            (seen.surfacesPending, came) = (!surfaces.made, surfaces.came)
        }
        report.surfacesJoined = surfacesJoined(client, came: came, seen: &seen)
        let touched = !plan.connect.isEmpty || !plan.disconnect.isEmpty || !plan.lateInputs.isEmpty || survey.portsChanged
        let feeds = touched ? client.inputFeeds() : survey.feeds
        let presence = feeds.map { !$0.isEmpty }
        if presence != seen.presence {
            seen.presence = presence
            report.presence = presence
        }
    }
}
