import Catalogue
import JSON

/// What the page builds its controls from: the catalogue's parameters and
/// safes, strip by strip, with how each is shown (`Parameter.Display`),
/// served beside the page as `catalogue.json`. The page has no list of
/// parameters of its own: a new catalogue entry of an existing control kind
/// appears on it with no page code (docs/page.md, "Built from the catalogue").
///
///     { "strips": { "source": [ENTRY…], "output": […], "master": […],
///                   "dca": […], "mutegroup": […] },
///       "matrix": ENTRY, "memberships": [ENTRY…] (each with its `owner` and `group` kinds),
///       "places": { "source": { "strip": "source {n}", "Strip": "Source {n}", "plural": "sources" }, … },
///       "counts": { KIND: N, … },
///       "commands": { "rigInputs": { "address": "/rig/inputs", "types": "i", "range": [[1, 512]] }, … },
///       "replies": { "statusInputs": { "address": "/status/inputs", "types": "i" },
///                    "metersInput": { "address": "/meters/input", "types": "f", "perChannel": "input" }, … } }
///
/// (`{n}` in a group's address is its group number; a membership's address
/// has `{n}` for the source and `{g}` for the group, and its `group` says
/// which strip the group is: "dca" or "mutegroup".) `places` says how
/// titles name a place of each strip (`{strip}`, `{Strip}`), "DCA 2" and
/// "mute group 2" as the rig's own titles do, so the page words none itself.
/// `counts` gives how many strips the rig has of each kind kept in the
/// scene's banks (`StripKind.bank`): the page draws a section of such
/// strips, from their entries, for a kind it has no code of its own for.
///
/// An entry: `name`; `address`, with `{n}` for the channel; `control`
/// (fader, pan, number, toggle, text); `title`, with `{strip}` ("source 3")
/// and `{Strip}` ("Source 3"); `pages` it is on (`engineer`, and `mix` for
/// what a performer's role may change on its outputs); and by control:
/// `label` (toggle), `min`/`max` (pan, number), `step`/`suffix` (number),
/// `placeholder`/`maxLength` (text).
///
/// `commands` is the catalogue's command table (`Catalogue.commands`), by
/// each command's name (`Command.Name`): its address, and, where its usual
/// form takes arguments, their type tags and per argument its range
/// (`[lowest, highest]`, null where there is none). A range that follows
/// the rig's size (the channel map's) is left out: this file is made once
/// at start. The page sends commands and reads their replies (a query's
/// reply comes back at the command's own address) through this table
/// (`catalogue.js` `commandAddress`), writing no command address itself.
///
/// `replies` is the catalogue's table of the messages the rig sends at
/// addresses of their own (`Catalogue.replies`: `/status`'s fields, the
/// preset events, `/pong`, `/error`, the meters), by name (`Reply.Name`):
/// its address and type tags, a meter's one per channel of its side
/// (`perChannel`). The page reads them through `catalogue.js`
/// `replyAddress`, writing none itself.
public enum PageDescription {
    /// The file's path under the page, as served (`/page/catalogue.json`).
    public static let path = "catalogue.json"

    /// `counts`: how many strips the rig has of each kind kept in banks
    /// (fixed at start, as groups are), for the page to draw them.
    public static func json(_ catalogue: Catalogue, counts: [Parameter.Strip: Int] = [:]) -> String {
        var strips: [(String, String)] = []
        for kind in catalogue.kinds where kind.shape == .numbered || kind.shape == .single {
            guard let key = kind.head else { continue }
            let prefix = kind.shape == .single ? "/\(key)" : "/\(key)/{n}"
            var entries = catalogue.numbers(of: kind.strip).map { number in
                entry(catalogue.parameters[number], prefix)
            }
            entries += catalogue.safes.filter { $0.strip == kind.strip }.map(entry)
            strips.append((key, JSONWriter.array(entries, indent: "  ")))
        }
        let crosspoint = catalogue.numbers(of: .crosspoint).first.map { entry(catalogue.parameters[$0], "/matrix/{n}/{m}") }
        // A source's groups, a talkback's destinations: each by its owner's kind.
        let memberships = catalogue.memberships.compactMap { membership -> String? in
            guard let owner = membership.owner.head, let group = membership.group.head else { return nil }
            let field = membership.field
            let fields = [("name", JSONText.quoted(field)), ("owner", JSONText.quoted(owner)), ("group", JSONText.quoted(group)),
                          ("address", JSONText.quoted("/\(owner)/{n}/\(field)/{g}"))]
                + common(catalogue.parameters[membership.parameter].display, pages: ["engineer"])
            return JSONWriter.inline(fields)
        }
        let banked = catalogue.kinds.compactMap { kind -> (String, String)? in
            guard kind.storage == .bank, kind.shape == .numbered, let key = kind.head else { return nil }
            return (key, "\(counts[kind.strip] ?? 0)")
        }
        return JSONWriter.object([("strips", JSONWriter.object(strips, indent: "  ")), ("matrix", crosspoint ?? "null"),
                                  ("memberships", JSONWriter.array(memberships, indent: "  ")), ("places", places(catalogue)),
                                  ("counts", JSONWriter.inline(banked)),
                                  ("commands", commands()), ("replies", replies())]) + "\n"
    }

