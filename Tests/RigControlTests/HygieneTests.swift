import MixCore
import OSC
@testable import RigControl
import Testing

/// What the network may not do: store a name that breaks a line, or have a
/// wildcard query answer without limit.
@Suite struct HygieneTests {
    @Test(arguments: ["Bass\nDI", "Kick\u{1B}[2J", "Vox\r", "Tab\there", "\u{7F}"])
    func aNameWithAControlCharacterIsRefused(name: String) {
        let c = makeController()
        let replies = c.send("/source/1/name", .string(name))
        #expect(replies.first?.messages.first?.arguments == [.string("/source/1/name"), .string("name with a control character")])
        #expect(c.scene.sources[0].name == "in_1")
        #expect(c.send("/output/2/name", .string(name)).first?.messages.first?.address == "/error")
        #expect(c.scene.outputs[1].name == "out_2")
        // Anything printable is a name, accents and symbols included.
        #expect(c.send("/source/1/name", .string("Gtr ♯ Über")).isEmpty)
        #expect(c.scene.sources[0].name == "Gtr ♯ Über")
    }

    /// A touch or a `/current` query with the wrong arguments is refused
    /// with `/error` and changes nothing; a good touch gets no reply.
    @Test(arguments: [
        (OSCMessage("/source/1/fader/z", [.string("on")]), "/source/1/fader/z"),
        (OSCMessage("/source/1/fader/z", []), "/source/1/fader/z"),
        (OSCMessage("/matrix/1/1/touch", [.float(1), .float(1)]), "/matrix/1/1/touch"),
        (OSCMessage("/source/1/db/current", [.float(-6)]), "/source/1/db/current"),
        (OSCMessage("/source/1/mute/z", [.int32(1)]), "/source/1/mute/z"),
    ])
    func badTouchesAndCurrentQueriesAreRefused(message: OSCMessage, address: String) {
        let c = makeController()
        let before = c.scene
        let replies = c.handle(.message(message), from: peer)
        #expect(replies.first?.messages.first?.address == "/error", "\(replies)")
        #expect(replies.first?.messages.first?.arguments.first == .string(address))
        #expect(c.scene == before)
        #expect(c.handle(.message(OSCMessage("/source/1/fader/z", [.float(1)])), from: peer).isEmpty)
        #expect(c.scene == before)
    }

    @Test func eachSessionHasAMegabyteOfQueryAnswersASecond() {
        var allowance = QueryAllowance()
        let start = ContinuousClock.now
        let one = OSCPeer(address: SocketAddress.resolve(host: "127.0.0.1", port: 5000)!)
        let two = OSCPeer(address: SocketAddress.resolve(host: "127.0.0.1", port: 5001)!)
        let spent = [
            allowance.spend(QueryAllowance.bytesPerSecond, by: one, at: start),
            allowance.spend(1, by: one, at: start),
            allowance.spend(1000, by: two, at: start), // another session has its own
            // Half a second later, half a second's worth.
            allowance.spend(QueryAllowance.bytesPerSecond / 2 + 1024, by: one, at: start + .milliseconds(500)),
            allowance.spend(QueryAllowance.bytesPerSecond / 2 - 1024, by: one, at: start + .milliseconds(500)),
        ]
        #expect(spent == [true, false, true, false, true])
    }

    @Test func aWildcardQueryPastTheAllowanceIsRefusedWhole() {
        let c = makeController(inputs: 64, outputs: 64)
        var refusal: OSCMessage?
        var answered = 0
        for _ in 0..<10 {
            let replies = c.send("/matrix/*/*/*")
            if let error = replies.first?.messages.first, error.address == "/error" {
                refusal = error
                #expect(replies.count == 1, "refused whole")
                break
            }
            answered += 1
            #expect(replies.flatMap(\.messages).count == 8192)
        }
        #expect((3...8).contains(answered), "\(answered) whole answers of about 200 KB before the refusal")
        let reason = refusal?.arguments.last
        guard case .string(let text)? = reason else {
            Issue.record("no refusal: \(String(describing: refusal))")
            return
        }
        #expect(text.contains("over the 1048576 a client may have a second"), "\(text)")
        // The allowance is the session's: another client is answered.
        let other = OSCPeer(address: SocketAddress.resolve(host: "127.0.0.1", port: 2)!)
        #expect(c.handle(.message(OSCMessage("/matrix/1/1")), from: other).first?.messages.first?.address == "/matrix/1/1")
    }
}
