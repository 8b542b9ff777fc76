import JSON
import Foundation
import MixCore
import SceneModel
import Presets
import Testing

@Suite struct PresetStoreTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("xp-store-\(UUID().uuidString)")

    func preset(_ gain: Float) -> Preset {
        var scene = Scene(inputs: 2, outputs: 2)
        scene.crosspoints[1, 1] = gain
        return Preset(name: "cue", scene: scene)
    }

    /// "café" in its two Unicode forms is one preset in one file (issue 32:
    /// it made two files, of which the list showed one and a delete removed one).
    @Test func aNameInEitherUnicodeFormIsOnePresetInOneFile() throws {
        let store = PresetStore(directory: directory)
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        var first = preset(0.5), second = preset(0.25)
        first.name = decomposed
        second.name = composed
        try store.save(first)
        try store.save(second)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files.map { Array($0.utf8) } == [Array("\(composed).json".utf8)], "\(files)")
        #expect(store.names().map { Array($0.utf8) } == [Array(composed.utf8)])
        #expect(try store.load(decomposed).scene.crosspoints[1, 1] == 0.25)
        try store.delete(decomposed)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func anUnchangedFileIsNotReadAgain() throws {
        let store = PresetStore(directory: directory)
        try store.save(preset(0.5))
        let first = try store.load("cue")
        #expect(store.cache.hits == 0)
        let second = try store.load("cue")
        #expect(store.cache.hits == 1)
        #expect(first == second && second.scene.crosspoints[1, 1] == 0.5)
    }

    /// An edit in place that keeps the size and the inode: told apart by
    /// the modification time alone.
    @Test func anEditInPlaceOfTheSameSizeIsPickedUp() throws {
        let store = PresetStore(directory: directory)
        try store.save(preset(0.5))
        _ = try store.load("cue")
        let file = store.url(for: "cue")
        let text = try String(contentsOf: file, encoding: .utf8)
        let edited = text.replacingOccurrences(of: "0.5", with: "0.7")
        #expect(edited.utf8.count == text.utf8.count && edited != text)
        Thread.sleep(forTimeInterval: 0.02) // past the file system's time granularity
        let handle = try FileHandle(forWritingTo: file) // same inode, no truncation
        try handle.write(contentsOf: Data(edited.utf8))
        try handle.close()
        #expect(try store.load("cue").scene.crosspoints[1, 1] == 0.7)
        #expect(store.cache.hits == 0)
    }

    /// A save on the writer leaves the file parsed in the cache, so the next
    /// load (on the thread that handles OSC) only `stat`s it; an edit after
    /// the save is still seen.
    @Test func aPresetSavedInTheBackgroundIsKeptParsedAndAnEditAfterIsSeen() throws {
        let store = PresetStore(directory: directory)
        try store.save(preset(0.5)) { error in #expect(error == nil) }
        store.waitForWrites()
        #expect(store.pending.count == 0)
        #expect(try store.load("cue") == PresetCoding.decode(Data(contentsOf: store.url(for: "cue")), file: "cue.json"))
        #expect(store.cache.hits == 1, "not read again after its own write")
        let file = store.url(for: "cue")
        let edited = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: "0.5", with: "0.25")
        try edited.write(to: file, atomically: true, encoding: .utf8)
        #expect(try store.load("cue").scene.crosspoints[1, 1] == 0.25)
    }

    @Test func aDeletedOrResavedPresetIsNotServedFromMemory() throws {
        let store = PresetStore(directory: directory)
        try store.save(preset(0.5))
        _ = try store.load("cue")
        try store.save(preset(0.25))
        #expect(try store.load("cue").scene.crosspoints[1, 1] == 0.25)
        try store.delete("cue")
        #expect(throws: FileError.self) { try store.load("cue") }
        #expect(store.cache.count == 0)
    }
}
