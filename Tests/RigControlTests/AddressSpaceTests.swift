import Catalogue
@testable import RigControl
import Testing

@Suite struct AddressSpaceTests {
    let space = AddressSpace(counts: [.source: 12, .output: 10, .dca: 8, .muteGroup: 8, .talkback: 2], catalogue: Catalogue())

    /// Addresses near every branch of the literal fast path: valid, out of
    /// range, misspelt, malformed, and patterns it must leave alone.
    static let addresses: [String] = {
        var list: [String] = []
        let numbers = ["0", "1", "2", "9", "10", "11", "12", "13", "01", "+1", "-1", "1a", "999999", "9999999", "*", "?", "[1-3]", "{1,12}", ""]
        for a in numbers {
            list += ["/source/\(a)/volume", "/source/\(a)/pan", "/source/\(a)/name", "/source/\(a)/gain",
                     "/output/\(a)/mute", "/output/\(a)/pan", "/safe/source/\(a)"]
            for b in numbers.prefix(12) {
                list += ["/matrix/\(a)/\(b)", "/matrix/\(a)/\(b)/db", "/matrix/\(a)/\(b)/fader", "/matrix/\(a)/\(b)/dB"]
            }
        }
        list += ["/master/volume", "/master/db", "/master/fader", "/master/mute", "/master/pan", "/master",
                 "/master/volume/", "/master//volume", "master/volume", "//master/volume", "/matrix/1/1/", "/matrix/1/1/db/x",
                 "/matrix/1", "/matrix/map", "/matrix/clear", "/source/1", "/source/1/volume/x", "/status", "/ping",
                 "/preset/recall", "/meters/subscribe", "/subscribe", "/", "", "/source/1/volum", "/source/1/volumes",
                 "/Source/1/volume", "/sources/1/volume", "/matrix/1/1\u{0}", "/source/١/volume", "/matrix/1/1/ db"]
        return list
    }()

