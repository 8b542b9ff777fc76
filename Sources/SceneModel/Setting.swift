/// One parameter's value: a number, on or off, or text. The catalogue's
/// `Parameter.Value`; here so that a `Bank` can hold it.
public enum Setting: Equatable, Hashable, Sendable {
    case number(Float)
    case toggle(Bool)
    case text(String)

    public var number: Float { if case .number(let v) = self { v } else { 0 } }
    public var isOn: Bool { if case .toggle(let on) = self { on } else { false } }
    public var text: String { if case .text(let t) = self { t } else { "" } }
}
