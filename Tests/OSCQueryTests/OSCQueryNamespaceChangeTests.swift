@testable import OSCQuery
import Testing

/// What two namespaces differ by, as PATH_REMOVED and PATH_ADDED announce it.
@Suite struct OSCQueryNamespaceChangeTests {
    /// A namespace of leaves (`f` methods) at `paths`.
    func namespace(_ paths: [String]) -> OSCQueryNamespace {
        OSCQueryNamespace(paths.map { OSCQueryNode(fullPath: $0, typeTags: "f", access: .readWrite) })
    }

    /// `/source/1…count`, each with `volume` and `mute`.
    func sources(_ count: Int) -> [String] {
        (1...count).flatMap { ["/source/\($0)/volume", "/source/\($0)/mute"] }
    }

    @Test func growingBySourceAnnouncesOnlyTheTopMostNewNode() {
        let change = OSCQueryNamespaceChange(from: namespace(sources(8)), to: namespace(sources(9)))
        #expect(change.removed == [])
        #expect(change.added == ["/source/9"])
        let back = OSCQueryNamespaceChange(from: namespace(sources(9)), to: namespace(sources(8)))
        #expect(back.removed == ["/source/9"])
        #expect(back.added == [])
    }

    @Test func pathsComeInNamespaceOrderDepthFirstAndNumbersByValue() {
        // 3x3 to 2x2 (`/matrix/OUTPUT/INPUT`), plus a new strip kind.
        let old = namespace((1...3).flatMap { o in (1...3).map { "/matrix/\(o)/\($0)" } } + sources(10))
        let new = namespace((1...2).flatMap { o in (1...2).map { "/matrix/\(o)/\($0)" } } + sources(2)
                            + ["/group/1/mute", "/source/1/link", "/aux/1/volume"])
        let change = OSCQueryNamespaceChange(from: old, to: new)
        #expect(change.removed == ["/matrix/1/3", "/matrix/2/3", "/matrix/3",
                                   "/source/3", "/source/4", "/source/5", "/source/6", "/source/7", "/source/8",
                                   "/source/9", "/source/10"])
        #expect(change.added == ["/aux", "/group", "/source/1/link"])
        // Removed first, then added, one path each.
        #expect(change.commands.map(\.json) == change.removed.map { #"{"COMMAND":"PATH_REMOVED","DATA":"\#($0)"}"# }
                + change.added.map { #"{"COMMAND":"PATH_ADDED","DATA":"\#($0)"}"# })
    }

    @Test func theSameTreeChangesNothingEvenWhenANodesAttributesDo() {
        let old = namespace(sources(4))
        #expect(OSCQueryNamespaceChange(from: old, to: old).isEmpty)
        #expect(OSCQueryNamespaceChange(from: old, to: namespace(sources(4))).isEmpty)
        // A leaf that becomes a container of the same name: its children are
        // added, the node itself stays (PATH_CHANGED is not served).
        let retyped = OSCQueryNamespace(sources(4).map { OSCQueryNode(fullPath: $0, typeTags: "i", access: .read) }
                                        + [OSCQueryNode(fullPath: "/source/1/mute/z", typeTags: "f")])
        let change = OSCQueryNamespaceChange(from: old, to: retyped)
        #expect(change.removed == [])
        #expect(change.added == ["/source/1/mute/z"])
    }

    @Test func anEmptiedNamespaceRemovesEachTopLevelNode() {
        let change = OSCQueryNamespaceChange(from: namespace(sources(2) + ["/ping"]), to: OSCQueryNamespace([]))
        #expect(change.removed == ["/ping", "/source"])
        #expect(change.added == [])
    }

    @Test func namesOfOneNumberAreTwoNodes() throws {
        // `01` and `1` are both numbers 1 but two names: ordered by their text.
        let both = namespace(["/x/1", "/x/01", "/x/2"])
        let x = try #require(both.node(at: "/x"))
        #expect(both.entries[both.entries[x.index].children].map(\.name) == ["01", "1", "2"])
        #expect(both.node(at: "/x/01") != nil && both.node(at: "/x/1") != nil && both.node(at: "/x/001") == nil)
        #expect(OSCQueryNamespaceChange(from: namespace(["/x/1", "/x/2"]), to: both).added == ["/x/01"])
        #expect(OSCQueryNamespaceChange(from: both, to: namespace(["/x/01"])).removed == ["/x/1", "/x/2"])
    }

    @Test func aPathIsWrittenAsAJSONString() {
        let change = OSCQueryNamespaceChange(from: namespace(["/a"]), to: namespace(["/a", #"/b"c\d"#]))
        #expect(change.commands.map(\.json) == [#"{"COMMAND":"PATH_ADDED","DATA":"/b\"c\\d"}"#])
        // And read back as what it says.
        #expect(change.commands.map { OSCQueryCommand(json: $0.json) } == change.commands)
    }

    /// The size the rig reaches: about 200,000 nodes. The walk's time is
    /// printed; the bound only catches a walk gone quadratic.
    @Test func aRigOf256x256IsComparedQuickly() {
        let full = RigShapedNamespace.make(inputs: 256, outputs: 256)
        let sources = RigShapedNamespace.make(inputs: 255, outputs: 256)
        let outputs = RigShapedNamespace.make(inputs: 256, outputs: 255)
        let small = RigShapedNamespace.make(inputs: 8, outputs: 8)
        #expect(full.count > 200_000)
        let clock = ContinuousClock()
        var changes: [String: OSCQueryNamespaceChange] = [:]
        var times: [String: Duration] = [:]
        func measure(_ name: String, _ old: OSCQueryNamespace, _ new: OSCQueryNamespace) {
            var change = OSCQueryNamespaceChange(from: old, to: old)
            let time = clock.measure { change = OSCQueryNamespaceChange(from: old, to: new) }
            changes[name] = change
            times[name] = min(times[name] ?? time, time)
        }
        // Best of three: the machine is shared.
        for _ in 0..<3 {
            measure("a source", sources, full)
            measure("an output", outputs, full)
            measure("to 8x8", full, small)
        }
        #expect(changes["a source"]?.added == ["/matrix/256", "/safe/source/256", "/source/256"])
        #expect(changes["an output"]?.added == (1...256).map { "/matrix/\($0)/256" }
                + ["/output/256", "/safe/mix/256", "/safe/output/256"])
        #expect(changes.values.filter { !$0.added.isEmpty }.allSatisfy { $0.removed.isEmpty })
        let shrink = changes["to 8x8"]
        #expect(shrink?.added == [] && shrink?.removed.count == 8 * 248 + 6 * 248)
        #expect(shrink?.removed.first == "/matrix/1/9" && shrink?.removed.last == "/source/256")
        print("namespace change at 256x256 (\(full.count) nodes), best of 3: "
              + times.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        #expect(times.values.allSatisfy { $0 < .seconds(1) })
    }
}
