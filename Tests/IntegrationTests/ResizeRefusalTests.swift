import Foundation
import Testing

/// Bad input to a change of size or a direct out gets `/error` and changes
/// nothing; a performer's role may not change the size, and keeps working
/// for the outputs it holds that remain (issue 24).
extension Integration {
@Suite struct ResizeRefusalTests {
    @Test func badSizesAndTapsAreRefusedAndARoleKeepsWhatRemains() async throws {
        let path = try AccessTests.accessFile(AccessTests.rules())
        try await withRig(inputs: 2, outputs: 6, arguments: ["--access", path]) { rig in
            let engineer = try AccessTests.client(rig, from: "127.0.0.2")
            let drums = try AccessTests.client(rig, from: "127.0.0.4")
            defer { engineer.close(); drums.close() }
            let bad: [(String, OSCTestClient.Argument, String)] = [
                ("/rig/inputs", .int32(0), "out of range (1-512)"), ("/rig/outputs", .int32(513), "out of range (1-512)"),
                ("/rig/inputs", .float(2.5), "whole number"), ("/rig/inputs", .string("four"), "expected a number"),
                ("/rig/outputs", .float(1e19), "out of range (1-512)"),
                ("/source/1/direct", .string("sideways"), "off, pre or post"),
            ]
            for (address, argument, reason) in bad {
                try engineer.send(address, argument)
                let refusal = try await AccessTests.refusal(engineer)
                #expect(refusal.first == .string(address), "\(address) \(argument)")
                #expect(refusal.last.map { "\($0)".contains(reason) } == true, "\(address) \(argument): \(refusal)")
            }
            for (address, size) in [("/rig/inputs", Int32(3)), ("/rig/outputs", Int32(4))] {
                try drums.send(address, .int32(size))
                #expect(try await AccessTests.refusal(drums) == [.string(address), .string("not permitted for role drums")])
            }
            #expect(try await AccessTests.value(rig, "/rig/inputs") == .int32(2), "the size is unchanged")
            #expect(try await AccessTests.value(rig, "/rig/outputs") == .int32(6))
            #expect(try await AccessTests.value(rig, "/source/1/direct") == .string("off"))

            // Output 6 goes: the drummer keeps output 5, and 6 is gone for everyone.
            try engineer.send("/rig/outputs", .int32(5))
            _ = try await engineer.waitFor(address: "/rig/outputs")
            try drums.send("/matrix/1/5", .float(0.5))
            try drums.send("/matrix/1/6", .float(0.5))
            let gone = try await AccessTests.refusal(drums)
            #expect(gone.first == .string("/matrix/1/6") && "\(gone)".contains("out of range"), "\(gone)")
            #expect(try await AccessTests.value(rig, "/matrix/1/5") == .float(0.5), "the drummer still mixes output 5")
            // Back again: the role holds it as before.
            try engineer.send("/rig/outputs", .int32(6))
            _ = try await engineer.waitFor(address: "/rig/outputs")
            try drums.send("/matrix/1/6", .float(0.25))
            try await rig.ping()
            #expect(try await AccessTests.value(rig, "/matrix/1/6") == .float(0.25), "output 6 is the drummer's again")
        }
    }

    /// An undo after the rig changed size goes back to the scene before the
    /// recall, fitted to the size now: the rig answers on, at its size.
    @Test func anUndoAcrossAResizeFitsTheSizeNow() async throws {
        try await withRig(inputs: 2, outputs: 2) { rig in
            for words in [["/preset/save", "before"], ["/safe/mix/2", "1"], ["/matrix/1/1", "0.5"],
                          ["/preset/recall", "before", "0"], ["/rig/inputs", "3"], ["/preset/undo", "0.01"],
                          ["/rig/inputs", "1"], ["/rig/outputs", "1"], ["/preset/undo", "0.01"]] {
                _ = try await rig.send(words, wait: 0.2)
            }
            try await rig.ping()
            #expect(rig.crosspoint.isRunning, "the rig outlives an undo across resizes\n\(rig.diagnostics)")
            let (size, _) = try await rig.send(["/rig/inputs"])
            #expect(size.contains("/rig/inputs ,i 1"), "\(size)")
        }
    }
}
}