    @Test func theFastPathAgreesWithThePatternPath() {
        var fast = 0
        for address in Self.addresses {
            #expect(space.resolve(address) == space.resolveByPattern(address), "\(address)")
            if space.literalTarget(address) != nil { fast += 1 }
        }
        // The fast path does answer every valid plain address above: 6 valid
        // inputs x 4 valid outputs x 3 units, 6 sources x 3, 4 outputs, 4 master.
        #expect(fast == 72 + 18 + 4 + 4)
        #expect(space.resolve("/source/1/*").map { $0.map(space.address) } == .success([
            "/source/1/name", "/source/1/volume", "/source/1/db", "/source/1/fader", "/source/1/pan", "/source/1/mute",
            "/source/1/solo", "/source/1/invert", "/source/1/link", "/source/1/patch", "/source/1/direct",
            "/source/1/present", "/source/1/listen"]))
        for address in ["/matrix/12/10/fader", "/source/3/pan", "/output/10/name", "/master/db", "/source/12/invert",
                        "/output/1/delay", "/matrix/1/1"] {
            #expect(space.literalTarget(address).map(space.address) == address)
        }
        #expect(space.literalTarget("/matrix/12/10/fader")
            == .parameter(space.catalogue.number(.crosspoint, "") ?? -1, .crosspoint(input: 12, output: 10), .fader))
    }

    /// Every continuous form with `/delta` after it: levels in their three
    /// forms (the crosspoint's linear one has no leaf of its own), pan, delay.
    static let deltas: [(String, Parameter.Strip, String, Parameter.Place, Target.Form)] = [
        ("/source/3/volume/delta", .source, "volume", .source(3), .linear),
        ("/source/3/db/delta", .source, "volume", .source(3), .decibels),
        ("/source/3/fader/delta", .source, "volume", .source(3), .fader),
        ("/source/3/pan/delta", .source, "pan", .source(3), .plain),
        ("/matrix/2/10/delta", .crosspoint, "", .crosspoint(input: 2, output: 10), .linear),
        ("/matrix/2/10/db/delta", .crosspoint, "", .crosspoint(input: 2, output: 10), .decibels),
        ("/matrix/2/10/fader/delta", .crosspoint, "", .crosspoint(input: 2, output: 10), .fader),
        ("/output/4/volume/delta", .output, "volume", .output(4), .linear),
        ("/output/4/db/delta", .output, "volume", .output(4), .decibels),
        ("/output/4/fader/delta", .output, "volume", .output(4), .fader),
        ("/output/4/delay/delta", .output, "delay", .output(4), .plain),
        ("/master/volume/delta", .master, "volume", .master, .linear),
        ("/master/db/delta", .master, "volume", .master, .decibels),
        ("/master/fader/delta", .master, "volume", .master, .fader),
        ("/dca/2/volume/delta", .dca, "volume", .dca(2), .linear),
        ("/dca/2/db/delta", .dca, "volume", .dca(2), .decibels),
        ("/dca/2/fader/delta", .dca, "volume", .dca(2), .fader),
        ("/talkback/2/volume/delta", .talkback, "volume", .numbered(.talkback, 2), .linear),
        ("/talkback/2/db/delta", .talkback, "volume", .numbered(.talkback, 2), .decibels),
        ("/talkback/2/fader/delta", .talkback, "volume", .numbered(.talkback, 2), .fader),
        ("/talkback/2/dim_db/delta", .talkback, "dim_db", .numbered(.talkback, 2), .plain),
        ("/listen/default/delta", .listen, "default", .listen, .plain),
        ("/listen/volume/delta", .listen, "volume", .listen, .linear),
        ("/listen/db/delta", .listen, "volume", .listen, .decibels),
        ("/listen/fader/delta", .listen, "volume", .listen, .fader),
        ("/listen/dim_db/delta", .listen, "dim_db", .listen, .plain),
    ] + eqDeltas

    /// The EQ's and the limiter's numbers, in parts of their own (`/source/3/eq/2/gain/delta`).
    static var eqDeltas: [(String, Parameter.Strip, String, Parameter.Place, Target.Form)] {
        func numbers(_ strip: Parameter.Strip, _ place: Parameter.Place, cuts: [String], bands: Int)
            -> [(String, Parameter.Strip, String, Parameter.Place, Target.Form)] {
            let names = cuts.flatMap { ["\($0)/freq", "\($0)/slope"] }
                + (1...bands).flatMap { b in ["freq", "gain", "q"].map { "eq/\(b)/\($0)" } }
            return names.map { ("\(place.prefix)/\($0)/delta", strip, $0, place, .plain) }
        }
        let limiter = ["ceiling", "release", "lookahead"].map {
            ("/output/4/limiter/\($0)/delta", Parameter.Strip.output, "limiter/\($0)", Parameter.Place.output(4), Target.Form.plain)
        }
        return numbers(.source, .source(3), cuts: ["hpf"], bands: 4)
            + numbers(.output, .output(4), cuts: ["hpf", "lpf"], bands: 6) + limiter
    }

    @Test func everyContinuousFormTakesADelta() throws {
        for (address, strip, name, place, form) in Self.deltas {
            let number = try #require(space.catalogue.number(strip, name))
            #expect(space.resolve(address) == .success([.delta(number, place, form)]), "\(address)")
            #expect(space.literalTarget(address) == .delta(number, place, form), "fast path: \(address)")
            #expect(space.address(.delta(number, place, form)) == address)
        }
        // Exactly those: the catalogue's levels and numbers, per place.
        var steps = 0
        for strip in Catalogue().kinds.map(\.strip) {
            steps += space.leavesByStrip[strip, default: []].filter { $0.role == .delta }.count
        }
        #expect(steps == Self.deltas.count)
    }

    /// Every address that takes a step also takes a touch (`/z`, `/touch`)
    /// and answers where it is now (`/current`), on both paths, and the
    /// suffix is never a pattern's.
    @Test func everyContinuousFormTakesATouchAndACurrentValue() throws {
        for (address, strip, name, place, form) in Self.deltas {
            let number = try #require(space.catalogue.number(strip, name))
            let value = String(address.dropLast("/delta".count))
            for (suffix, target) in [("z", Target.touch(number, place, form)), ("touch", .touch(number, place, form)),
                                     ("current", .current(number, place, form))] {
                #expect(space.resolve("\(value)/\(suffix)") == .success([target]), "\(value)/\(suffix)")
                #expect(space.literalTarget("\(value)/\(suffix)") == target, "fast path: \(value)/\(suffix)")
            }
            #expect(space.address(.current(number, place, form)) == "\(value)/current")
        }
        for address in ["/source/1/mute/z", "/source/1/name/touch", "/output/1/mute/current", "/source/1/volume/zz",
                        "/source/1/db/?", "/source/1/db/z/delta"] {
            #expect(space.resolve(address) == .failure(.unknownAddress), "\(address)")
        }
    }

    @Test func togglesAndTextsTakeNoDelta() {
        for address in ["/source/1/mute/delta", "/source/1/solo/delta", "/source/1/invert/delta", "/source/1/name/delta",
                        "/output/1/mute/delta", "/output/1/name/delta", "/master/mute/delta", "/source/1/delta",
                        "/master/delta", "/source/1/volume/delta/x", "/source/1/volume/delta/delta",
                        "/matrix/1/1/delta/db", "/matrix/1/1/pan/delta"] {
            #expect(space.resolve(address) == .failure(.unknownAddress), "\(address)")
        }
    }

    @Test func deltaAddressesTakePatternsButDeltaIsWrittenOut() {
        func addresses(_ pattern: String) -> [String] {
            (try? space.resolve(pattern).get())?.map(space.address) ?? []
        }
        #expect(addresses("/source/*/db/delta") == (1...12).map { "/source/\($0)/db/delta" })
        #expect(addresses("/source/1/*/delta") == ["/source/1/volume/delta", "/source/1/db/delta", "/source/1/fader/delta",
                                                   "/source/1/pan/delta"])
        #expect(addresses("/matrix/[1-2]/1/delta") == ["/matrix/1/1/delta", "/matrix/2/1/delta"])
        #expect(addresses("/output/{1,2}/delay/delta") == ["/output/1/delay/delta", "/output/2/delay/delta"])
        // A pattern never turns a value into a step.
        #expect(addresses("/matrix/1/1/*") == ["/matrix/1/1/db", "/matrix/1/1/fader"])
        #expect(space.resolve("/source/1/volume/*") == .failure(.unknownAddress))
        #expect(space.resolve("/source/1/db/delt?") == .failure(.unknownAddress))
        #expect(space.resolve("/source/13/db/delta") == .failure(.outOfRange(what: "source", number: 13, limit: 12)))
        for address in Self.deltas.map(\.0) + ["/source/*/db/delta", "/source/1/volume/*", "/source/13/db/delta",
                                                "/matrix/11/1/delta", "/source/1/mute/delta", "/master/fader/delta/"] {
            #expect(space.resolve(address) == space.resolveByPattern(address), "\(address)")
        }
    }

    @Test func aPresetIsRecalledByTheNameInItsAddress() {
        #expect(space.resolve("/preset/recall/chorus") == .success([.recallPreset("chorus")]))
        #expect(space.resolve("/preset/recall/verse 1") == .success([.recallPreset("verse 1")]))
        // The name is taken as written (and refused as a name by the recall).
        #expect(space.resolve("/preset/recall/*") == .success([.recallPreset("*")]))
        #expect(space.address(.recallPreset("chorus")) == "/preset/recall/chorus")
        for address in ["/preset/*/chorus", "/preset/recal?/chorus", "/preset/recall/a/b", "/preset/recall/",
                        "/preset/save/chorus"] {
            #expect(space.resolve(address) == .failure(.unknownAddress), "\(address)")
        }
        #expect(space.resolve("/preset/recall") == .success([.command(.presetRecall)]))
        #expect(space.resolve("/meters/rate") == .success([.command(.metersRate)]))
    }

    /// A pattern reaching several families of commands resolves in one
    /// order, the first picking what the message does: the strips, then
    /// the commands in the catalogue's order (presets before subscriptions
    /// and meters), the safes after the presets; a clear's last part is
    /// written out, its first may be a pattern.
    @Test func patternsAcrossCommandsResolveInOneOrder() {
        let listened = space.catalogue.number(.listen, "source") ?? -1
        #expect(space.resolve("/*/s*") == .success([.parameter(listened, .listen, .plain), .command(.presetSave),
                                                    .command(.metersSubscribe)]))
        #expect(space.resolve("/{preset,safe}/*") == .success([
            .command(.presetSave), .command(.presetRecall), .command(.presetList), .command(.presetDelete),
            .command(.presetRename), .command(.presetUndo), .command(.presetCurrent),
            .command(.presetUnreadable), .safe(.master),
        ]))
        #expect(space.resolve("/m*/clear") == .success([.command(.matrixClear)]))
        #expect(space.resolve("/matrix/cl*") == .failure(.unknownAddress))
        #expect(space.resolve("/*").map { $0.first } == .success(.command(.status)))
    }

    @Test func errorsStillNameTheProblem() {
        #expect(space.resolve("/source/13/volume") == .failure(.outOfRange(what: "source", number: 13, limit: 12)))
        #expect(space.resolve("/matrix/1/11") == .failure(.outOfRange(what: "output", number: 11, limit: 10)))
        #expect(space.resolve("/matrix/01/1") == .failure(.unknownAddress))
        #expect(space.resolve("/source/1/gain") == .failure(.unknownAddress))
    }
}
