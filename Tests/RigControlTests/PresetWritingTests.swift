import Dispatch
import Foundation
import Logging
import MixCore
import SceneModel
import OSC
import Presets
import RigControl
import Testing

/// A controller over the given store, so that the test can hold its writer.
private func controller(_ store: PresetStore, preset: String? = nil, modified: Bool = false) -> Controller {
    makeController(store: store, state: RigState(scene: Scene(inputs: 4, outputs: 4), preset: preset, modified: modified))
}

private func temporaryURL() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("xp-writing-\(UUID().uuidString)")
}

private func words(_ packet: OSCPacket) -> [String] {
    guard case .message(let m) = packet else { return [] }
    return [m.address] + m.arguments.map(\.description)
}

private let otherPeer = OSCPeer(address: SocketAddress.resolve(host: "127.0.0.1", port: 2)!)

extension Controller {
    /// The replies `handle` returns, without waiting for any write.
    @discardableResult
    fileprivate func now(_ address: String, _ arguments: OSCArgument..., from sender: OSCPeer = peer) -> [String] {
        handle(.message(OSCMessage(address, arguments)), from: sender).flatMap(words)
    }

    /// Collects what is sent through `reply`, as address and arguments.
    fileprivate func collectReplies() -> Collected<[String]> {
        let later = Collected<[String]>()
        relay.send { packet, _ in later.append(words(packet)) }
        return later
    }
}

/// Holds the writer's thread in a job of its own until opened: a disk as slow
/// as the test wants, deterministically.
private final class Gate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    init(_ writer: PresetWriter) {
        writer.submit { [semaphore] in semaphore.wait() }
    }

    func open() { semaphore.signal() }
}

/// Saves, deletes and renames are written on the store's writer thread; the
/// control side goes on answering meanwhile (Controller+Presets.swift).
@Suite struct PresetWritingTests {
    @Test func messagesFromEveryClientAreAnsweredWhileASaveIsWritten() throws {
        let directory = temporaryURL()
        let store = PresetStore(directory: directory)
        let c = controller(store)
        let later = c.collectReplies()
        c.now("/matrix/1/2", .float(0.5))
        let gate = Gate(store.writer)
        #expect(c.now("/preset/save", .string("slow")) == [], "answered once written")

        // The writer is stuck; the control side is not, for another client or the saver.
        #expect(c.now("/ping", from: otherPeer) == ["/pong"])
        #expect(c.now("/ping") == ["/pong"])
        c.now("/matrix/1/2", .float(1), from: otherPeer)
        #expect(c.scene.crosspoints[1, 2] == 1)
        #expect(later.values.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: store.url(for: "slow").path))

        gate.open()
        c.waitForPresetWrites()
        #expect(later.values == [["/preset/saved", "slow"]])
        let saved = try PresetStore(directory: directory).load("slow")
        #expect(saved.scene.crosspoints[1, 2] == 0.5, "the scene as it was when the save arrived")
        #expect(c.now("/preset/current") == ["/preset/current", "slow", "1"], "the scene changed while it was written")
        #expect(store.pending.count == 0)
    }

    @Test func savedIsSentOnlyOnceTheFileIsOnDiskAndParses() throws {
        let directory = temporaryURL()
        let store = PresetStore(directory: directory)
        let c = controller(store)
        let disk = PresetStore(directory: directory) // no writes of its own: reads the disk alone
        let seen = Collected<[String]>()
        c.relay.send { packet, _ in
            guard case .message(let m) = packet, case .string(let name)? = m.arguments.first else { return }
            let volume = (try? disk.load(name)).map { "\($0.scene.sources[0].volume)" } ?? "not on disk"
            seen.append([m.address, name, volume])
        }
        for k in 1...20 {
            c.now("/source/1/volume", .float(Float(k) / 20))
            #expect(c.now("/preset/save", .string("p\(k % 3)")) == [])
        }
        c.waitForPresetWrites()
        // Each save's reply finds its own content in the file: written, renamed into place, readable.
        #expect(seen.values == (1...20).map { ["/preset/saved", "p\($0 % 3)", "\(Float($0) / 20)"] })
    }

