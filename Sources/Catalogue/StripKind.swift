import MixCore
import SceneModel

/// One kind of strip, described once: how its strips are addressed and
/// counted, what sets their count, how files hold them, and where its
/// parameters' values live. (Its recall safe is described with the safes,
/// `Catalogue.safes`; a kind kept in banks gets one, `RecallSafe.bank`.) The address
/// space, targets, presets and the state file, `preset show`/`diff`, the
/// fitting of a scene to a new size, OSCQuery and the page's sections all
/// follow from the catalogue's list of kinds (`Catalogue.kinds`).
///
/// A new kind is this description and its parameters (`Catalogue.init`'s
/// `adding:`): with `Storage.bank` its values live in the scene's banks and
/// it needs no other code; a kind that moves sound adds its kernel stage.
public struct StripKind: Sendable {
    /// How its strips are placed and addressed.
    public enum Shape: Sendable, Equatable {
        /// Numbered 1…count: `/{head}/{n}/…` (sources, outputs, DCAs).
        case numbered
        /// One strip: `/{head}/…` (the master).
        case single
        /// One per source and output: `/matrix/{in}/{out}` (crosspoints).
        case crosspoint
        /// A membership of an `owner` strip (a source, a talkback) in one
        /// strip of `group`'s kind: `/{owner}/{n}/{field}/{g}`, and in files
        /// the owner's list of the groups it belongs to under `field`
        /// (`/source/{n}/dca/{g}`, `/talkback/{t}/output/{m}`).
        case membership(owner: Parameter.Strip, group: Parameter.Strip, field: String)
    }

    /// Where its parameters' values live.
    public enum Storage: Sendable, Equatable {
        /// In a field of `Scene` of its own type (`Source`, `DCA`): its
        /// parameters' `get` and `set` reach it, and the scene sizes it.
        case typed
        /// In `Scene.banks[strip.name]`, by parameter name: the catalogue
        /// sizes it, and its parameters need no `get` or `set`.
        case bank
    }

    public let strip: Parameter.Strip
    public let shape: Shape
    public let storage: Storage
    /// The first part of its addresses (`source`, `matrix`); nil for a
    /// membership, which lives under a source's.
    public let head: String?
    /// Many of it in words, for errors: "no DCAs on this rig".
    public let plural: String
    /// Its count's field in a file's `channels` (`inputs`, `dcas`); nil
    /// where the count follows from others' (the matrix, memberships) or is
    /// one (the master).
    public let countField: String?
    /// The field of a file that holds its strips: a list of objects
    /// (`sources`, `dcas`), or one object (`master`); nil where it has its
    /// own layout (crosspoints, memberships).
    public let field: String?
    /// The counts a rig may have, and the `serve` flag that sets it.
    public let counts: ClosedRange<Int>
    public let flag: String?
    /// How many a rig has when its flag is not given.
    public let defaultCount: Int

    /// Its strip's place: strip n (a numbered kind's), or for the matrix
    /// and memberships, the source and the output or group.
    public let place: @Sendable (_ n: Int, _ other: Int) -> Parameter.Place
    /// How many strips of it a scene has (a numbered or single kind's).
    public let count: @Sendable (Scene) -> Int

    public init(_ strip: Parameter.Strip, _ shape: Shape, storage: Storage = .typed, head: String?, plural: String,
                countField: String?, field: String?, counts: ClosedRange<Int> = 1...1, flag: String? = nil,
                defaultCount: Int = 0, place: @escaping @Sendable (_ n: Int, _ other: Int) -> Parameter.Place,
                count: @escaping @Sendable (Scene) -> Int) {
        self.strip = strip
        self.shape = shape
        self.storage = storage
        self.head = head
        self.plural = plural
        self.countField = countField
        self.field = field
        self.counts = counts
        self.flag = flag
        self.defaultCount = defaultCount
        self.place = place
        self.count = count
    }

    /// Why `count` is not a count its flag takes ("--dcas must be 0-32
    /// (got 40)"), or nil.
    public func countProblem(_ count: Int) -> String? {
        guard !counts.contains(count) else { return nil }
        let most = counts.upperBound == Mixer.channelLimit ? ", the most the mixer takes" : ""
        return "\(flag ?? plural) must be \(counts.lowerBound)-\(counts.upperBound)\(most) (got \(count))"
    }

    /// A kind whose strips are numbered, kept in the scene's banks: all a
    /// new kind without a type of its own needs. `/{name}/{n}/…`; in files,
    /// `channels.{field}` and a list `{field}`; `defaultCount` on a rig
    /// unless its count is set, by `serve --{field} N` (`Catalogue.bankCounts`).
    public static func bank(_ name: String, noun: String, plural: String, field: String,
                            counts: ClosedRange<Int>, defaultCount: Int = 0) -> StripKind {
        let strip = Parameter.Strip(name, noun: noun)
        return StripKind(strip, .numbered, storage: .bank, head: name, plural: plural, countField: field, field: field,
                         counts: counts, flag: "--\(field)", defaultCount: defaultCount, place: { n, _ in .numbered(strip, n) },
                         count: { $0.banks[name]?.count ?? 0 })
    }
}
