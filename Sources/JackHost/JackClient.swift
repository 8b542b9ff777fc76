import CJack
#if canImport(Glibc)
import Glibc
#endif
import MixCore
import Synchronization

/// One connection to a JACK server: our client, its ports `in_1…` and
/// `out_1…`, and the callbacks that run the mixer. When the server goes away
/// the client is dead; `JackHost` opens a new one.
final class JackClient: @unchecked Sendable {
    let handle: OpaquePointer
    let name: String
    let context: ProcessContext
    private var active = false

    struct OpenError: Error, CustomStringConvertible {
        let status: jack_status_t
        let step: String
        var serverMissing: Bool { status.rawValue & JackServerFailed.rawValue != 0 }
        var description: String {
            serverMissing ? "no JACK server running" : "\(step) failed (JACK status 0x\(String(status.rawValue, radix: 16)))"
        }
    }

    /// Runs `body` with a short-lived client of a unique name on `server`
    /// (none started); nil when the server does not answer.
    private static func probing<R>(_ server: String, _ body: (OpaquePointer) -> R) -> R? {
        var status = jack_status_t(rawValue: 0)
        let options = JackOptions(rawValue: JackNoStartServer.rawValue)
        guard let probe = crosspoint_jack_client_open_server("xp-probe-\(getpid())", options, &status, server) else { return nil }
        defer { jack_client_close(probe) }
        return body(probe)
    }

    /// Whether a server of this name runs and lets a client in.
    static func serverAnswers(_ server: String) -> Bool { probing(server) { _ in true } ?? false }

    /// Whether a client of this name is on `server`.
    static func hasClient(named name: String, on server: String) -> Bool {
        probing(server) { probe in
            guard let uuid = jack_get_uuid_for_client_name(probe, name) else { return false }
            jack_free(uuid)
            return true
        } ?? false
    }

    /// Opens the client without starting a server (we start our own, visibly).
    init(name: String, server: String?, context: ProcessContext) throws {
        var status = jack_status_t(rawValue: 0)
        let options = JackOptions(rawValue: JackNoStartServer.rawValue | JackUseExactName.rawValue)
        let opened: OpaquePointer? = if let server {
            crosspoint_jack_client_open_server(name, options, &status, server)
        } else {
            crosspoint_jack_client_open(name, options, &status)
        }
        guard let handle = opened else { throw OpenError(status: status, step: "opening client '\(name)'") }
        self.handle = handle
        self.name = String(cString: jack_get_client_name(handle))
        self.context = context
        do {
            try registerPorts()
        } catch {
            jack_client_close(handle)
            throw error
        }
    }

    /// Our ports, `in_1…` and `out_1…`, in order (control side).
    private(set) var inputPorts: [OpaquePointer] = []
    private(set) var outputPorts: [OpaquePointer] = []

    private func registerPorts() throws {
        if let failure = fitPorts() ?? registerTalkPorts() ?? registerListenPorts() ?? registerMIDIPorts() {
            throw OpenError(status: jack_status_t(rawValue: 0), step: failure)
        }
    }

    /// The talkbacks' input ports, `talk_1…`, as many as the rig has
    /// (`ProcessContext.talkbacks`), made with the client (`JackClient+TalkbackAndListen.swift`).
    var talkPorts: [OpaquePointer] = []
    /// The listen's ports, `listen_1` and `listen_2`, with `serve --listen`.
    var listenPorts: [OpaquePointer] = []
    /// The surfaces' MIDI ports, `NAME_in` and `NAME_out` of each, in
    /// order (`JackClient+MIDI.swift`).
    var midiPorts: [OpaquePointer] = []

    /// Gives the client a port for every channel the rig has now
    /// (`Mixer.inputs`, `outputs`): registers those missing, and unregisters
    /// those of channels gone once the audio thread renders without them
    /// (until then they stay). Each port is published to the process
    /// callback once registered, and taken from it before it is
    /// unregistered. Control side (the supervisor); nil, or what failed.
    @discardableResult
    func fitPorts() -> String? {
        let mixer = context.mixer
        let inputs = fit(&inputPorts, to: mixer.inputs, table: context.inputPorts, prefix: "in_", flags: JackPortIsInput) {
            max(mixer.inputs, mixer.renderedShape.inputs)
        }
        let outputs = fit(&outputPorts, to: mixer.outputs, table: context.outputPorts, prefix: "out_", flags: JackPortIsOutput) {
            max(mixer.outputs, mixer.renderedShape.outputs)
        }
        return inputs ?? outputs
    }

