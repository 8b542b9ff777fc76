import Access
import Advertising
import Catalogue
import ArgumentParser
import FoundationEssentials
import Glibc
import JackHost
import MIDI
import Logging
import MixCore
import OSC
import PortPatterns
import Presets
import RigControl
import SceneModel
import SystemSupport

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the mixer: a JACK client with N inputs and M outputs, controlled over OSC (UDP).",
        discussion: Catalogue().kinds.filter { $0.storage == .bank }.compactMap { kind in
            kind.flag.map { "\($0) N: \(kind.plural), \(kind.counts.lowerBound)-\(kind.counts.upperBound) (none by default)." }
        }.joined(separator: "\n"))

    @OptionGroup var channels: ChannelCounts
    var inputs: Int? { channels.inputs }
    var outputs: Int? { channels.outputs }

    @Option(help: "Number of DCAs (/dca/{g}/…), 0-32: each rides its member sources' levels and mutes.")
    var dcas = 8

    @Option(help: "Number of mute groups (/mutegroup/{g}/…), 0-32: each mutes its member sources.")
    var muteGroups = 8

    /// The flags of the catalogue's kinds kept in banks (`--{field} N`),
    /// which ArgumentParser cannot know: read by `Catalogue.bankCounts`,
    /// whose errors are any other unknown argument's.
    @Argument(parsing: .allUnrecognized, help: .hidden)
    var kindCounts: [String] = []

    @Option(help: "Direct outs for every source: pre (after polarity) or post (after level and mute), on JACK ports direct_1 …; also for sources added later (/source/{n}/direct changes one).")
    var directOuts: DirectTap?

    @Option(help: "UDP port to receive OSC on.")
    var oscPort = 9000

    @Option(help: "Address to listen on for OSC: 0.0.0.0 (every IPv4 interface), :: (IPv4 and IPv6), or one of this machine's addresses.")
    var bind = "0.0.0.0"

    @Option(help: "Networks that may control the rig, comma-separated CIDR (replaces the default: loopback, 10/8, 172.16/12, 192.168/16, 169.254/16, fc00::/7, fe80::/10).")
    var allow: String?

    @Option(help: "Networks that may query, subscribe and meter but change nothing, comma-separated CIDR.")
    var readOnly: String?

    @Option(help: "An access file (docs/access.md): roles, the networks and codes that give them. Read again on SIGHUP. Replaces --allow and --read-only.")
    var access: String?

    @Option(help: "TCP port of the OSCQuery server (HTTP JSON namespace and WebSocket LISTEN); 0 picks a free one.")
    var httpPort = 9001

    @Flag(help: "Do not start the OSCQuery server.")
    var noHttp = false

    @Flag(help: "Do not accept OSC over TCP (by default TCP listens on the same port number as UDP).")
    var noTcp = false

    @Option(help: "Seconds a TCP connection may go without sending a whole packet before it is closed (0: no limit). A surface that only listens over TCP sends something, a /ping, within it.")
    var tcpIdleTimeout: Double = 60

    @Flag(help: "Subscribe a client to feedback (changes, not the full state) as soon as it changes something, as if it had sent /subscribe: a layout with no special message stays in sync.")
    var autoSubscribe = false

    @Option(help: "An idle limit: seconds a feedback or meter subscription lasts without any message from its client (0, the default: no limit; a subscription ends on /unsubscribe, when its connection closes, or when its client is gone).")
    var subscriptionTimeout: Double = 0

    @Option(help: "Ramp time, in milliseconds, of a change sent without a fade time (0-1000).")
    var smoothingMs: Double = 20

    @Option(help: "The longest output delay, in milliseconds (0-10000): each output's delay line holds this much.")
    var maxDelayMs: Double = 500

    @Option(help: "How pan splits a source over a stereo pair: balance, constant-power or linear.")
    var panLaw: PanLaw = .balance

    @Option(help: "Outputs that belong to no stereo pair, comma-separated (e.g. 5,6). Other outputs pair as (1,2), (3,4), ….")
    var monoOutputs: String?

    @Option(help: "The name the rig is advertised under (DNS-SD) and gives in OSCQuery's HOST_INFO (default: 'Crosspoint <jack-name> on <host>'); at most 63 bytes.")
    var name: String?

    @Flag(help: "Do not advertise the rig over DNS-SD (Avahi).")
    var noAdvertise = false

    @Option(help: "JACK client name.")
    var jackName = "crosspoint"

    @Option(help: "JACK server name (default: $JACK_DEFAULT_SERVER, else 'default').")
    var jackServer: String?

    @Option(help: "Connect our inputs, in order, to the JACK output ports matching this regular expression (e.g. 'system:capture_.*').")
    var connectInputs: String?

    @Option(help: "Connect our outputs, in order, to the JACK input ports matching this regular expression (e.g. 'system:playback_.*'), also those that appear later (a network link's ports that come back, a recorder started after the rig).")
    var connectOutputs: String?

    @Option(help: "Connect the talkbacks' inputs (talk_1, talk_2, …), in order, to the JACK output ports matching this regular expression (e.g. 'system:capture_8'), also those that appear later (docs/talkback.md).")
    var connectTalkbacks: String?

    @Flag(help: "The engineer's listen: a stereo pair of output ports, listen_1 and listen_2, for PFL and AFL (docs/talkback.md).")
    var listen = false

    @Option(help: "Connect listen_1 and listen_2 to the JACK input ports matching this regular expression (the engineer's headphones), also those that appear later.")
    var connectListen: String?

    @Option(help: "A plain MIDI controller on JACK MIDI ports NAME_in and NAME_out, bound by the map file given with --midi-map in the same order (docs/surfaces.md, MIDI controllers). Repeatable.")
    var midi: [String] = []

    @Option(help: "The map file (JSON) of the controller given with --midi in the same order: which CC, note or pitch bend sets which parameter, in which form.")
    var midiMap: [String] = []

    @Option(help: "A Mackie Control surface (an X-Touch, an MCU Pro, a BCF2000 in its Mackie mode) on JACK MIDI ports NAME_in and NAME_out (docs/surfaces.md, Mackie Control). Repeatable: the units given are joined left to right, 8 strips each (an X-Touch, then its Extender).")
    var mcu: [String] = []

    @Option(help: "NAME=RE: connect the MIDI controller NAME's ports to the hardware's JACK MIDI ports matching the regular expression RE (NAME_in from its outputs, NAME_out to its inputs), at the start and whenever they appear; a controller plugged back in is brought up to date at once. Repeatable.")
    var surfaceConnect: [String] = []

    @Option(help: "NAME=ROLE: the MIDI controller NAME acts in the access file's role ROLE (needs --access): its controls reach only what that role may change. Repeatable.")
    var surfaceRole: [String] = []

    @Option(help: "A JACK client whose name matches this regular expression, and whose ports no patch names, takes the first free source (two or more ports: the first free pair, linked) with a patch naming its ports (docs/sources.md).")
    var autoSources: String?

    @Flag(help: "Do not start a JACK server when none is running; exit instead.")
    var noAutostart = false

    @Option(help: "Backend of the JACK server started when none is running (dummy needs no sound card; alsa for a real card).")
    var autostartDriver = "dummy"

    @Option(help: "The started server's device (alsa: e.g. hw:0, hw:USB; default hw:0).")
    var autostartDevice: String?

    @Option(help: "The started server's period, in frames (16-4096, a power of two).")
    var autostartPeriod = 64

    @Option(help: "The started server's sample rate, in Hz (8000-384000).")
    var autostartRate = 48_000

    @Option(help: "Directory of preset files (NAME.json).")
    var presets = "presets"

    @Option(help: "File the live scene and safes are saved to and restored from (default: $XDG_STATE_HOME/crosspoint/<jack-name>.json, or ~/.local/state/…). One that cannot be written stops the start (exit status 1).")
    var state: String?

    @Flag(help: "Run even when the state file cannot be written (a warning; the show is then not saved).")
    var stateOptional = false

    @Option(help: "Recall this preset at start instead of restoring the saved scene.")
    var scene: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel: Logger.Level = .info

    func validate() throws {
        // Arguments serve does not know come first, as ArgumentParser's own.
        _ = try bankCounts()
        guard directOuts != .off else { throw ValidationError("--direct-outs takes pre or post (leave it out for none)") }
        for (flag, count) in [("--dcas", dcas), ("--mute-groups", muteGroups)] {
            if let problem = Catalogue.countProblem(flag: flag, count) { throw ValidationError(problem) }
        }
        guard (0...1000).contains(smoothingMs) else { throw ValidationError("--smoothing-ms must be 0-1000") }
        guard (0...10_000).contains(maxDelayMs) else { throw ValidationError("--max-delay-ms must be 0-10000") }
        guard (16...4096).contains(autostartPeriod), autostartPeriod & (autostartPeriod - 1) == 0 else {
            throw ValidationError("--autostart-period must be a power of two, 16-4096")
        }
        guard (8_000...384_000).contains(autostartRate) else { throw ValidationError("--autostart-rate must be 8000-384000") }
        guard !autostartDriver.isEmpty, autostartDriver.allSatisfy({ $0.isLetter || $0.isNumber }) else {
            throw ValidationError("--autostart-driver must be a backend's name (dummy, alsa, …)")
        }
        guard (0...65535).contains(oscPort) else { throw ValidationError("--osc-port must be 0-65535") }
        guard (0...65535).contains(httpPort) else { throw ValidationError("--http-port must be 0-65535") }
        _ = try monoOutputSet()
        _ = try accessPolicy()
        if let autoSources, let problem = PortPattern.problem(autoSources) ?? (autoSources.isEmpty ? "empty" : nil) {
            throw ValidationError("--auto-sources: \(problem)")
        }
        if let access {
            guard allow == nil && readOnly == nil else {
                throw ValidationError("--access conflicts with --allow and --read-only: the access file says who may do what")
            }
            do {
                _ = try AccessRules.load(path: access, outputs: Mixer.channelLimit)
            } catch {
                throw ValidationError("--access: \(error)")
            }
        }
        if let name, let problem = ServiceAdvertisement.problem(withName: name) {
            throw ValidationError("--name: \(problem)")
        }
        guard subscriptionTimeout >= 0 && subscriptionTimeout <= 86_400 else {
            throw ValidationError("--subscription-timeout must be 0-86400 seconds")
        }
        guard tcpIdleTimeout >= 0 && tcpIdleTimeout <= 86_400 else {
            throw ValidationError("--tcp-idle-timeout must be 0-86400 seconds")
        }
        if let problem = Rig.midiProblem(names: midi, maps: midiMap, mackie: mcu) { throw ValidationError(problem) }
        _ = try surfaceConnections()
        for name in try surfaceRoles().keys where mcu.dropFirst().contains(name) {
            throw ValidationError("--surface-role: \(name) is not the first --mcu unit: a Mackie Control surface acts in one role, named by its first unit (\(mcu[0]))")
        }
    }

    /// `--surface-connect NAME=RE`, by name.
    private func surfaceConnections() throws -> [String: String] {
        try surfaceEntries("--surface-connect", surfaceConnect, check: Rig.surfacePatternProblem)
    }

    /// `--surface-role NAME=ROLE`, by name: roles of the access file.
    private func surfaceRoles() throws -> [String: String] {
        guard !surfaceRole.isEmpty else { return [:] }
        guard let access else { throw ValidationError("--surface-role needs --access: the role is one of the access file's") }
        let roles: [String]
        do {
            roles = Array(try AccessRules.load(path: access, outputs: Mixer.channelLimit).roles.keys).sorted()
        } catch {
            throw ValidationError("--access: \(error)")
        }
        return try surfaceEntries("--surface-role", surfaceRole) { role in
            roles.contains(role) ? nil : "'\(role.escapingControlCharacters().cut(to: 40))' is no role of the access file (\(roles.joined(separator: ", ")))"
        }
    }

    private func surfaceEntries(_ flag: String, _ entries: [String], check: (String) -> String?) throws -> [String: String] {
        var found: [String: String] = [:]
        for entry in entries {
            switch Rig.surfaceEntry(entry, names: midi + mcu, check: check) {
            case .success(let (name, value)):
                guard found[name] == nil else { throw ValidationError("\(flag): \(name) is given twice") }
                found[name] = value
            case .failure(let problem): throw ValidationError("\(flag): \(problem)")
            }
        }
        return found
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
            guard let m = Int(part.trimmingWhitespace()), (1...Mixer.channelLimit).contains(m) else {
                throw ValidationError("--mono-outputs: '\(part)' is not an output number 1-\(Mixer.channelLimit)")
            }
            set.insert(m)
        }
        return set
    }

    /// `--name`, else `Crosspoint <jack-name> on <host>`, cut to the 63
    /// bytes a DNS-SD name may have.
    private func serviceName() -> String {
        if let name { return name }
        var host = [CChar](repeating: 0, count: 256)
        let hostName = gethostname(&host, host.count - 1) == 0
            ? String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        var name = hostName.isEmpty ? "Crosspoint \(jackName)" : "Crosspoint \(jackName) on \(hostName)"
        while name.utf8.count > 63 { name.removeLast() }
        return name
    }

    func run() throws {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = OneLineLogHandler(inner: StreamLogHandler.standardError(label: label))
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "crosspoint")
        var host = JackHost.Options()
        host.clientName = jackName
        host.serverName = jackServer
        host.connectInputs = connectInputs
        host.connectOutputs = connectOutputs
        host.connectTalkbacks = connectTalkbacks
        host.listen = listen
        host.connectListen = connectListen
        host.talkbacks = try bankCounts()[.talkback] ?? 0
        host.autoSources = autoSources
        host.surfaces = midi.isEmpty && mcu.isEmpty ? nil : SurfaceWires(names: midi + mcu)
        host.surfaceConnect = try surfaceConnections()
        host.autostart = noAutostart ? nil : JackHost.Autostart(driver: autostartDriver, device: autostartDevice,
                                                                period: autostartPeriod, rate: autostartRate)
        var osc = OSCServer.Options()
        osc.bind = bind
        osc.port = oscPort
        osc.tcp = !noTcp
        osc.tcpIdleTimeout = tcpIdleTimeout > 0 ? .milliseconds(Int(tcpIdleTimeout * 1000)) : nil
        let configuration = Rig.Configuration(
            inputs: inputs, outputs: outputs, dcas: dcas, muteGroups: muteGroups, banks: try bankCounts(), directOuts: directOuts, panLaw: panLaw, monoOutputs: try monoOutputSet(),
            smoothingSeconds: Float(smoothingMs / 1000), longestDelay: Float(maxDelayMs), host: host, osc: osc, httpPort: noHttp ? nil : httpPort,
            subscriptionLease: subscriptionTimeout > 0 ? .milliseconds(Int(subscriptionTimeout * 1000)) : nil,
            autoSubscribe: autoSubscribe,
            name: serviceName(), advertise: !noAdvertise,
            policy: try accessPolicy(), access: access,
            presets: URL(fileURLWithPath: presets),
            state: state.map { URL(fileURLWithPath: $0) } ?? StateKeeper.defaultURL(clientName: jackName),
            stateOptional: stateOptional,
            scene: scene,
            midiMaps: midiMap, mackie: mcu,
            surfaceRoles: try surfaceRoles())
        do {
            try Rig(configuration, logger: logger).run()
        } catch {
            // Whatever failed names itself: the port and server, the JACK
            // client or server, jackd's own words.
            logger.critical("cannot start: \(error)")
            throw ExitCode.failure
        }
    }
}

extension PanLaw: ExpressibleByArgument {}
extension DirectTap: ExpressibleByArgument {}
extension Logger.Level: @retroactive ExpressibleByArgument {}
