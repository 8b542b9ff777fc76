import Access
import Catalogue
import FoundationEssentials
import JackHost
import MixCore
import OSC
import SceneModel

extension Rig {
    /// What `serve` makes a rig from: its flags, read and checked.
    struct Configuration {
        /// nil: the size the saved state had (else 8).
        var inputs: Int?
        var outputs: Int?
        /// `--dcas`, `--mute-groups`: the rig's groups, whatever the saved state had.
        var dcas: Int
        var muteGroups: Int
        /// The counts of the kinds kept in banks (`--{field} N`), whatever
        /// the saved state had; a kind not named has none.
        var banks: [Parameter.Strip: Int] = [:]
        /// `--direct-outs`: every source's direct out, and every added one's; nil: as saved.
        var directOuts: DirectTap?
        var panLaw: PanLaw
        var monoOutputs: Set<Int>
        var smoothingSeconds: Float
        /// The longest output delay, in milliseconds.
        var longestDelay: Float
        var host: JackHost.Options
        var osc: OSCServer.Options
        /// nil: no OSCQuery server.
        var httpPort: Int?
        /// An idle limit on subscriptions; nil: none.
        var subscriptionLease: Duration?
        /// Subscribe a client that changes something (`--auto-subscribe`).
        var autoSubscribe = false
        /// The DNS-SD name, also OSCQuery's `NAME`.
        var name: String
        /// Advertise over DNS-SD (not with `--no-advertise`).
        var advertise: Bool
        /// Who is let in at start (`--allow`, `--read-only`), unless the access file says.
        var policy: AccessPolicy
        /// The access file (`--access`), read at start and on SIGHUP; nil:
        /// `policy` decides.
        var access: String?
        var presets: URL
        var state: URL
        /// Run when the state file cannot be written (`--state-optional`),
        /// rather than stop: the show is then never saved.
        var stateOptional = false
        /// A preset to start from instead of the saved state.
        var scene: String?
        /// Each MIDI controller's map file, in the order of `host.surfaces`.
        var midiMaps: [String] = []
        /// The Mackie Control units (`--mcu`), left to right; their wires follow the `--midi` controllers'.
        var mackie: [String] = []
        /// `--surface-role`: controllers bound to a role of the access file, by name.
        var surfaceRoles: [String: String] = [:]
    }
}
