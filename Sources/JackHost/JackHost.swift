import CJack
import MIDI
import Dispatch
import FoundationEssentials
import Logging
import MixCore
import Synchronization
import SystemSupport

/// Keeps the mixer running in JACK: opens the client, connects its ports,
/// and when the server goes away waits for one to come back and restores
/// ports and connections. The scene lives in the mixer, so it survives.
public final class JackHost: @unchecked Sendable {
    public struct Options: Sendable {
        public var clientName = "crosspoint"
        /// nil: JACK_DEFAULT_SERVER or "default".
        public var serverName: String?
        /// Regular expressions for the ports to connect ours to, in order.
        public var connectInputs: String?
        public var connectOutputs: String?
        /// Clients whose names match take free sources (`JackHost+Patches.swift`).
        public var autoSources: String?
        /// The talkbacks: how many (an input port `talk_t` each), and a
        /// regular expression for the ports to connect them to, in order.
        public var talkbacks = 0
        public var connectTalkbacks: String?
        /// The listen's ports (`serve --listen`), and a regular expression
        /// for the ports to connect them to, in order.
        public var listen = false
        public var connectListen: String?
        /// The MIDI surfaces' rings (`serve --midi`): a MIDI input port
        /// `NAME_in` and output port `NAME_out` each; nil: none.
        public var surfaces: SurfaceWires?
        /// Per surface name, a regular expression for the hardware's MIDI
        /// ports: `NAME_in` is connected from the output ports it matches,
        /// `NAME_out` to the input ports, whenever they appear (`--surface-connect`).
        public var surfaceConnect: [String: String] = [:]
        /// Start a server when none is running, so; nil: never.
        public var autostart: Autostart? = Autostart()

        public init() {}
    }

    /// The server started when none runs (`serve --autostart-…`): its
    /// backend and, for it, the device (alsa: `hw:0` unless given), the
    /// period in frames and the sample rate.
    public struct Autostart: Sendable, Equatable {
        public var driver = "dummy"
        public var device: String?
        public var period = 64
        public var rate = 48_000

        public init(driver: String = "dummy", device: String? = nil, period: Int = 64, rate: Int = 48_000) {
            self.driver = driver
            self.device = device
            self.period = period
            self.rate = rate
        }
    }

    let options: Options
    private let mixer: Mixer
    let logger: Logger
    let context: ProcessContext
    private let state = Mutex<State>(State())
    /// Wakes the supervisor before its 100 ms are up (`nudge`).
    private let wake = DispatchSemaphore(value: 0)
    private let startTime = ContinuousClock.now

    private struct State {
        var client: JackClient?
        var server: JackServerProcess?
        /// Our connections as last seen, kept to restore after a server restart.
        var connections: [(ours: String, theirs: String)] = []
        /// Connections still to restore, and until when to keep trying.
        var restoring: [(ours: String, theirs: String)] = []
        var restoreDeadline = ContinuousClock.now
        var stopping = false
    }

    public init(mixer: Mixer, options: Options, logger: Logger) {
        self.mixer = mixer
        self.options = options
        self.logger = logger
        context = ProcessContext(mixer: mixer, talkbacks: options.talkbacks, listen: options.listen,
                                 surfaces: options.surfaces)
        _ = JackMessages.shared // made here, never lazily on the process thread
        jack_set_error_function(JackHost.jackMessage)
        jack_set_info_function(JackHost.jackMessage)
    }

    /// Connects to JACK (starting a server if allowed and needed) and
    /// applies the `--connect-*` patterns. Throws if there is no server and
    /// none may be started.
    public func start() throws {
        do {
            try open()
        } catch let error as JackClient.OpenError where error.serverMissing {
            guard let autostart = options.autostart else {
                throw StartError(description: "no JACK server named '\(serverName)' is running (--jack-server NAME; "
                                 + "jack_lsp -s NAME lists a server's ports), and --no-autostart says not to start one")
            }
            let server = try JackServerProcess(serverName: options.serverName ?? Self.environmentServer,
                                               settings: autostart, logger: logger)
            state.withLock { $0.server = server }
            do {
                try retry(for: .seconds(10), unless: { server.failure }) { try open() }
            } catch let error as JackClient.OpenError where error.serverMissing {
                logJackMessages()
                throw StartError(description: server.failure
                                 ?? "the JACK server it started (\(server.commandLine)) did not answer within 10 s")
            }
        } catch let error as JackClient.OpenError {
            throw StartError(description: explain(error))
        }
        state.withLock { state in
            guard let client = state.client else { return }
            connect(client, ours: client.fullInputNames, pattern: options.connectInputs, flags: JackPortIsOutput, inbound: true)
            connect(client, ours: client.fullOutputNames, pattern: options.connectOutputs, flags: JackPortIsInput, inbound: false)
            connect(client, ours: client.fullTalkNames, pattern: options.connectTalkbacks, flags: JackPortIsOutput, inbound: true)
            connect(client, ours: client.fullListenNames, pattern: options.connectListen, flags: JackPortIsInput, inbound: false)
            connectSurfaces(client)
        }
    }

