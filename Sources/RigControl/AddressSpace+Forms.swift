import Catalogue

/// The address forms of the catalogue's parameters: a level has three
/// (`/source/1/volume`, `/source/1/db`, `/source/1/fader`; `/matrix/1/2`,
/// `/matrix/1/2/db`, `/matrix/1/2/fader`), anything else one.
extension AddressSpace {
    /// The forms parameter `number` is addressed in, the first its own.
    public func forms(_ number: Int) -> [Target.Form] {
        catalogue.parameters[number].isLevel ? [.linear, .decibels, .fader] : [.plain]
    }

    /// The last part of a form's address: the parameter's name, or the
    /// level's unit; "" for none (the crosspoint's linear level).
    func leaf(_ number: Int, _ form: Target.Form) -> String {
        switch form {
        case .plain, .linear: catalogue.parameters[number].name
        case .decibels: "db"
        case .fader: "fader"
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
        guard case .parameter(let number, let place, let form) = target else { return target.commandAddress }
        let leaf = leaf(number, form)
        return leaf.isEmpty ? place.prefix : "\(place.prefix)/\(leaf)"
    }

    /// Every form of every parameter of `strip`, with its leaf, in catalogue order.
    func leaves(of strip: Parameter.Strip) -> [(leaf: String, number: Int, form: Target.Form)] {
        catalogue.numbers(of: strip).flatMap { number in forms(number).map { (leaf(number, $0), number, $0) } }
    }
}
