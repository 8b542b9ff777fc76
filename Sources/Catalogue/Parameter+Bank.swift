import SceneModel

extension Parameter {
    /// This toggle, latched by its strip's toggle `name` (`latch`).
    public func latching(by name: String) -> Parameter {
        var latched = self
        latched.latch = name
        return latched
    }

    /// A parameter of a kind kept in the scene's banks (`StripKind.bank`):
    /// its value is its strip's there, by its name. No kernel stage unless
    /// `kernel` names one: the scene alone holds it.
    public static func bank(_ strip: Strip, _ name: String, _ kind: Kind, _ description: String,
                            default defaultValue: Value, kernel: Kernel = .none, reach: Reach = .engineer,
                            storage: Storage = .scene, display: Display,
                            check: @escaping @Sendable (Value) -> String? = { _ in nil }) -> Parameter {
        Parameter(strip, name, kind, description, default: defaultValue, kernel: kernel, reach: reach, storage: storage,
                  display: display, check: check,
                  get: { scene, place in scene.banks[strip.name]?.value(place.channel, name) ?? Bank.value(defaultValue, of: place.channel) },
                  set: { scene, place, value in scene.banks[strip.name]?.set(place.channel, name, value) })
    }
}
