import Glibc
import Synchronization
import SystemSupport
import Testing

@Suite struct ThreadTests {
    /// The block runs on another system thread, under the given name, and
    /// `isFinished` turns true only after it has returned.
    @Test func runsTheBlockOnANamedThreadAndReportsTheEnd() {
        let release = Atomic<Bool>(false)
        let seen = Mutex<(name: String, sameThread: Bool)?>(nil)
        let caller = pthread_self()
        let thread = Thread {
            // What `ps -L` and `top -H` show (pthread_getname_np is hidden from Swift).
            var buffer = [UInt8](repeating: 0, count: 32)
            let fd = open("/proc/thread-self/comm", O_RDONLY)
            let count = read(fd, &buffer, buffer.count)
            close(fd)
            let name = String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self).trimmingWhitespace()
            seen.withLock { $0 = (name, pthread_equal(pthread_self(), caller) != 0) }
            while !release.load(ordering: .acquiring) { Thread.sleep(forTimeInterval: 0.001) }
        }
        thread.name = "a-name-longer-than-fifteen-bytes"
        thread.start()
        waitUntil { seen.withLock { $0 != nil } }
        #expect(!thread.isFinished)
        release.store(true, ordering: .releasing)
        waitUntil { thread.isFinished }
        #expect(thread.isFinished)
        let result = seen.withLock { $0 }
        #expect(result?.name == "a-name-longer-t")
        #expect(result?.sameThread == false)
    }

    @Test func sleepsAtLeastTheGivenTime() {
        let clock = ContinuousClock()
        let start = clock.now
        Thread.sleep(forTimeInterval: 0.05)
        #expect(clock.now - start >= .milliseconds(50))
        Thread.sleep(forTimeInterval: 0)
        Thread.sleep(forTimeInterval: -1)
    }

    private func waitUntil(_ condition: () -> Bool) {
        for _ in 0..<5000 where !condition() { Thread.sleep(forTimeInterval: 0.001) }
    }
}

@Suite struct FormattingTests {
    @Test func formatsLikePrintf() {
        #expect(cFormat("%.3f", 1.23456) == "1.235")
        #expect(cFormat("%+.1f", -6.02) == "-6.0")
        #expect(cFormat("%+.1f", 3.0) == "+3.0")
        #expect(cFormat("%g", 0.5) == "0.5")
        #expect(cFormat("%6d|%-4d|", 42, 7) == "    42|7   |")
        #expect(cFormat("%7s|", ("yes" as StaticString).utf8Start) == "    yes|")
        #expect(cFormat("") == "")
    }

    /// Longer than any first guess at a buffer size.
    @Test func formatsLongResults() {
        let result = cFormat("%0500d", 1)
        #expect(result.count == 500)
        #expect(result.hasSuffix("01"))
    }

    @Test func trimsWhitespace() {
        #expect(" matrix ".trimmingWhitespace() == "matrix")
        #expect("\tsources\n".trimmingWhitespace() == "sources")
        #expect("a b".trimmingWhitespace() == "a b")
        #expect("   ".trimmingWhitespace() == "")
        #expect("".trimmingWhitespace() == "")
        #expect("5 ,6".split(separator: ",").map { $0.trimmingWhitespace() } == ["5", "6"])
    }

    /// Names sorted as people sort them: case aside, numbers by value.
    @Test func ordersNamesNaturally() {
        let names = ["verse 10", "Chorus", "verse 2", "bridge", "verse 1", "chorus 2", "Verse 02b", "a", "A", "10", "9"]
        #expect(names.sorted { $0.naturallyPrecedes($1) }
                == ["9", "10", "A", "a", "bridge", "Chorus", "chorus 2", "verse 1", "verse 2", "Verse 02b", "verse 10"])
        #expect("take 2".naturallyPrecedes("take 10"))
        #expect(!"take 10".naturallyPrecedes("take 2"))
        #expect("take".naturallyPrecedes("take 1"))
        #expect("x007".naturallyPrecedes("x8"))
        #expect("B".naturallyPrecedes("b") != "b".naturallyPrecedes("B"), "a total order")
        #expect(!"same".naturallyPrecedes("same"))
    }
}

@Suite struct EscapingTests {
    /// Text from the network cannot end a log line or drive the terminal.
    @Test func controlCharactersAreEscaped() {
        #expect("/source/1\n/volume".escapingControlCharacters() == "/source/1\\u{a}/volume")
        #expect("\u{1b}[2J\u{0}\u{7f}\u{85}".escapingControlCharacters() == "\\u{1b}[2J\\u{0}\\u{7f}\\u{85}")
        #expect("a\\u{a}".escapingControlCharacters() == "a\\\\u{a}", "an escape in the text stays distinguishable")
        #expect("héllo ✓ 'x'".escapingControlCharacters() == "héllo ✓ 'x'")
    }
}

/// A log line a second per key, with a count of those held back (issue 32).
@Suite struct LinePaceTests {
    @Test func oneLineASecondPerKeyWithACount() {
        let pace = LinePace(interval: .seconds(1), keys: 4)
        let start = ContinuousClock.now
        #expect(pace.admit("a", now: start) == 0)
        for i in 1...100 { #expect(pace.admit("a", now: start + .milliseconds(i)) == nil) }
        #expect(pace.admit("b", now: start + .milliseconds(5)) == 0, "another key has its own second")
        #expect(pace.admit("a", now: start + .milliseconds(1_001)) == 100, "the next second says how many were held")
        #expect(pace.admit("a", now: start + .milliseconds(1_002)) == nil)
    }

    @Test func manyKeysShareOneAndForgetTheQuiet() {
        let pace = LinePace(interval: .seconds(1), keys: 2)
        let start = ContinuousClock.now
        #expect(pace.admit("a", now: start) == 0)
        #expect(pace.admit("b", now: start) == 0)
        #expect(pace.admit("c", now: start) == 0, "past the keys: 'others'")
        #expect(pace.admit("d", now: start) == nil, "'others' is paced like a key")
        #expect(pace.admit("e", now: start + .seconds(2)) == 0, "the quiet keys were forgotten")
    }
}
