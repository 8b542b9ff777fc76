/// The messages the rig sends at addresses of their own (`Reply`): the one
/// table of them. A new `/status` field is an entry here and its value in
/// the rig's status report.
extension Catalogue {
    public static let replies: [Reply] = {
        typealias R = Reply
        let meter = { (name: R.Name, side: R.MeterSide, what: String) in
            R(name, .perChannel("f", side), "Sent to meter subscribers: each \(side.rawValue)'s \(what) level in dB (-90 = silence)"
                + (side == .source ? ", after its level, mute, polarity, DCAs and mute groups, not after solo" : ""))
        }
        return [
            R(.pong, .fixed(""), "The answer to /ping"),
            R(.error, .fixed("ss"), "A message the rig did not act on: its address, then why"),
            R(.statusSampleRate, .fixed("i"), "JACK's sample rate, in Hz"),
            R(.statusBufferSize, .fixed("i"), "JACK's period, in frames"),
            R(.statusInputs, .fixed("i"), "How many sources the rig has"),
            R(.statusOutputs, .fixed("i"), "How many outputs the rig has"),
            R(.statusDCAs, .fixed("i"), "How many DCAs the rig has (serve --dcas)"),
            R(.statusMuteGroups, .fixed("i"), "How many mute groups the rig has (serve --mute-groups)"),
            R(.statusXruns, .fixed("i"), "Xruns JACK reported since the rig started"),
            R(.statusResizeFrames, .fixed("i"),
              "Frames the last /rig/inputs or /rig/outputs waited for the audio thread beyond the next period: 0 when the next period rendered at the new size; -1 before any"),
            R(.statusDSPLoad, .fixed("f"), "JACK's DSP load, in percent"),
            R(.statusUptime, .fixed("f"), "Seconds since the rig started"),
            R(.statusSIMD, .fixed("s"),
              "The build of the mixing loops the rig runs: sse2, avx2, avx512 (x86-64) or neon (aarch64); the widest the CPU has unless CROSSPOINT_SIMD forces one (docs/performance.md)"),
            R(.statusSubscribers, .fixed("i"), "Feedback subscribers"),
            R(.statusMeterSubscribers, .fixed("i"), "Meter subscribers"),
            R(.statusDenied, .fixed("i"), "Packets and connections refused from hosts the access file does not admit"),
            R(.statusLateBundles, .fixed("i"), "Timed bundles that arrived after their time"),
            R(.statusDroppedFrames, .fixed("i"),
              "Meter frames the asking session lost by not reading them in time: a WebSocket more than 1 MiB behind loses its oldest meters first; 0 for UDP and TCP"),
            R(.statusStateSaved, .fixed("is"),
              "Whether the rig's state file is being saved: 1 and \"\" while saves succeed; 0 and why while they fail (the show goes on, unsaved, until one succeeds). Subscribers are told when it changes"),
            R(.statusStateNote, .fixed("sss"),
              "What the rig has to say about its state file until /status/state_note/ack: the file (the state file, or where an unreadable one was set aside), what happened, and when (UTC, ISO 8601); three empty strings when nothing. Subscribers are told when it changes"),
            R(.statusAccess, .fixed("s"),
              "What the asking session may do: full, read-only or outputs (/role says which outputs)"),
            R(.presetSaved, .fixed("s"), "A preset was saved, once on disk: its name"),
            R(.presetDeleted, .fixed("s"), "A preset was deleted, once on disk: its name"),
            R(.presetRenamed, .fixed("ss"), "A preset was renamed, once on disk: its old name, then its new one"),
            R(.presetRecalled, .fixed("sf"), "A preset was recalled: its name, then its fade time in seconds"),
            R(.presetSkipped, .fixed("ss"),
              "To the sender of a recall of a preset larger than the rig: its name, then what of it was skipped"),
            R(.presetUndone, .fixed("s"), "To the sender of /preset/undo: the preset current again (\"\" for none)"),
            R(.roleTalkbacks, .fixed("s"),
              "After every /role: the talkbacks this session may talk on, by number (\"2\", \"1,2\"; \"\" for none): every one for control all, those the access file grants otherwise"),
            R(.late, .fixed("sf"),
              "To the sender of a timed bundle that arrived after its time: its first message's address, then how late, in seconds"),
            R(.midiLearning, .fixed("sf"),
              "To the sender of /midi/learn: the parameter's address as a map names it, then how many seconds it waits for a control"),
            R(.midiLearnt, .fixed("sss"),
              "To the sender of /midi/learn, once a control moved: the parameter's address, the controller's name, then the control (\"cc 7 on channel 1\")"),
            R(.midiForgotten, .fixed("si"),
              "To the sender of /midi/forget: the parameter's address, then how many bindings were removed"),
            meter(.metersInput, .input, "peak"),
            meter(.metersInputRMS, .input, "RMS"),
            meter(.metersSource, .source, "peak"),
            meter(.metersSourceRMS, .source, "RMS"),
            meter(.metersOutput, .output, "peak"),
            meter(.metersOutputRMS, .output, "RMS"),
            R(.metersLimiter, .perChannel("f", .output),
              "Sent to meter subscribers: each output's limiter's gain in dB since the last (0 = taking nothing off, -6 = 6 dB of gain reduction)"),
        ]
    }()

    /// `/status`'s fields, in the order its bundle carries them.
    public static var statusFields: [Reply] { replies.filter { $0.name.isStatus } }
}
