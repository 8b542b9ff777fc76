import Delivery
import Access
import Advertising
import Catalogue
import ControlPage
import Dispatch
import FoundationEssentials
import Glibc
import JackHost
import Surfaces
import Logging
import MixCore
import SceneModel
import OSC
import OSCQuery
import Presets
import RigControl
import Synchronization
import SystemSupport

/// The running rig: the mixer in JACK, the OSC server and the controller
/// behind it, discovery, and the threads that keep surfaces, meters, timed
/// bundles and the saved state going. `serve` builds one and runs it.
final class Rig {
    let configuration: Configuration
    let logger: Logger
    let keeper: StateKeeper
    let mixer: Mixer
    let host: JackHost
    let server: OSCServer
    /// Who is let in, asked by the OSC and OSCQuery servers: the access
    /// rules replace its policy at start and on SIGHUP.
    let door: AccessDoor
    let controller: Controller
    let feedback: FeedbackHub
    let meters: MeterStream
    let scheduler: BundleScheduler
    let discovery: OSCQueryServer?
    /// The MIDI controllers (`--midi`); nil: none (`Rig+Surfaces.swift`).
    let surfaces: SurfaceDesk?
    private var advertisement: ServiceAdvertisement?
    private var threads: [Thread] = []

    /// Builds every part; opens the OSC sockets, so a port in use fails here.
    init(_ configuration: Configuration, logger: Logger) throws {
        self.configuration = configuration
        self.logger = logger
        // The build of the mixing loops: a path forced that this CPU lacks
        // stops the start here, before any of its instructions could run.
        let simd = try SIMDPath.fromEnvironment.mapError { StartFailure(description: "\($0)") }.get()
        logger.notice("render kernel: SIMD path \(simd) (\(SIMDPath.chosenBecause(simd)))")
        let catalogue = Catalogue(longestDelay: configuration.longestDelay)
        let store = PresetStore(directory: configuration.presets, catalogue: catalogue)
        keeper = StateKeeper(url: configuration.state, logger: logger, catalogue: catalogue)
        AtomicFile.removeLeftovers(in: store.directory)
        AtomicFile.removeLeftovers(in: keeper.url.deletingLastPathComponent())
        let initial = try Self.initialState(configuration, catalogue: catalogue, store: store, keeper: keeper, logger: logger)
        // A state that cannot be saved is found now, not after the show.
        if let problem = keeper.write(initial) {
            guard configuration.stateOptional else {
                throw StartFailure(description: "the rig state cannot be saved (\(problem)); give a --state PATH that "
                                   + "can be written, or --state-optional to run without saving")
            }
            logger.warning("--state-optional: running without saving the rig state")
        }
        mixer = Mixer(scene: initial.scene, catalogue: catalogue, panLaw: configuration.panLaw,
                      layout: OutputLayout(outputs: initial.scene.outputCount, monoOutputs: configuration.monoOutputs),
                      simd: simd)
        host = JackHost(mixer: mixer, options: configuration.host, logger: logger)
        let door = AccessDoor(configuration.policy)
        self.door = door
        server = try OSCServer(options: configuration.osc, admission: door, logger: logger)
        let server = server
        // Every packet for a client goes back the way the client came (`ReplyRoutes`).
        let routes = ReplyRoutes(server: server)
        let deliver: @Sendable (OSCPacket, OSCPeer) -> Void = { routes.deliver($0, to: $1) }
        let deliverEncoded: @Sendable ([UInt8], OSCPeer) -> Void = { routes.deliver(encoded: $0, to: $1) }
        let room: @Sendable (OSCPeer) -> Int = { routes.room(for: $0) }
        feedback = FeedbackHub(lease: configuration.subscriptionLease, logger: logger, sendEncoded: deliverEncoded, room: room)
        meters = MeterStream(mixer: mixer, lease: configuration.subscriptionLease, logger: logger, send: deliver)
        scheduler = BundleScheduler(clock: host)
        mixer.use(clock: host)
        // OSCQuery's WebSocket listeners are told every change too; made
        // before the server that fills them, so that the controller is given them.
        let listeners = configuration.httpPort == nil ? nil : OSCQueryListeners()
        let (keeper, feedback, meters) = (keeper, feedback, meters)
        let discoveryDenied = Mutex<@Sendable () -> Int>({ 0 })
        let namespaces = DispatchQueue(label: "crosspoint.namespace")
        let resizes = ResizeCount()
        controller = Controller(
            state: initial, mixer: mixer, catalogue: catalogue, store: store,
            smoothingSeconds: configuration.smoothingSeconds, directOuts: configuration.directOuts ?? .off, logger: logger,
            // Preset saves, deletes and renames are answered from the
            // writer's thread once on disk, timed bundles at their time.
            subscriptions: Subscriptions(feedback: feedback, meters: meters, listeners: listeners.map(WebSocketListeners.init),
                                         reply: deliver, autoSubscribe: configuration.autoSubscribe),
            scheduler: scheduler,
            status: { [host, mixer, groups = (dcas: initial.scene.dcas.count, muteGroups: initial.scene.muteGroups.count)] peer in
                [.statusSampleRate: .int32(Int32(host.sampleRate)),
                 .statusBufferSize: .int32(Int32(host.bufferSize)),
                 .statusInputs: .int32(Int32(mixer.inputs)),
                 .statusOutputs: .int32(Int32(mixer.outputs)),
                 .statusDCAs: .int32(Int32(groups.dcas)),
                 .statusMuteGroups: .int32(Int32(groups.muteGroups)),
                 .statusXruns: .int32(Int32(clamping: host.xruns)),
                 // Frames the last change of size waited beyond the next period (-1: none yet).
                 .statusResizeFrames: .int32(Int32(clamping: mixer.lastResizeFrames ?? -1)),
                 .statusDSPLoad: .float(host.dspLoad),
                 .statusUptime: .float(Float(host.uptime)),
                 .statusSIMD: .string(mixer.simd.rawValue),
                 .statusSubscribers: .int32(Int32(feedback.count)),
                 .statusMeterSubscribers: .int32(Int32(meters.count)),
                 .statusDenied: .int32(Int32(clamping: server.denied + discoveryDenied.withLock { $0 }())),
                 .statusDroppedFrames: .int32(Int32(clamping: routes.webSockets.withLock { $0 }?.droppedFrameCount(for: peer) ?? 0))]
            },
            keeper: keeper, learning: configuration.midiMaps.isEmpty ? nil : Learning(controllers: configuration.host.surfaces.map { Array($0.names.prefix(configuration.midiMaps.count)) } ?? []),
            stateChanged: { keeper.changed() },
            // A rig that changed size: its ports follow at once (the
            // supervisor), OSCQuery's namespace soon after (its own queue:
            // 200,000 nodes at 256x256 take a while to describe).
            resized: { [host] in
                host.nudge()
                // A Mackie Control surface's strips follow (an atomic, read by the desk's thread).
                routes.surfaces.withLock { $0 }?.resized()
                // Only the last of resizes in quick succession is described:
                // the namespace follows the size the rig has when it is built.
                let number = resizes.count.add(1, ordering: .relaxed).newValue
                namespaces.async {
                    guard number == resizes.count.load(ordering: .relaxed),
                          let discovery = routes.webSockets.withLock({ $0 }), let controller = routes.sessions.withLock({ $0 }) else { return }
                    let change = discovery.replaceModel(with: RigNamespace(controller: controller))
                    logger.info("OSCQuery: namespace follows the size (\(change.removed.count) paths removed, \(change.added.count) added)")
                    // What building it took, and the namespace it replaced, go back too.
                    FreedMemory.giveBack()
                }
                // What the old kernel and namespace held goes back to the
                // system (glibc keeps freed memory otherwise): a rig resized
                // all evening stays at its size.
                namespaces.asyncAfter(deadline: .now() + .milliseconds(50)) { FreedMemory.giveBack() }
            })
        let controller = controller
        routes.sessions.withLock { $0 = controller }
        let surfaces = try Self.surfaces(configuration, controller: controller, door: door, logger: logger)
        self.surfaces = surfaces
        routes.surfaces.withLock { $0 = surfaces }
        // Saves that start failing during the show, or succeed again: every subscriber is told.
        keeper.onSaving { _ in controller.publishStateSaved() }
        discovery = configuration.httpPort.map { port in
            OSCQueryServer(
                bind: configuration.osc.bind, port: port, oscPort: server.port, oscTransport: "UDP",
                name: configuration.name,
                model: RigNamespace(controller: controller), door: door, logger: logger,
                // A WebSocket is a client session like any other.
                onPacket: { controller.handle($0, from: $1) },
                onClose: { controller.depart($0) },
                page: ControlPage.files.mapValues { OSCQueryPageFile(contentType: $0.contentType, text: $0.text) }
                    .merging([PageDescription.path: OSCQueryPageFile(contentType: "application/json",
                                                                     text: PageDescription.json(catalogue, counts: catalogue.counts(of: initial.scene)))]) { $1 },
                listeners: listeners ?? OSCQueryListeners())
        }
        routes.webSockets.withLock { $0 = discovery }
        if let discovery { discoveryDenied.withLock { $0 = { discovery.deniedCount } } }
        if let path = configuration.access {
            let rules = try AccessRules.load(path: path, outputs: Mixer.channelLimit)
            useAccess(rules)
            logger.notice("access: \(Self.summary(rules)) from \(path)")
        }
    }

