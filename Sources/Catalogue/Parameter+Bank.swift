import SceneModel

extension Parameter {
    /// A parameter of a kind kept in the scene's banks (`StripKind.bank`):
    /// its value is its strip's there, by its name. No kernel stage: the
    /// scene alone holds it.
    public static func bank(_ strip: Strip, _ name: String, _ kind: Kind, _ description: String,
                            default defaultValue: Value, reach: Reach = .engineer, display: Display,
                            check: @escaping @Sendable (Value) -> String? = { _ in nil }) -> Parameter {
        Parameter(strip, name, kind, description, default: defaultValue, kernel: .none, reach: reach, display: display,
                  check: check,
                  get: { scene, place in scene.banks[strip.name]?.value(place.channel, name) ?? defaultValue },
                  set: { scene, place, value in scene.banks[strip.name]?.set(place.channel, name, value) })
    }
}