    /// Watches the connection until `stop()`: remembers our connections,
    /// notices the server leaving, and reconnects; keeps our ports' aliases
    /// the names the rig gives (the sources' and outputs', every 100 ms,
    /// and again on a new client); connects what the patches want and tells
    /// the rig what feeds each source and which ports there are
    /// (JackHost+Patches.swift). Call from its own thread.
    public func supervise(_ watch: Watch = Watch()) {
        var aliased: (client: ObjectIdentifier?, inputs: [String], outputs: [String]) = (nil, [], [])
        var seen = Seen()
        var portFailure: String?
        while !state.withLock({ $0.stopping }) {
            _ = wake.wait(timeout: .now() + .milliseconds(100))
            logJackMessages()
            let wanted = watch.scene()
            var report = Report()
            let look = state.withLock { state -> Survey? in
                guard let client = state.client else {
                    report = lostFeeds(&seen)
                    return nil
                }
                // The rig's size: a port for each channel (JackClient.fitPorts).
                let failure = client.fitPorts() ?? client.fitDirects(wanted.directs)
                // Rounded as the limiter rounds its lookahead (`Limiters`).
                let rate = Float(client.context.sampleRate.load(ordering: .relaxed))
                client.setLatencies(wanted.lookaheads.map { Int($0 * rate * 0.001 + 0.5) })
                if failure != portFailure, let failure { logger.error("could not give a channel its JACK port: \(failure)") }
                portFailure = failure
                let id = ObjectIdentifier(client)
                if aliased.client != id || aliased.inputs != wanted.inputs || aliased.outputs != wanted.outputs {
                    client.setAliases(inputs: wanted.inputs, outputs: wanted.outputs)
                    aliased = (id, wanted.inputs, wanted.outputs)
                }
                return survey(client, patches: wanted.patches, links: wanted.links, seen: &seen)
            }
            // The patterns' work is done outside the host's lock, which /status
            // and the clocks take (JackHost+Patches.swift): JACK is read, the
            // patterns matched, then JACK written.
            if let survey = look {
                let plan = plan(survey, patches: wanted.patches, links: wanted.links, seen: &seen, report: &report)
                state.withLock { state in
                    // The client closed meanwhile (a stop): the next look starts again.
                    guard state.client === survey.client else { return }
                    carry(plan, of: survey, seen: &seen, report: &report)
                }
            }
            // The rig is told outside JACK's lock: its own lock comes first.
            if let ports = report.ports { watch.ports(ports) }
            if let presence = report.presence { watch.presence(presence) }
            if !report.claims.isEmpty { watch.claim(report.claims) }
            if !report.surfacesJoined.isEmpty { watch.surfacesJoined(report.surfacesJoined) }
            if context.serverGone.load(ordering: .sequentiallyConsistent) {
                handleServerLoss()
                // The next client is new, even at the freed one's address.
                seen.client = nil
            } else if context.connectionsChanged.exchange(false, ordering: .relaxed) {
                state.withLock { state in
                    if let client = state.client { state.connections = client.connections() }
                }
            }
            restorePendingConnections()
        }
    }

    /// Ends `supervise()`; safe from any thread, including a signal handler's queue.
    public func requestStop() {
        state.withLock { $0.stopping = true }
        wake.signal()
    }

    /// Has the supervisor look now rather than within 100 ms: the rig
    /// changed size (its ports follow) or something it watches changed.
    public func nudge() { wake.signal() }

    /// Closes the client and stops a server we started.
    public func stop() {
        let (client, server) = state.withLock { state -> (JackClient?, JackServerProcess?) in
            state.stopping = true
            defer { state.client = nil; state.server = nil }
            return (state.client, state.server)
        }
        client?.close()
        server?.stop()
        logJackMessages()
    }

    // MARK: - Status