    @Test func aSaveIsSeenAtOnceByRecallListRenameAndDelete() throws {
        let directory = temporaryURL()
        let store = PresetStore(directory: directory)
        let c = controller(store)
        let later = c.collectReplies()
        let gate = Gate(store.writer)
        c.now("/matrix/1/2", .float(1))
        #expect(c.now("/preset/save", .string("a")) == [])
        c.now("/matrix/1/2", .float(0))
        #expect(c.now("/preset/list") == ["/preset/list", "a"])
        #expect(c.now("/preset/recall", .string("a"), .float(0)) == ["/preset/recalled", "a", "0.0"])
        #expect(c.scene.crosspoints[1, 2] == 1)
        #expect(c.now("/preset/current") == ["/preset/current", "a", "0"])

        #expect(c.now("/preset/rename", .string("a"), .string("b")) == [])
        #expect(c.now("/preset/current") == ["/preset/current", "b", "0"])
        #expect(c.now("/preset/list") == ["/preset/list", "b"])
        #expect(c.now("/preset/recall", .string("a")).prefix(2) == ["/error", "/preset/recall"])
        #expect(c.now("/preset/rename", .string("b"), .string("b")) == [])

        #expect(c.now("/preset/save", .string("c")) == [])
        #expect(c.now("/preset/rename", .string("b"), .string("c")).last?.contains("exists already") == true)
        #expect(c.now("/preset/delete", .string("c")) == [])
        #expect(c.now("/preset/delete", .string("c")).last?.contains("no such preset") == true)
        #expect(c.now("/preset/list") == ["/preset/list", "b"])
        #expect(c.now("/preset/current") == ["/preset/current", "", "0"])
        #expect(!FileManager.default.fileExists(atPath: directory.path), "nothing written yet")

        gate.open()
        c.waitForPresetWrites()
        #expect(later.values == [["/preset/saved", "a"], ["/preset/renamed", "a", "b"], ["/preset/renamed", "b", "b"],
                                 ["/preset/saved", "c"], ["/preset/deleted", "c"]])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["b.json"])
        let b = try PresetStore(directory: directory).load("b")
        #expect(b.name == "b" && b.scene.crosspoints[1, 2] == 1)
        #expect(c.now("/preset/list") == ["/preset/list", "b"])
        #expect(store.pending.count == 0)
    }

    /// The presets directory lies under a regular file: nothing can be
    /// created there, not even by root (tests run as root, so permissions
    /// would not stop the write).
    @Test func aFailedWriteIsAnErrorNamingTheFileAndChangesNothing() throws {
        let file = temporaryURL()
        try Data("not a directory".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let store = PresetStore(directory: file.appendingPathComponent("presets"))
        let c = controller(store)
        let later = c.collectReplies()
        c.now("/source/2/mute", .int32(1))
        let before = c.snapshot()

        #expect(c.now("/preset/save", .string("x")) == [])
        c.waitForPresetWrites()
        let replies = later.values
        #expect(replies.count == 1)
        #expect(replies.first?.prefix(2) == ["/error", "/preset/save"])
        let reason = try #require(replies.first?.last)
        #expect(reason.contains(file.appendingPathComponent("presets/x.json").path) && reason.contains("Not a directory"),
                "\(reason)")
        #expect(c.snapshot() == before)
        #expect(c.now("/preset/list") == ["/preset/list"])
        #expect(c.now("/preset/recall", .string("x")).last?.contains("no such preset") == true)
        #expect(c.now("/preset/current") == ["/preset/current", "", "1"])
        #expect(store.pending.count == 0)
        #expect(try Data(contentsOf: file) == Data("not a directory".utf8))
    }

    /// A save or delete that fails on one file puts back the preset that was
    /// current. Directories named like preset files refuse both (an unlink
    /// or a rename over a directory fails, for root too).
    @Test func aFailedSaveOrDeletePutsBackTheCurrentPreset() throws {
        let directory = temporaryURL()
        let store = PresetStore(directory: directory)
        try PresetStore(directory: directory).save(Preset(name: "p", scene: Scene(inputs: 4, outputs: 4)))
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("x.json"),
                                                withIntermediateDirectories: true)
        let c = controller(store, preset: "x", modified: true)
        let later = c.collectReplies()

        #expect(c.now("/preset/delete", .string("x")) == [])
        // At once the deleted preset is current no more, unless the write has
        // already failed and put it back (a loaded machine is that quick).
        #expect([["/preset/current", "", "1"], ["/preset/current", "x", "1"]].contains(c.now("/preset/current")))
        c.waitForPresetWrites()
        #expect(later.values.last?.prefix(2) == ["/error", "/preset/delete"])
        #expect(later.values.last?.last?.contains("x.json: cannot delete (Is a directory)") == true, "\(later.values)")
        #expect(c.now("/preset/current") == ["/preset/current", "x", "1"])
        #expect(c.now("/preset/list") == ["/preset/list", "p", "x"])

        c.now("/preset/recall", .string("p"), .float(0))
        #expect(c.now("/preset/save", .string("x")) == [])
        #expect([["/preset/current", "x", "0"], ["/preset/current", "p", "0"]].contains(c.now("/preset/current")))
        c.waitForPresetWrites()
        #expect(later.values.last?.prefix(2) == ["/error", "/preset/save"])
        #expect(later.values.last?.last?.contains("x.json: cannot rename into place (Is a directory)") == true,
                "\(later.values)")
        #expect(c.now("/preset/current") == ["/preset/current", "p", "0"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["p.json", "x.json"])
        #expect(store.pending.count == 0)
    }
}
