import ArgumentParser
import Dispatch
import Foundation
import JackHost
import Logging
import MixCore
import OSC
import OSCQuery
import Presets
import RigControl
import Synchronization

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the mixer: a JACK client with N inputs and M outputs, controlled over OSC (UDP).")

    @Option(help: "Number of input ports (in_1 …), 1-512.")
    var inputs = 8

    @Option(help: "Number of output ports (out_1 …), 1-512.")
    var outputs = 8

    @Option(help: "UDP port to receive OSC on.")
    var oscPort = 9000

    @Option(help: "Address to listen on for OSC: 0.0.0.0 (every IPv4 interface), :: (IPv4 and IPv6), or one of this machine's addresses.")
    var bind = "0.0.0.0"

    @Option(help: "Networks that may control the rig, comma-separated CIDR (replaces the default: loopback, 10/8, 172.16/12, 192.168/16, 169.254/16, fc00::/7, fe80::/10).")
    var allow: String?

    @Option(help: "Networks that may query, subscribe and meter but change nothing, comma-separated CIDR.")
    var readOnly: String?

    @Option(help: "TCP port of the OSCQuery server (HTTP JSON namespace and WebSocket LISTEN); 0 picks a free one.")
    var httpPort = 9001

    @Flag(help: "Do not start the OSCQuery server.")
    var noHttp = false

    @Flag(help: "Do not accept OSC over TCP (by default TCP listens on the same port number as UDP).")
    var noTcp = false

    @Option(help: "Seconds a feedback subscription lasts without any message from its client.")
    var subscriptionTimeout: Double = 30

    @Option(help: "Ramp time, in milliseconds, of a change sent without a fade time (0-1000).")
    var smoothingMs: Double = 20

    @Option(help: "How pan splits a source over a stereo pair: balance, constant-power or linear.")
    var panLaw: PanLaw = .balance

    @Option(help: "Outputs that belong to no stereo pair, comma-separated (e.g. 5,6). Other outputs pair as (1,2), (3,4), ….")
    var monoOutputs: String?

    @Option(help: "JACK client name.")
    var jackName = "crosspoint"

    @Option(help: "JACK server name (default: $JACK_DEFAULT_SERVER, else 'default').")
    var jackServer: String?

    @Option(help: "Connect our inputs, in order, to the JACK output ports matching this regular expression (e.g. 'system:capture_.*').")
    var connectInputs: String?

    @Option(help: "Connect our outputs, in order, to the JACK input ports matching this regular expression (e.g. 'system:playback_.*').")
    var connectOutputs: String?

    @Flag(help: "Do not start a JACK server when none is running; exit instead.")
    var noAutostart = false

    @Option(help: "Backend of the JACK server started when none is running (dummy needs no sound card; alsa for a real card).")
    var autostartDriver = "dummy"

    @Option(help: "Directory of preset files (NAME.json).")
    var presets = "presets"

    @Option(help: "File the live scene and safes are saved to and restored from (default: $XDG_STATE_HOME/crosspoint/<jack-name>.json, or ~/.local/state/…).")
    var state: String?

    @Option(help: "Recall this preset at start instead of restoring the saved scene.")
    var scene: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel: Logger.Level = .info

    func validate() throws {
        guard (1...512).contains(inputs), (1...512).contains(outputs) else {
            throw ValidationError("--inputs and --outputs must be 1-512")
        }
        guard (0...1000).contains(smoothingMs) else { throw ValidationError("--smoothing-ms must be 0-1000") }
        guard (0...65535).contains(oscPort) else { throw ValidationError("--osc-port must be 0-65535") }
        guard (0...65535).contains(httpPort) else { throw ValidationError("--http-port must be 0-65535") }
        _ = try monoOutputSet()
        _ = try accessPolicy()
        guard subscriptionTimeout > 0 && subscriptionTimeout <= 86_400 else {
            throw ValidationError("--subscription-timeout must be 0-86400 seconds")
        }
    }

    private func accessPolicy() throws -> AccessPolicy {
        var policy = AccessPolicy()
        for (flag, list, keyPath) in [("--allow", allow, \AccessPolicy.allowed), ("--read-only", readOnly, \AccessPolicy.readOnly)] {
            guard let list else { continue }
            switch AccessPolicy.networks(list) {
            case .success(let networks): policy[keyPath: keyPath] = networks
            case .failure(let error): throw ValidationError("\(flag): \(error)")
            }
        }
        return policy
    }

    private func monoOutputSet() throws -> Set<Int> {
        guard let monoOutputs, !monoOutputs.isEmpty else { return [] }
        var set: Set<Int> = []
        for part in monoOutputs.split(separator: ",") {
            guard let m = Int(part.trimmingCharacters(in: .whitespaces)), (1...outputs).contains(m) else {
                throw ValidationError("--mono-outputs: '\(part)' is not an output number 1-\(outputs)")
            }
            set.insert(m)
        }
        return set
    }

    func run() throws {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "crosspoint")

        let store = PresetStore(directory: URL(fileURLWithPath: presets))
        let keeper = StateKeeper(url: state.map { URL(fileURLWithPath: $0) } ?? StateKeeper.defaultURL(clientName: jackName),
                                 logger: logger)
        AtomicFile.removeLeftovers(in: store.directory)
        AtomicFile.removeLeftovers(in: keeper.url.deletingLastPathComponent())
        let initial = try initialState(store: store, keeper: keeper, logger: logger)
        let mixer = Mixer(scene: initial.scene, panLaw: panLaw,
                          layout: OutputLayout(outputs: outputs, monoOutputs: try monoOutputSet()))
        var hostOptions = JackHost.Options()
        hostOptions.clientName = jackName
        hostOptions.serverName = jackServer
        hostOptions.connectInputs = connectInputs
        hostOptions.connectOutputs = connectOutputs
        hostOptions.autostartDriver = noAutostart ? nil : autostartDriver
        let host = JackHost(mixer: mixer, options: hostOptions, logger: logger)

        let (inputs, outputs) = (self.inputs, self.outputs)
        var serverOptions = OSCServer.Options()
        serverOptions.bind = bind
        serverOptions.port = oscPort
        serverOptions.policy = try accessPolicy()
        serverOptions.tcp = !noTcp
        let server: OSCServer
        do {
            server = try OSCServer(options: serverOptions)
        } catch {
            logger.critical("\(error)")
            throw ExitCode.failure
        }
        let feedback = FeedbackHub(lease: .milliseconds(Int(subscriptionTimeout * 1000)), logger: logger) { packet, peer in
            server.send(packet, to: peer)
        }
        let meters = MeterStream(mixer: mixer, lease: .milliseconds(Int(subscriptionTimeout * 1000)), logger: logger) {
            packet, peer in server.send(packet, to: peer)
        }
        let namespace = NamespaceBox()
        let policy = serverOptions.policy
        let discovery = OSCQueryServer(
            bind: bind, port: noHttp ? 0 : httpPort, oscPort: server.port, oscTransport: "UDP",
            name: "Crosspoint \(jackName)", model: namespace, logger: logger,
            onSet: { message, host in
                // A WebSocket client's value: handled like an OSC message from its host.
                guard let address = SocketAddress.resolve(host: host, port: 0) else { return }
                _ = namespace.controller?.handle(message, from: OSCPeer(address: address, transport: .udp,
                                                                         access: policy.access(forHost: host)))
            })
        let controller = Controller(
            state: initial, mixer: mixer, store: store, smoothingSeconds: Float(smoothingMs / 1000), logger: logger,
            status: {
                [("sample_rate", .int32(Int32(host.sampleRate))),
                 ("buffer_size", .int32(Int32(host.bufferSize))),
                 ("inputs", .int32(Int32(inputs))),
                 ("outputs", .int32(Int32(outputs))),
                 ("xruns", .int32(Int32(clamping: host.xruns))),
                 ("dsp_load", .float(host.dspLoad)),
                 ("uptime", .float(Float(host.uptime))),
                 ("subscribers", .int32(Int32(feedback.count))),
                 ("meter_subscribers", .int32(Int32(meters.count))),
                 ("denied", .int32(Int32(clamping: server.denied + discovery.deniedCount)))]
            },
            stateChanged: { keeper.changed() })
        keeper.write(initial)
        let saver = Thread { keeper.run(snapshot: { controller.snapshot() }) }
        saver.start()
        controller.feedback = feedback
        controller.meters = meters
        namespace.set(RigNamespace(controller: controller, policy: policy))
        if !noHttp {
            controller.onChange = { messages in messages.forEach(discovery.publish) }
            do {
                try discovery.start()
            } catch {
                logger.critical("cannot start the OSCQuery server on TCP port \(httpPort): \(error)")
                throw ExitCode.failure
            }
        }
        for loop in [{ feedback.run() }, { meters.run() }] as [@Sendable () -> Void] { Thread(block: loop).start() }

        do {
            try host.start()
        } catch {
            logger.critical("cannot start in JACK: \(error)")
            throw ExitCode.failure
        }
        let scheduler = BundleScheduler(clock: host) { messages, peer in
            controller.handleScheduled(messages, from: peer) { server.send($0, to: $1) }
        }
        controller.scheduler = scheduler
        let schedulerThread = Thread { scheduler.run() }
        schedulerThread.start()
        server.start(handler: { controller.handle($0, from: $1) },
                     bundleStarted: { controller.bundleStarted(at: $0, from: $1) },
                     bundleEnded: { controller.bundleEnded() })
        let http = noHttp ? "" : ", OSCQuery on HTTP port \(discovery.port)"
        logger.notice("ready: OSC on UDP port \(server.port)\(serverOptions.tcp ? " (and TCP)" : "")\(http), JACK client '\(host.clientName)', \(inputs)x\(outputs), pan law \(panLaw.rawValue), smoothing \(smoothingMs) ms")

        // SIGINT and SIGTERM end the supervision loop; then everything is
        // closed in order, including a JACK server we started.
        var signalSources: [DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { host.requestStop() }
            source.resume()
            signalSources.append(source)
        }
        host.supervise()
        server.stop()
        if !noHttp { discovery.stop() }
        scheduler.stop()
        feedback.stop()
        meters.stop()
        keeper.stop()
        while !saver.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        host.stop()
        signalSources.forEach { $0.cancel() }
        logger.notice("stopped")
    }

    /// The preset named by `--scene`, else the saved state, else the default
    /// scene; fitted to the rig's size.
    private func initialState(store: PresetStore, keeper: StateKeeper, logger: Logger) throws -> RigState {
        var state = RigState(scene: Scene(inputs: inputs, outputs: outputs))
        if let saved = keeper.load() {
            state = saved
            logger.notice("restored the rig state from \(keeper.url.path)")
        }
        if let scene {
            do {
                let preset = try store.load(scene)
                state.scene = preset.scene
                state.preset = scene
                state.modified = false
                logger.notice("starting with preset '\(scene)'")
            } catch {
                logger.critical("--scene: \(error)")
                throw ExitCode.failure
            }
        }
        let (fitted, skipped) = state.fitted(inputs: inputs, outputs: outputs)
        if !skipped.isEmpty { logger.warning("the saved scene is larger than the rig; skipped \(skipped.joined(separator: "; "))") }
        return fitted
    }
}

/// The OSCQuery model, filled in once the controller exists (the server is
/// made before it, so that its denied count can feed `/status`).
final class NamespaceBox: OSCQueryModel, @unchecked Sendable {
    private let model = Mutex<RigNamespace?>(nil)
    var controller: Controller? { model.withLock { $0?.controller } }
    func set(_ namespace: RigNamespace) { model.withLock { $0 = namespace } }
    func namespace() -> OSCQueryNode { model.withLock { $0 }?.namespace() ?? .container("/") }
    func access(for host: String) -> OSCQueryClientAccess { model.withLock { $0 }?.access(for: host) ?? .denied }
}

extension PanLaw: ExpressibleByArgument {}
extension JackHost: AudioClock {}
extension Logger.Level: @retroactive ExpressibleByArgument {}
