import Testing

extension Integration {
/// `/subscribe/forms`: a subscriber that reads one form of each level (the
/// page reads linear gain) is sent only that form, in its full state and in
/// every change after it; plain values still come; a list that names
/// anything else is refused and subscribes nothing.
@Suite struct LevelFormsTests {
    static let size = 16

    static func isDerivedForm(_ address: String) -> Bool { address.hasSuffix("/db") || address.hasSuffix("/fader") }

    @Test func aSubscriberAskingForLinearGetsOnlyTheLinearFormOfEachLevel() async throws {
        try await withRig(inputs: Self.size, outputs: Self.size) { rig in
            try rig.osc.send("/matrix/5/7/db", .float(-6))
            try rig.osc.send("/source/3/fader", .float(0.5))
            try await rig.ping()
            let page = try OSCTestClient(target: .init(port: rig.oscPort))
            defer { page.close() }
            try page.send("/subscribe/forms", .string("linear"))
            let full = try await page.collectUntilQuiet(limit: .seconds(30))
            let values = Dictionary(full.map { ($0.address, $0.arguments) }, uniquingKeysWith: { $1 })
            let derived = full.filter { Self.isDerivedForm($0.address) }
            #expect(derived.isEmpty, "no dB or fader forms: \(derived.prefix(3))")
            // Each crosspoint once, in linear gain; each strip's other values as plain.
            let crosspoints = values.keys.filter { $0.hasPrefix("/matrix/") && $0.split(separator: "/").count == 3 }
            #expect(crosspoints.count == Self.size * Self.size, "\(crosspoints.count) crosspoints")
            if case .float(let gain)? = values["/matrix/5/7"]?.first { #expect(abs(gain - 0.50119) < 1e-4) } else { Issue.record("/matrix/5/7") }
            if case .float(let gain)? = values["/source/3/volume"]?.first { #expect(abs(gain - 0.31623) < 1e-4) } else { Issue.record("/source/3/volume") }
            #expect(values["/source/3/mute"] != nil && values["/source/3/name"] != nil && values["/master/volume"] != nil)
            // What the full state leaves out is the dB and fader forms, and only them.
            let everything = try OSCTestClient(target: .init(port: rig.oscPort))
            defer { everything.close() }
            try everything.send("/subscribe")
            let all = try await everything.collectUntilQuiet(limit: .seconds(30))
            let allAddresses = Set(all.map(\.address)).subtracting(Integration.events)
            let linearOnly = allAddresses.filter { !Self.isDerivedForm($0) }
            let fullAddresses = Set(full.map(\.address)).subtracting(Integration.events)
            let (missing, extra) = (linearOnly.subtracting(fullAddresses), fullAddresses.subtracting(linearOnly))
            #expect(allAddresses.count - linearOnly.count >= 2 * Self.size * Self.size && missing.isEmpty && extra.isEmpty,
                    "\(fullAddresses.count) addresses against \(allAddresses.count); missing \(missing), extra \(extra)")

            // A change by someone else, in any form: the linear form only.
            try rig.osc.send("/source/2/db", .float(-12))
            try rig.osc.send("/matrix/1/2/fader", .float(0.75))
            let changes = try await page.collect(for: .milliseconds(800))
            let addresses = Set(changes.map(\.address))
            #expect(addresses.isSuperset(of: ["/source/2/volume", "/matrix/1/2"]), "\(addresses)")
            #expect(!addresses.contains { Self.isDerivedForm($0) }, "\(addresses)")
        }
    }

    /// Its own value is not echoed in the form it reads, unless the rig
    /// did not keep it as sent.
    @Test func aValueItSetInAnotherFormIsNotEchoedUnlessClamped() async throws {
        try await withRig(inputs: 4, outputs: 4) { rig in
            let page = try OSCTestClient(target: .init(port: rig.oscPort))
            defer { page.close() }
            try page.send("/subscribe/forms", .string("linear"))
            _ = try await page.collectUntilQuiet(limit: .seconds(30))
            try page.send("/source/1/fader", .float(0.5))
            let own = try await page.collect(for: .milliseconds(800))
            #expect(!own.contains { $0.address.hasPrefix("/source/1/") }, "not echoed: \(own)")
            try page.send("/source/1/db", .float(20))
            let clamped = try await page.collect(for: .milliseconds(800))
            let volume = clamped.first { $0.address == "/source/1/volume" }
            if case .float(let gain)? = volume?.argument(0) { #expect(abs(gain - 3.981) < 1e-3, "+12 dB") } else {
                Issue.record("the clamped value is sent in linear form: \(clamped)")
            }
        }
    }

    @Test func formsAreAListAndAPlainSubscribeGivesEveryFormAgain() async throws {
        try await withRig(inputs: 4, outputs: 4) { rig in
            let script = try OSCTestClient(target: .init(port: rig.oscPort))
            defer { script.close() }
            try script.send("/subscribe/forms", .string("db, fader"))
            let full = try await script.collectUntilQuiet(limit: .seconds(30))
            let addresses = Set(full.map(\.address))
            #expect(addresses.contains("/source/1/db") && addresses.contains("/source/1/fader") && addresses.contains("/matrix/4/4/fader"))
            #expect(!addresses.contains("/source/1/volume") && !addresses.contains("/matrix/4/4"), "no linear form")
            #expect(addresses.contains("/source/1/pan"), "plain values")

            try script.send("/subscribe")
            let again = Set(try await script.collectUntilQuiet(limit: .seconds(30)).map(\.address))
            #expect(["/source/1/volume", "/source/1/db", "/source/1/fader", "/matrix/4/4"].allSatisfy(again.contains))
        }
    }

    @Test func aListNamingSomethingElseIsRefusedAndSubscribesNothing() async throws {
        try await withRig(inputs: 4, outputs: 4) { rig in
            for (arguments, reason) in [([OSCTestClient.Argument.string("linear,loud")], "linear, db, fader"),
                                        ([.string("")], "comma-separated"),
                                        ([.int32(9000)], "expected a string"),
                                        ([.string("db"), .int32(80)], "1024-65535")] {
                try rig.osc.send("/subscribe/forms", arguments: arguments)
                let error = try await rig.osc.waitFor(address: "/error", timeout: .seconds(5))
                #expect(error.argument(0) == .string("/subscribe/forms"))
                guard case .string(let text)? = error.argument(1) else { Issue.record("no reason"); continue }
                #expect(text.contains(reason), "\(arguments): \(text)")
            }
            try rig.osc.send("/status")
            let status = try await rig.osc.waitFor(address: "/status/subscribers", timeout: .seconds(5))
            #expect(status.argument(0) == .int32(0), "nobody subscribed")
        }
    }
}
}