    public var isConnected: Bool { state.withLock { $0.client != nil } }
    public var sampleRate: Int { context.sampleRate.load(ordering: .relaxed) }
    public var bufferSize: Int { context.bufferSize.load(ordering: .relaxed) }
    public var xruns: Int { context.xruns.load(ordering: .relaxed) }
    /// JACK's estimate of the DSP load, in percent of the period.
    public var dspLoad: Float { state.withLock { $0.client?.cpuLoad ?? 0 } }
    public var uptime: Double {
        let elapsed = ContinuousClock.now - startTime
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
    public var clientName: String { state.withLock { $0.client?.name ?? options.clientName } }

    // MARK: - Connecting

    private func open() throws {
        let client = try JackClient(name: options.clientName, server: options.serverName, context: context)
        do {
            try client.activate()
        } catch {
            client.close()
            throw error
        }
        state.withLock { $0.client = client }
        logJackMessages()
        logger.notice("JACK client '\(client.name)' active: \(client.inputPorts.count) inputs, \(client.outputPorts.count) outputs, \(client.context.sampleRate.load(ordering: .relaxed)) Hz, \(client.context.bufferSize.load(ordering: .relaxed)) frames")
    }

    /// Tries `body` until it succeeds, `limit` has passed, or `unless` gives
    /// a reason to stop (the server it waits for has exited).
    private func retry(for limit: Duration, unless: () -> String? = { nil }, _ body: () throws -> Void) throws {
        let deadline = ContinuousClock.now + limit
        while true {
            do { return try body() } catch {
                if ContinuousClock.now > deadline || unless() != nil { throw error }
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
    }

    /// A start that failed, in words that name what failed.
    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The server this rig joins, by name, as the log and errors give it.
    var serverName: String { options.serverName ?? Self.environmentServer ?? "default" }

    static var environmentServer: String? {
        ProcessInfo.processInfo.environment["JACK_DEFAULT_SERVER"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Why a client could not be opened, naming the client and the server:
    /// a name another client holds is the usual cause of a refusal from a
    /// server that is there.
    private func explain(_ error: JackClient.OpenError) -> String {
        let name = options.clientName
        if error.step.hasPrefix("opening"), JackClient.serverAnswers(serverName), JackClient.hasClient(named: name, on: serverName) {
            return "the JACK client name '\(name)' is already taken on server '\(serverName)' (another rig? "
                + "give this one its own: --jack-name NAME)"
        }
        return "\(error) on JACK server '\(serverName)'"
    }

    /// Connects our ports, in order, to the other clients' ports that match.
    private func connect(_ client: JackClient, ours: [String], pattern: String?, flags: JackPortFlags, inbound: Bool) {
        guard let pattern else { return }
        let theirs = client.ports(matching: pattern, flags: flags)
        if theirs.isEmpty { logger.warning("no JACK ports match '\(pattern)'") }
        for (mine, other) in zip(ours, theirs) {
            let ok = inbound ? client.connect(other, mine) : client.connect(mine, other)
            if ok {
                logger.info("connected \(inbound ? "\(other) -> \(mine)" : "\(mine) -> \(other)")")
            } else {
                logger.warning("could not connect \(mine) and \(other)")
            }
        }
    }

    /// After the shutdown callback (which only set `serverGone`): the mixer
    /// is detached here, so the control side stands in for the audio thread.
    private func handleServerLoss() {
        logJackMessages()
        let lost = state.withLock { state -> JackClient? in
            defer { state.client = nil }
            return state.client
        }
        if let lost {
            logger.error("JACK server went away; the scene is kept, waiting for a server to come back")
            lost.close()
        }
        do {
            try open()
        } catch {
            Thread.sleep(forTimeInterval: 0.4)
            return
        }
        state.withLock { state in
            state.restoring = state.connections
            state.restoreDeadline = .now + .seconds(30)
        }
        logger.notice("reconnected to JACK; restoring \(state.withLock { $0.restoring.count }) connections")
    }

    /// After a reconnect, other clients' ports may take a while to return:
    /// keep trying the remembered connections for 30 s.
    private func restorePendingConnections() {
        state.withLock { state in
            guard !state.restoring.isEmpty, let client = state.client else { return }
            state.restoring.removeAll { pair in
                // Our inputs: the sources' and the talkbacks'.
                let isOurInput = pair.ours.contains(":in_") || pair.ours.contains(":talk_")
                let done = isOurInput ? client.connect(pair.theirs, pair.ours) : client.connect(pair.ours, pair.theirs)
                if done { logger.info("restored connection \(pair.ours) <-> \(pair.theirs)") }
                return done
            }
            if ContinuousClock.now > state.restoreDeadline && !state.restoring.isEmpty {
                logger.warning("gave up restoring \(state.restoring.count) connections")
                state.restoring.removeAll()
            }
        }
    }

    /// JACK's own messages, from any of libjack's threads, the process
    /// thread included: kept for the supervisor (`JackMessages`), nothing more.
    private static let jackMessage: @convention(c) (UnsafePointer<CChar>?) -> Void = { message in
        guard let message else { return }
        JackMessages.shared.post(message)
    }

    /// JACK's own messages, at debug level (we log what they mean
    /// ourselves), control characters escaped.
    private func logJackMessages() {
        let (messages, dropped) = JackMessages.shared.drain() // the supervisor's, or the main thread's before and after it
        for message in messages { logger.debug("jack: \(message.escapingControlCharacters())") }
        if dropped > 0 { logger.debug("jack: \(dropped) messages dropped") }
    }
}

extension JackHost {
    /// Runs `body` with the JACK client's handle (nil while JACK is away),
    /// under the host's lock: for the clocks (`JackHost+Clock.swift`).
    func withClient<T>(_ body: (OpaquePointer?) -> T) -> T {
        state.withLock { body($0.client?.handle) }
    }
}