    /// The command table, by name: each command's address, and its usual
    /// form's type tags and ranges unless they depend on the rig's size
    /// (told by describing the commands at two sizes).
    static func commands() -> String {
        let small = Catalogue.commands(inputs: 1, outputs: 1)
        let large = Dictionary(uniqueKeysWithValues: Catalogue.commands(inputs: 2, outputs: 2).map { ($0.name, $0.signature) })
        let named = small.map { command in
            var fields = [("address", JSONText.quoted(command.address))]
            let signature = command.signature, other = large[command.name]
            let fixed = other?.typeTags == signature.typeTags && other?.range == signature.range
            if fixed && !signature.typeTags.isEmpty {
                fields.append(("types", JSONText.quoted(signature.typeTags)))
                if signature.range.contains(where: { $0 != nil }) {
                    let ranges = signature.range.map { range in
                        range.map { JSONWriter.inlineArray([JSONWriter.number($0.lowerBound), JSONWriter.number($0.upperBound)]) } ?? "null"
                    }
                    fields.append(("range", JSONWriter.inlineArray(ranges)))
                }
            }
            return (String(describing: command.name), JSONWriter.inline(fields))
        }
        return JSONWriter.object(named, indent: "  ")
    }

    /// The reply table, by name: each reply's address and type tags.
    static func replies() -> String {
        let named = Catalogue.replies.map { reply in
            var fields = [("address", JSONText.quoted(reply.address))]
            switch reply.arguments {
            case .fixed(let tags): fields.append(("types", JSONText.quoted(tags)))
            case .perChannel(let tag, let side):
                fields += [("types", JSONText.quoted(String(tag))), ("perChannel", JSONText.quoted(side.rawValue))]
            }
            return (String(describing: reply.name), JSONWriter.inline(fields))
        }
        return JSONWriter.object(named, indent: "  ")
    }

    /// Each strip's place names, from the catalogue's own titles (`Place.titled`):
    /// a place at a marker channel, the marker written back as `{n}`.
    static func places(_ catalogue: Catalogue) -> String {
        let marker = 987_654_321
        let named = catalogue.kinds.compactMap { kind -> (String, String)? in
            guard let key = kind.head, kind.shape == .numbered || kind.shape == .single else { return nil }
            let place = kind.place(marker, 0)
            let name = { (template: String) in JSONText.quoted(place.titled(template).replacing("\(marker)", with: "{n}")) }
            return (key, JSONWriter.inline([("strip", name("{strip}")), ("Strip", name("{Strip}")),
                                            ("plural", JSONText.quoted(kind.plural))]))
        }
        return JSONWriter.object(named, indent: "  ")
    }

    static func entry(_ parameter: Parameter, _ prefix: String) -> String {
        let control = parameter.display.control
        // A level is shown at its fader form.
        let form: Parameter.Form = control == .fader ? .fader : parameter.kind.forms[0]
        let leaf = Parameter.leaf(parameter.name, form)
        let address = { (leaf: String) in JSONText.quoted(leaf.isEmpty ? prefix : "\(prefix)/\(leaf)") }
        var fields = [("name", JSONText.quoted(parameter.name)), ("address", address(leaf))]
        // The page is sent levels in linear gain only (`/subscribe/forms`):
        // a fader shows the position it works out from there.
        if form == .fader { fields.append(("gain", address(Parameter.leaf(parameter.name, .linear)))) }
        fields += common(parameter.display, pages: parameter.reach == .mix ? ["engineer", "mix"] : ["engineer"])
        switch (control, parameter.kind) {
        case (.pan, .number(let range, _)):
            fields += [("min", JSONWriter.number(range.lowerBound)), ("max", JSONWriter.number(range.upperBound))]
        case (.number(let step, let suffix), .number(let range, let unit)):
            fields += [("min", JSONWriter.number(range.lowerBound)), ("max", JSONWriter.number(range.upperBound)), ("step", JSONWriter.number(step)),
                       ("suffix", JSONText.quoted(suffix)), ("unit", JSONText.quoted(unit))]
        case (.text(let placeholder), .text(let maxLength)):
            fields += [("placeholder", JSONText.quoted(placeholder)), ("maxLength", "\(maxLength)")]
        case (.choice(let options), _):
            fields += [("options", JSONWriter.inlineArray(options.map(JSONText.quoted)))]
        default:
            break
        }
        return JSONWriter.inline(fields)
    }

    static func entry(_ safe: RecallSafe) -> String {
        let fields = [("name", JSONText.quoted(safe.kind == .mix ? "mix-safe" : "safe")), ("address", JSONText.quoted(safe.address("{n}")))]
            + common(safe.display, pages: safe.reach == .mix ? ["mix"] : ["engineer"])
        return JSONWriter.inline(fields)
    }

    private static func common(_ display: Parameter.Display, pages: [String]) -> [(String, String)] {
        var fields = [("control", JSONText.quoted(display.control.name)), ("title", JSONText.quoted(display.title)),
                      ("pages", JSONWriter.inlineArray(pages.map(JSONText.quoted)))]
        if case .toggle(let label) = display.control { fields.append(("label", JSONText.quoted(label))) }
        if let view = display.view { fields.append(("view", JSONText.quoted(view.rawValue))) }
        return fields
    }

}