    /// One direction of `fitPorts`. `inUse`: channels the mixer may still
    /// render, asked after a port is taken from the table: a channel the
    /// rig grew back into meanwhile keeps its port.
    private func fit(_ ports: inout [OpaquePointer], to wanted: Int, table: UnsafeMutablePointer<Atomic<UInt>>,
                     prefix: String, flags: JackPortFlags, inUse: () -> Int) -> String? {
        let type = "32 bit float mono audio" // JACK_DEFAULT_AUDIO_TYPE
        while ports.count < min(wanted, Mixer.channelLimit) {
            let name = "\(prefix)\(ports.count + 1)"
            guard let port = jack_port_register(handle, name, type, UInt(flags.rawValue), 0) else {
                return "registering port \(name)"
            }
            table[ports.count].store(UInt(bitPattern: port), ordering: .releasing)
            ports.append(port)
        }
        while ports.count > wanted, let port = ports.last {
            let n = ports.count - 1
            table[n].store(0, ordering: .sequentiallyConsistent)
            guard inUse() <= n else {
                table[n].store(UInt(bitPattern: port), ordering: .sequentiallyConsistent)
                break
            }
            aliases[port] = nil
            jack_port_unregister(handle, port)
            ports.removeLast()
        }
        return nil
    }

    /// Takes every port from the process callback (the client is closing).
    private func forgetPorts() {
        for n in 0..<Mixer.channelLimit {
            context.inputPorts[n].store(0, ordering: .sequentiallyConsistent)
            context.outputPorts[n].store(0, ordering: .sequentiallyConsistent)
            context.directPorts[n].store(0, ordering: .sequentiallyConsistent)
        }
        for t in 0..<Talkbacks.most { context.talkPorts[t].store(0, ordering: .sequentiallyConsistent) }
        for side in 0..<2 { context.listenPorts[side].store(0, ordering: .sequentiallyConsistent) }
        for p in 0..<midiPorts.count { context.midiPorts[p].store(0, ordering: .sequentiallyConsistent) }
        midiPorts.removeAll()
        talkPorts.removeAll()
        listenPorts.removeAll()
        inputPorts.removeAll()
        outputPorts.removeAll()
        directPorts.removeAll()
        retiring.removeAll()
    }

    /// Each source's direct out port (`direct_n`), by source index.
    private(set) var directPorts: [Int: OpaquePointer] = [:]
    /// Direct out ports taken from the process callback, unregistered once
    /// the period count passes `after` (a period that had fetched one is over).
    private var retiring: [Int: (port: OpaquePointer, after: Int)] = [:]

    /// Gives each source whose direct out is on (`wanted`, by source; within
    /// the rig's size) its port `direct_n`, published to the process
    /// callback once registered; a port no longer wanted is taken from the
    /// callback first and unregistered two periods later (or given back if
    /// wanted again meanwhile). Control side (the supervisor); nil, or what failed.
    @discardableResult
    func fitDirects(_ wanted: [Bool]) -> String? {
        let mixer = context.mixer, table = context.directPorts
        let inputs = min(mixer.inputs, mixer.renderedShape.inputs)
        let periods = mixer.periodsRendered
        for (n, entry) in retiring where periods >= entry.after {
            retiring[n] = nil
            aliases[entry.port] = nil
            jack_port_unregister(handle, entry.port)
        }
        var failure: String?
        for n in 0..<Mixer.channelLimit {
            let want = n < wanted.count && n < inputs && wanted[n]
            if want, directPorts[n] == nil {
                if let (port, _) = retiring.removeValue(forKey: n) {
                    directPorts[n] = port
                } else if let port = jack_port_register(handle, "direct_\(n + 1)", "32 bit float mono audio",
                                                        UInt(JackPortIsOutput.rawValue), 0) {
                    directPorts[n] = port
                } else {
                    failure = "registering port direct_\(n + 1)"
                    continue
                }
                table[n].store(UInt(bitPattern: directPorts[n]), ordering: .releasing)
            } else if !want, let port = directPorts[n] {
                table[n].store(0, ordering: .sequentiallyConsistent)
                directPorts[n] = nil
                // Counted after the store: a period that had fetched it ends within two.
                retiring[n] = (port, mixer.periodsRendered + 2)
            }
        }
        return failure
    }

    /// Installs the callbacks and starts processing.
    func activate() throws {
        let pointer = Unmanaged.passUnretained(context).toOpaque()
        jack_set_process_callback(handle, ProcessContext.process, pointer)
        jack_set_xrun_callback(handle, ProcessContext.xrun, pointer)
        jack_on_shutdown(handle, ProcessContext.shutdown, pointer)
        jack_set_sample_rate_callback(handle, ProcessContext.sampleRateChanged, pointer)
        jack_set_buffer_size_callback(handle, ProcessContext.bufferSizeChanged, pointer)
        jack_set_port_connect_callback(handle, ProcessContext.portConnected, pointer)
        jack_set_port_registration_callback(handle, ProcessContext.portRegistered, pointer)
        jack_set_latency_callback(handle, ProcessContext.latency, pointer)
        let rate = Int(jack_get_sample_rate(handle))
        context.client = handle
        context.lastCycleEnd.store(jack_get_time(), ordering: .relaxed)
        context.sampleRate.store(rate, ordering: .relaxed)
        context.bufferSize.store(Int(jack_get_buffer_size(handle)), ordering: .relaxed)
        context.mixer.setSampleRate(rate)
        context.serverGone.store(false, ordering: .sequentiallyConsistent)
        context.mixer.setAttached(true)
        guard jack_activate(handle) == 0 else {
            context.mixer.setAttached(false)
            throw OpenError(status: jack_status_t(rawValue: 0), step: "activating client")
        }
        active = true
    }

