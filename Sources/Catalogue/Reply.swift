/// A message the rig sends at an address of its own, not a command's or a
/// parameter's (those answer at their own address): `/pong`, `/error`, the
/// fields of `/status`'s bundle, the preset events and the meters,
/// described once. The controller, the meter stream and the preset desk
/// send them by these names; OSCQuery describes the meters from them; the
/// page finds them in `catalogue.json`'s `replies` (`catalogue.js`
/// `replyAddress`), writing none itself. The table is `Catalogue.replies`.
public struct Reply: Sendable {
    /// Every reply, by its address.
    public enum Name: String, Hashable, Sendable, CaseIterable {
        case pong = "/pong"
        case error = "/error"
        // `/status`'s bundle, in this order.
        case statusSampleRate = "/status/sample_rate"
        case statusBufferSize = "/status/buffer_size"
        case statusInputs = "/status/inputs"
        case statusOutputs = "/status/outputs"
        case statusDCAs = "/status/dcas"
        case statusMuteGroups = "/status/mute_groups"
        case statusXruns = "/status/xruns"
        case statusResizeFrames = "/status/resize_frames"
        case statusDSPLoad = "/status/dsp_load"
        case statusUptime = "/status/uptime"
        case statusSIMD = "/status/simd"
        case statusSubscribers = "/status/subscribers"
        case statusMeterSubscribers = "/status/meter_subscribers"
        case statusDenied = "/status/denied"
        case statusLateBundles = "/status/late_bundles"
        case statusDroppedFrames = "/status/dropped_frames"
        case statusStateSaved = "/status/state_saved"
        case statusStateNote = "/status/state_note"
        case statusAccess = "/status/access"
        case presetSaved = "/preset/saved"
        case presetDeleted = "/preset/deleted"
        case presetRenamed = "/preset/renamed"
        case presetRecalled = "/preset/recalled"
        case presetSkipped = "/preset/skipped"
        case presetUndone = "/preset/undone"
        case late = "/late"
        case midiLearning = "/midi/learning"
        case midiLearnt = "/midi/learnt"
        case midiForgotten = "/midi/forgotten"
        case roleTalkbacks = "/role/talkbacks"
        case metersInput = "/meters/input"
        case metersOutput = "/meters/output"
        case metersInputRMS = "/meters/input/rms"
        case metersOutputRMS = "/meters/output/rms"
        case metersSource = "/meters/source"
        case metersSourceRMS = "/meters/source/rms"
        case metersLimiter = "/meters/limiter"

        public var address: String { rawValue }
        /// One of `/status`'s fields.
        public var isStatus: Bool { rawValue.hasPrefix("/status/") }
    }

    /// Its arguments.
    public enum Arguments: Sendable, Equatable {
        /// These OSC type tags ("" for none).
        case fixed(String)
        /// One argument of this type per channel of a strip.
        case perChannel(Character, MeterSide)
    }

    /// Which channels a meter message has one level for.
    public enum MeterSide: String, Sendable {
        /// The inputs as they arrive, and the sources after their gains: one per source.
        case input, source
        /// One per output.
        case output
    }

    public let name: Name
    public let arguments: Arguments
    public let description: String

    public var address: String { name.address }

    public init(_ name: Name, _ arguments: Arguments, _ description: String) {
        self.name = name
        self.arguments = arguments
        self.description = description
    }

    /// Its type tags for a rig of this size.
    public func typeTags(inputs: Int, outputs: Int) -> String {
        switch arguments {
        case .fixed(let tags): tags
        case .perChannel(let tag, let side): String(repeating: tag, count: side == .output ? outputs : inputs)
        }
    }
}
