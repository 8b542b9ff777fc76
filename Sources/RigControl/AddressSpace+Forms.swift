import Catalogue

/// The address forms of the catalogue's parameters: a level has three
/// (`/source/1/volume`, `/source/1/db`, `/source/1/fader`; `/matrix/1/2`,
/// `/matrix/1/2/db`, `/matrix/1/2/fader`), anything else one. Every form of
/// a continuous parameter (a level or a number) also takes relative steps at
/// its address with `/delta` after it (`/source/1/db/delta`,
/// `/matrix/1/2/delta`, `/output/1/delay/delta`), touch and release at
/// `/z` or `/touch` after it, and where it is now at `/current`; toggles
/// and texts do not.
extension AddressSpace {
    /// One way of addressing a parameter of a strip: the parts of the
    /// address after the place (`["db"]`, `["pan", "delta"]`; none for the
    /// crosspoint's own level), and what they name there.
    struct Leaf {
        let parts: [String]
        let number: Int
        let form: Target.Form
        let role: Role

        /// What an address ending in a suffix names, beside the value itself.
        enum Role: CaseIterable {
            case value, delta, touch, current

            /// The last parts that name it (any one of them), written out:
            /// never matched by a pattern, so `/source/1/volume/*` stays a value.
            var suffixes: [String] {
                switch self {
                case .value: []
                case .delta: ["delta"]
                case .touch: ["z", "touch"]
                case .current: ["current"]
                }
            }
        }

        func target(at place: Parameter.Place) -> Target {
            switch role {
            case .value: .parameter(number, place, form)
            case .delta: .delta(number, place, form)
            case .touch: .touch(number, place, form)
            case .current: .current(number, place, form)
            }
        }
    }

    /// The forms parameter `number` is addressed in, the first its own.
    public func forms(_ number: Int) -> [Target.Form] {
        catalogue.parameters[number].kind.forms
    }

    /// The last part of a form's address: the parameter's name, or the
    /// level's unit; "" for none (the crosspoint's linear level).
    func leaf(_ number: Int, _ form: Target.Form) -> String {
        Parameter.leaf(catalogue.parameters[number].name, form)
    }

    /// Every way of addressing `strip`'s parameters, in catalogue order: each
    /// form, then each form's step, touch and current value.
    static func leaves(of strip: Parameter.Strip, in catalogue: Catalogue) -> [Leaf] {
        catalogue.numbers(of: strip).flatMap { number -> [Leaf] in
            let parameter = catalogue.parameters[number]
            let values = parameter.kind.forms.map { form in
                let leaf = Parameter.leaf(parameter.name, form)
                return Leaf(parts: leaf.isEmpty ? [] : leaf.split(separator: "/").map(String.init), number: number, form: form,
                            role: .value)
            }
            guard parameter.kind.isContinuous else { return values }
            return values + [Leaf.Role.delta, .touch, .current].flatMap { role in
                role.suffixes.flatMap { suffix in
                    values.map { Leaf(parts: $0.parts + [suffix], number: number, form: $0.form, role: role) }
                }
            }
        }
    }

    /// Every form of a target, as feedback sends them: a level in its three
    /// forms, anything else as it is.
    public func allForms(_ target: Target) -> [Target] {
        guard case .parameter(let number, let place, _) = target else { return [target] }
        return forms(number).map { .parameter(number, place, $0) }
    }

    /// The address of a target.
    public func address(_ target: Target) -> String {
        switch target {
        case .parameter(let number, let place, let form):
            let leaf = leaf(number, form)
            return leaf.isEmpty ? place.prefix : "\(place.prefix)/\(leaf)"
        case .delta(let number, let place, let form):
            return "\(address(.parameter(number, place, form)))/delta"
        case .touch(let number, let place, let form):
            return "\(address(.parameter(number, place, form)))/touch"
        case .current(let number, let place, let form):
            return "\(address(.parameter(number, place, form)))/current"
        default:
            return target.commandAddress
        }
    }
}
