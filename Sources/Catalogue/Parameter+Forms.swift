import MixCore

/// How a parameter's value is written on the wire, in each address form:
/// the one description of the ranges, units and type tags that argument
/// checks, relative steps, queries, feedback, OSCQuery and files use.
///
/// A level (a gain, 1 = unity) has three forms: linear gain 0…4 at its own
/// address, dB −90…+12 at `…/db` (−90 is off), and a console fader position
/// 0…1 at `…/fader` (`FaderLaw`; levels above +10 dB show as 1). Anything
/// else has one, plain.
extension Parameter {
    /// How a parameter's value is written: a level as linear gain, dB, or
    /// console fader position 0…1; anything else plainly.
    public enum Form: Hashable, Sendable, CaseIterable { case plain, linear, decibels, fader }

    /// The three scales of a level.
    public enum Level {
        /// Linear gain: unity is 1, the highest +12.04 dB.
        public static let gains: ClosedRange<Float> = 0...4
        /// dB: −90 is off, the highest +12 (linear 3.98).
        public static let decibels: ClosedRange<Float> = FaderLaw.floorDecibels...12
        /// A fader position: 0.75 is 0 dB, 1 is +10 dB.
        public static let positions: ClosedRange<Float> = 0...1
    }
}

extension Parameter.Kind {
    /// The forms it is addressed in, its own first.
    public var forms: [Parameter.Form] {
        if case .level = self { [.linear, .decibels, .fader] } else { [.plain] }
    }

    /// Whether it moves by relative steps (`…/delta`), fades, and has a
    /// position to touch: levels and numbers; on/off and names do not.
    public var isContinuous: Bool {
        switch self {
        case .level, .number: true
        case .toggle, .text: false
        }
    }

    /// The range a value in `form` is clamped to; nil for text.
    public func range(_ form: Parameter.Form) -> ClosedRange<Float>? {
        switch (self, form) {
        case (.level, .decibels): Parameter.Level.decibels
        case (.level, .fader): Parameter.Level.positions
        case (.level, _): Parameter.Level.gains
        case (.number(let range, _), _): range
        case (.toggle, _): 0...1
        case (.text, _): nil
        }
    }

    /// A unit from the OSCQuery proposal's list; nil for none (a fader
    /// position has none there: "none").
    public func unit(_ form: Parameter.Form) -> String? {
        switch (self, form) {
        case (.level, .decibels): "gain.db"
        case (.level, .fader): "none"
        case (.level, _): "gain.linear"
        case (.number(_, let unit), _): unit
        case (.toggle, _), (.text, _): nil
        }
    }

    /// The OSC type tag of its value: f, i (0/1) or s.
    public var typeTag: Character {
        switch self {
        case .level, .number: "f"
        case .toggle: "i"
        case .text: "s"
        }
    }

    /// What `form` adds to the parameter's description: " in dB (-90 = off)".
    public func formNote(_ form: Parameter.Form) -> String {
        switch (self, form) {
        case (.level, .decibels): " in dB (-90 = off)"
        case (.level, .fader): " as a console fader position (0.75 = 0 dB)"
        case (.level, _): ", linear (1 = unity)"
        default: ""
        }
    }

    /// The value a number written in `form` stands for (a dB or a fader
    /// position becomes a gain).
    public func value(_ number: Double, in form: Parameter.Form) -> Parameter.Value {
        switch (self, form) {
        case (.level, .decibels): .number(FaderLaw.gain(decibels: Float(number)))
        case (.level, .fader): .number(FaderLaw.gain(decibels: FaderLaw.decibels(position: Float(number))))
        case (.toggle, _): .toggle(number != 0)
        default: .number(Float(number))
        }
    }

    /// A number value as `form` writes it (a gain in dB, or as a fader
    /// position, at most 1).
    public func number(_ value: Float, in form: Parameter.Form) -> Float {
        switch (self, form) {
        case (.level, .decibels): FaderLaw.decibels(gain: value)
        case (.level, .fader): min(1, FaderLaw.position(gain: value))
        default: value
        }
    }
}

extension Parameter {
    /// The last part of a form's address: the parameter's name, or the
    /// level's scale; "" for none (the crosspoint's linear level).
    public static func leaf(_ name: String, _ form: Form) -> String {
        switch form {
        case .plain, .linear: name
        case .decibels: "db"
        case .fader: "fader"
        }
    }
}

extension Parameter.Form {
    /// A level's form as a subscriber names it (`/subscribe/forms`): the
    /// level's own address is `linear`, then `db` and `fader`, as their
    /// addresses end. Nil for a plain value, which has only one form.
    public var name: String? {
        switch self {
        case .linear: "linear"
        case .decibels: "db"
        case .fader: "fader"
        case .plain: nil
        }
    }

    /// The level forms a comma-separated list names ("linear,fader"; spaces
    /// around the names are allowed). Nil when it names none, or something
    /// that is not a level's form.
    public static func levelForms(named list: String) -> Set<Self>? {
        var forms = Set<Self>()
        for word in list.split(separator: ",", omittingEmptySubsequences: false) {
            let name = String(word.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
            guard let form = allCases.first(where: { $0.name == name }) else { return nil }
            forms.insert(form)
        }
        return forms.isEmpty ? nil : forms
    }

    /// "linear, db, fader": what a list may name, for an `/error`.
    public static var levelFormNames: String { allCases.compactMap(\.name).joined(separator: ", ") }
}