    /// Closes the client. After the server died this only frees our side.
    func close() {
        if active && !context.serverGone.load(ordering: .sequentiallyConsistent) {
            jack_deactivate(handle)
        }
        context.mixer.setAttached(false)
        active = false
        forgetPorts()
        jack_client_close(handle)
    }

    // MARK: - Ports and connections (control side)

    var fullInputNames: [String] { stride(from: 1, through: inputPorts.count, by: 1).map { "\(name):in_\($0)" } }
    var fullOutputNames: [String] { stride(from: 1, through: outputPorts.count, by: 1).map { "\(name):out_\($0)" } }

    /// Ports of other clients whose names match `pattern` (a regular
    /// expression, as `jack_get_ports` takes; nil: all), with the given
    /// flags and of `type` (nil: any; "8 bit raw midi": MIDI), in JACK's port order.
    func ports(matching pattern: String? = nil, flags: JackPortFlags, type: String? = nil) -> [String] {
        guard let list = jack_get_ports(handle, pattern, type, UInt(flags.rawValue)) else { return [] }
        defer { jack_free(list) }
        var names: [String] = []
        var index = 0
        while let entry = list[index] {
            names.append(String(cString: entry))
            index += 1
        }
        return names.filter { !$0.hasPrefix(name + ":") }
    }

    /// Every other client's output port, in JACK's port order.
    func otherOutputPorts() -> [String] { ports(flags: JackPortIsOutput) }

    /// Every other client's input port, in JACK's port order.
    func otherInputPorts() -> [String] { ports(flags: JackPortIsInput) }

    /// For each of our inputs, the ports connected to it.
    func inputFeeds() -> [Set<String>] { inputPorts.map(connectedNames) }

    /// For each of our outputs, the ports it feeds.
    func outputSends() -> [Set<String>] { outputPorts.map(connectedNames) }

    func connectedNames(_ port: OpaquePointer) -> Set<String> {
        guard let list = jack_port_get_all_connections(handle, port) else { return [] }
        defer { jack_free(list) }
        var names: Set<String> = []
        var index = 0
        while let entry = list[index] {
            names.insert(String(cString: entry))
            index += 1
        }
        return names
    }

    /// Disconnects source → destination; true when they are not connected now.
    @discardableResult
    func disconnect(_ source: String, _ destination: String) -> Bool {
        jack_disconnect(handle, source, destination) == 0
    }

    /// Every connection of our ports, as (our port, other port) by full names.
    func connections() -> [(ours: String, theirs: String)] {
        var result: [(String, String)] = []
        for port in fullInputNames + fullOutputNames + fullTalkNames + fullListenNames + fullMIDINames {
            guard let handle = jack_port_by_name(self.handle, port),
                  let list = jack_port_get_all_connections(self.handle, handle) else { continue }
            defer { jack_free(list) }
            var index = 0
            while let entry = list[index] {
                result.append((port, String(cString: entry)))
                index += 1
            }
        }
        return result
    }

    /// Connects source → destination; true when connected (or already was).
    @discardableResult
    func connect(_ source: String, _ destination: String) -> Bool {
        let code = jack_connect(handle, source, destination)
        return code == 0 || code == EEXIST
    }

    var cpuLoad: Float { jack_cpu_load(handle) }

    /// The alias each port was given (`setAliases`), by port.
    private var aliases: [OpaquePointer: String] = [:]

    /// Gives each port the name the engineer chose as a JACK alias,
    /// `CLIENT:NAME` ("crosspoint:Bass DI"), so that patchbays (qpwgraph,
    /// Carla, `jack_lsp -A`) show it; a port still named as it was made
    /// (`in_3`) has none. Our previous alias is taken off first: a port
    /// holds two at most. Control side only.
    func setAliases(inputs: [String], outputs: [String]) {
        func apply(_ port: OpaquePointer?, _ wanted: String, default plain: String) {
            guard let port else { return }
            let alias = wanted == plain || wanted.isEmpty ? nil : "\(name):\(wanted)"
            guard aliases[port] != alias else { return }
            if let old = aliases[port] { jack_port_unset_alias(port, old) }
            aliases[port] = nil
            if let alias, jack_port_set_alias(port, alias) == 0 { aliases[port] = alias }
        }
        for (n, (port, wanted)) in zip(inputPorts, inputs).enumerated() { apply(port, wanted, default: "in_\(n + 1)") }
        for (m, (port, wanted)) in zip(outputPorts, outputs).enumerated() { apply(port, wanted, default: "out_\(m + 1)") }
    }
}