    /// Starts everything, serves until SIGINT or SIGTERM, then stops in order
    /// (a JACK server we started included).
    func run() throws {
        // Without an access file SIGHUP ends the rig, as it always has; with
        // one it reads the file again, from before the ports serve anything.
        var reload: DispatchSourceSignal?
        if configuration.access != nil {
            signal(SIGHUP, SIG_IGN)
            reload = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
            reload?.setEventHandler { [self] in reloadAccess() }
            reload?.resume()
        }
        keeper.write(controller.snapshot())
        let (keeper, controller, feedback, meters, scheduler) = (keeper, controller, feedback, meters, scheduler)
        start { keeper.run(snapshot: { controller.snapshot() }) }
        // Fading parameters are shown moving (the feedback thread asks).
        start { feedback.run(everyUpdate: { controller.publishFades(at: $0) }) }
        start { meters.run() }
        surfaces?.start()
        do {
            try discovery?.start()
            try host.start()
        } catch {
            stop() // Serve logs why, once: "cannot start: …"
            throw error
        }
        // The controller takes one packet at a time, whichever thread hands
        // it over: due bundles and WebSocket values never come between the
        // messages of a bundle.
        start { scheduler.run(due: { controller.releaseDueBundles() }) }
        let mixer = mixer
        start { mixer.runService() }
        // A client shown to be gone (its connection closed, or "port
        // unreachable" where it listened) takes its subscriptions with it.
        server.start(handler: { controller.handle($0, from: $1) },
                     departure: { controller.depart($0) })
        advertise()
        let tcp = configuration.osc.tcp ? " (and TCP)" : ""
        let http = discovery.map { ", OSCQuery on HTTP port \($0.port)" } ?? ""
        logger.notice("ready: OSC on UDP port \(server.port)\(tcp)\(http), JACK client '\(host.clientName)', \(mixer.inputs)x\(mixer.outputs), pan law \(configuration.panLaw.rawValue), smoothing \(configuration.smoothingSeconds * 1000) ms")
        if let discovery { logger.notice("control page: \(pageAddress(port: discovery.port)) (open it in a browser)") }

        let host = host
        let signals = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { host.requestStop() }
            source.resume()
            return source
        }
        // The names the engineer gives sources and outputs reach the
        // patchbay as JACK aliases of their ports.
        // Sources are fed by their patches; what feeds each, and which
        // ports there are, come back to the rig (docs/sources.md).
        var watch = JackHost.Watch(
            scene: {
                let scene = controller.scene
                return JackHost.Watch.Scene(inputs: scene.sources.map(\.name), outputs: scene.outputs.map(\.name),
                                            patches: scene.sources.map(\.patch), links: scene.sources.map(\.link),
                                            directs: scene.sources.map { $0.direct != .off },
                                            lookaheads: scene.outputs.map { $0.limiter.on ? $0.limiter.lookahead : 0 })
            },
            presence: { controller.reportPresence($0) },
            ports: { controller.reportPorts($0) },
            claim: { claims in controller.claimSources(claims.map { ($0.source, $0.pair, $0.patch, $0.name) }) })
        // A controller plugged (back) in is brought up to date at once.
        if let surfaces { watch.surfacesJoined = { surfaces.refresh($0) } }
        host.supervise(watch)
        signals.forEach { $0.cancel() }
        reload?.cancel()
        stop()
        logger.notice("stopped")
    }

    /// Puts access rules in force: the door first lets in whom they name,
    /// then the controller gives each session its role.
    private func useAccess(_ rules: AccessRules) {
        door.replace(with: rules.policy)
        controller.useAccess(rules)
    }

    /// SIGHUP: the access file read again. A file that cannot be read or
    /// is wrong changes nothing: the rules in force stay, and the log says why.
    private func reloadAccess() {
        guard let path = configuration.access else { return }
        do {
            let rules = try AccessRules.load(path: path, outputs: Mixer.channelLimit)
            useAccess(rules)
            logger.notice("access: reloaded \(Self.summary(rules)) from \(path)")
        } catch {
            logger.error("access: kept the rules in force; the reloaded file is refused: \(error)")
        }
    }

    /// What a file's rules hold, for the log (never the codes themselves).
    private static func summary(_ rules: AccessRules) -> String {
        "\(rules.roles.count) roles (\(rules.roles.keys.sorted().joined(separator: ", "))), \(rules.networkCount) networks, \(rules.codeCount) codes"
    }

    /// Where a browser on the network finds the control page: the address
    /// OSC is bound to, or else this machine's first network address
    /// (loopback when it has none).
    private func pageAddress(port: Int) -> String {
        let bind = configuration.osc.bind
        let host = ["0.0.0.0", "::"].contains(bind)
            ? OSC.SocketAddress.networkIPv4Addresses().first ?? "127.0.0.1"
            : bind.contains(":") ? "[\(bind)]" : bind
        return "http://\(host):\(port)/"
    }

    /// Advertises `_osc._udp` (and `_osc._tcp`) on the OSC port and
    /// `_oscjson._tcp` on the HTTP port actually bound, on the interface of
    /// the OSC bind address (every interface for a wildcard). Avahi runs on
    /// its own thread; a missing daemon is logged, not fatal.
    private func advertise() {
        guard configuration.advertise else { return }
        // Each service marked as a Crosspoint rig's, so that other rigs list it.
        let ours = [ServiceAdvertisement.ours]
        var services = [AdvertisedService(type: "_osc._udp", port: server.port, txt: ours)]
        if configuration.osc.tcp { services.append(AdvertisedService(type: "_osc._tcp", port: server.port, txt: ours)) }
        if let discovery { services.append(AdvertisedService(type: "_oscjson._tcp", port: discovery.port, txt: ours)) }
        let advertisement = ServiceAdvertisement(
            name: configuration.name, services: services,
            interface: ServiceAdvertisement.interfaceIndex(holding: configuration.osc.bind), logger: logger,
            renamed: { [discovery] in discovery?.name = $0 },
            // The other rigs, for the page's list: their pages are on their OSCQuery port.
            neighbourType: discovery == nil ? nil : "_oscjson._tcp",
            neighboursChanged: { [controller] in controller.reportOtherRigs($0.map { ($0.name, $0.pageURL) }) })
        advertisement.start()
        self.advertisement = advertisement
    }

    private func start(_ loop: @escaping @Sendable () -> Void) {
        let thread = Thread(block: loop)
        thread.start()
        threads.append(thread)
    }

    /// Stops taking messages, lets the preset writer finish what is queued
    /// (each save is answered), ends every loop (the state keeper writes
    /// what is pending), then leaves JACK.
    private func stop() {
        advertisement?.stop() // withdrawn before the sockets close
        server.stop()
        surfaces?.stop() // no MIDI move after the last save either
        discovery?.stop()
        scheduler.stop()
        mixer.stopService()
        controller.waitForPresetWrites()
        feedback.stop()
        meters.stop()
        keeper.stop()
        for thread in threads { while !thread.isFinished { Thread.sleep(forTimeInterval: 0.01) } }
        controller.waitForPresetWrites() // a save in a bundle the scheduler was handling as it stopped
        host.stop()
    }

    /// The preset named by `--scene`, else the saved state, else the default
    /// scene; fitted to the rig's size.
    private static func initialState(_ c: Configuration, catalogue: Catalogue, store: PresetStore,
                                     keeper: StateKeeper, logger: Logger) throws -> RigState {
        let counts: [Parameter.Strip: Int] = [.source: c.inputs ?? 8, .output: c.outputs ?? 8, .dca: c.dcas,
                                              .muteGroup: c.muteGroups]
        let blank = catalogue.scene(counts.merging(c.banks) { $1 })
        var state = RigState(scene: blank)
        if let saved = keeper.load() {
            state = saved
            logger.notice("restored the rig state from \(keeper.url.path)")
        }
        // The size given, else the size the rig had when it stopped.
        let (inputs, outputs) = (c.inputs ?? state.scene.inputCount, c.outputs ?? state.scene.outputCount)
        if let scene = c.scene {
            let preset = try store.load(scene)
            // The rig's own (patches, direct outs, the outputs' EQ and
            // limiters) stays as the state file has it.
            state.scene = catalogue.keepingRig(of: state.scene, in: preset.scene)
            state.preset = scene
            state.modified = false
            logger.notice("starting with preset '\(scene)'")
        }
        let (sized, skipped) = state.fitted(inputs: inputs, outputs: outputs, dcas: c.dcas, muteGroups: c.muteGroups,
                                            banks: blank.banks, catalogue: catalogue)
        var fitted = sized
        if let tap = c.directOuts { for n in fitted.scene.sources.indices { fitted.scene.sources[n].direct = tap } }
        if !skipped.isEmpty { logger.warning("the saved scene is larger than the rig; skipped \(skipped.joined(separator: "; "))") }
        return fitted
    }
}

extension JackHost: AudioClock {}

extension Rig {
    /// Changes of size so far, for describing only the last of a quick run of them.
    final class ResizeCount: Sendable {
        let count = Atomic<Int>(0)
    }
}

extension Rig {
    /// Why the rig cannot start, in words for the log line `cannot start: …`.
    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }
}
