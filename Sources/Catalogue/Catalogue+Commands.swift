import MixCore

/// The rig's commands: the one table of them (`Command`). A new command is
/// an entry here and its handler in the controller (`Controller.run`).
extension Catalogue {
    /// The furthest a fade may go, in seconds (longer ones are cut to it).
    public static let longestFade: Double = 3600
    /// Meter rates a subscriber may ask for, per second; and the default.
    public static let meterRates: ClosedRange<Double> = 1...60
    public static let defaultMeterRate: Double = 20
    /// How many sources, and how many outputs, a rig may have (`/rig/inputs`, `/rig/outputs`, `serve`).
    public static let channels: ClosedRange<Double> = 1...Double(Mixer.channelLimit)
    /// How long `/midi/learn` waits for a control to move, in seconds: a
    /// learn left armed must not catch a hand on a fader minutes later.
    public static let learnWindow: Double = 30
    /// Ports a subscriber may name (tablets never listen on privileged ones).
    public static let subscriberPorts: ClosedRange<Double> = 1024...65535

    /// Every command. Their order is the order a pattern reaching several
    /// of one family resolves to (`AddressSpace`). Only the channel map's
    /// form depends on the rig's size (an i per output).
    public static func commands(inputs: Int, outputs: Int) -> [Command] {
        typealias Signature = Command.Signature
        let ports = Self.subscriberPorts
        let subscribeForms = [
            Signature("i", [ports], "To this UDP port of the sender's host"), .button,
            Signature("if", [ports, 0...1], "A port, then a button"),
        ]
        let portButton = Command.Button(own: ("[port]", { ($0 ?? 0) >= ports.lowerBound }))
        let fade = 0...Self.longestFade
        let rates = Self.meterRates
        let scope = "sources, matrix, outputs, master, groups (the DCAs and mute groups; memberships go with their sources), eq (the sources' EQ alone), or a comma-separated list"
        let size = Signature(typeTags: "i", range: [Self.channels], unit: [nil])
        return [
            Command(.matrixMap, "Channel map: for each output the input it takes at unity, 0 for none",
                    Signature(typeTags: String(repeating: "i", count: outputs),
                              range: Array(repeating: 0...Double(inputs), count: outputs),
                              unit: Array(repeating: nil, count: outputs)), [],
                    button: nil, effect: .changesWithArguments, movesAudio: true, hasValue: true, answers: true),
            Command(.matrixClear, "Every crosspoint to 0", effect: .changes, movesAudio: true, exact: true),
            Command(.listenClear, "Nothing in the engineer's listen: its default pair, or silence", effect: .changes,
                    movesAudio: true, exact: true),
            Command(.status, "Replies /status/… with the rig's state", answers: true),
            Command(.stateNoteAck, "The state file's note (/status/state_note) has been read: it is cleared, for every client",
                    effect: .changes, exact: true),
            Command(.ping, "Replies /pong", answers: true),
            Command(.presetSave, "Save the scene as a preset", .text, [Signature("ss", [nil, nil], "A name and notes")],
                    button: nil, effect: .changes, answers: true),
            Command(.presetRecall,
                    "Recall a preset, fading over the preset's own time; /preset/recall/NAME recalls one on a button",
                    .text, [
                        Signature("sf", [nil, fade], "A name and a fade time", units: [nil, "time.second"]),
                        Signature("ss", [nil, nil], "A name and a scope: \(scope)"),
                        Signature("sfs", [nil, fade, nil], "A name, a fade time and a scope",
                                  units: [nil, "time.second", nil]),
                    ], button: nil, effect: .changes, movesAudio: true, answers: true),
            Command(.presetList, "Replies /preset/list with every preset's name", answers: true),
            Command(.presetDelete, "Delete a preset", .text, [], button: nil, effect: .changes, answers: true),
            Command(.presetRename, "Rename a preset (old name, new name)",
                    Signature(typeTags: "ss", range: [nil, nil], unit: [nil, nil]), [], button: nil, effect: .changes,
                    answers: true),
            Command(.presetUndo, "Back to the scene before the last recall", .none, [
                Signature("f", [fade], "Over this fade time (not 0: a lone 0 is a button's release)",
                          units: ["time.second"]),
                Signature("ff", [fade, 0...1], "A fade time, then a button", units: ["time.second", nil]),
            ], button: Command.Button(own: ("[fade]", { $0.map { $0 != 0 } ?? false })), // NaN: a fade, refused as one
                    effect: .changes, movesAudio: true, answers: true),
            Command(.presetCurrent,
                    "Replies /preset/current with the last recalled preset and 1 if the scene changed since", answers: true),
            Command(.presetUnreadable,
                    "Replies /preset/unreadable with each preset file that cannot be read: its name, then why", answers: true),
            Command(.jackPorts,
                    "Replies /jack/ports with the full names (client:port) of every other JACK client's output port, sorted: what a source may be patched to",
                    answers: true),
            Command(.rigs,
                    "Replies /rigs with the name and page address of every other Crosspoint rig DNS-SD finds (name, url, name, url, …, sorted by name); subscribers are sent it whenever that list changes",
                    answers: true),
            Command(.rigInputs, "Sources: set while the rig plays, added or removed at the end (full control only); "
                    + "without an argument, replies /rig/inputs with how many there are", size, [], button: nil,
                    effect: .changesWithArguments, hasValue: true, answers: true),
            Command(.rigOutputs, "Outputs: set while the rig plays, added or removed at the end (full control only); "
                    + "without an argument, replies /rig/outputs with how many there are", size, [], button: nil,
                    effect: .changesWithArguments, hasValue: true, answers: true),
            Command(.subscribe, "Feedback of every change, and the full state now, to the sender", .none, subscribeForms,
                    button: portButton),
            Command(.subscribeForms, "Feedback and the full state as /subscribe gives them, with each level only in the "
                    + "forms named: a comma-separated list of \(Parameter.Form.levelFormNames) (linear is the level's own address)",
                    .text, [Signature("si", [nil, ports], "The forms, then a UDP port of the sender's host")], button: nil),
            Command(.unsubscribe, "No more feedback to the sender", .none, subscribeForms, button: portButton),
            Command(.metersSubscribe, "Meters to the sender, 20 times a second", .none, [
                Signature("f", [rates], "At this rate per second (a rate is above 1; 1 or less is a button)"),
                Signature("ff", [rates, 0...1], "A rate, then a button"),
            ], button: Command.Button(own: ("[rate]", { ($0 ?? 0) > 1 }))),
            Command(.metersUnsubscribe, "No more meters to the sender"),
            Command(.metersRate, "Meters to the sender at this rate per second, whether subscribed or not",
                    Signature(typeTags: "f", range: [rates], unit: [nil]), [], button: nil),
            Command(.login, "Log this session in with a code from the access file: it takes the code's role",
                    .text, [], button: nil, answers: true),
            Command(.logout, "Back to the role of the address this session sends from", answers: true),
            Command(.midiLearn, "MIDI learn: the next control moved on a MIDI controller (serve --midi) within "
                    + "\(Int(Self.learnWindow)) s is bound to this parameter, and the controller's map file rewritten; "
                    + "replies /midi/learning now and /midi/learnt when bound", .text, [], button: nil, effect: .changes,
                    answers: true),
            Command(.midiForget, "Removes every MIDI controller's bindings of this parameter, rewriting their map files; "
                    + "replies /midi/forgotten", .text, [], button: nil, effect: .changes, answers: true),
            Command(.role, "Replies /role with this session's role: its name, its control (all, none or outputs), and its outputs",
                    answers: true),
        ]
    }

    /// A command's description, for what does not depend on the rig's size
    /// (its button, effect, whether a pattern reaches it).
    public static func command(_ name: Command.Name) -> Command {
        commandTable[name] ?? Command(name, "")
    }

    private static let commandTable: [Command.Name: Command] =
        Dictionary(uniqueKeysWithValues: commands(inputs: 1, outputs: 1).map { ($0.name, $0) })
}
