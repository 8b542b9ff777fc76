import Foundation
import Testing

/// `crosspoint bench`: out-of-range options are refused before anything
/// runs, and `--recall` reports both kinds of recall (file unchanged, file
/// read) as JSON with numbers in them.
extension Integration {
@Suite struct BenchCommandTests {
    @Test(arguments: [["--density", "2"], ["--recall", "--trials", "0"], ["--recall", "--fade=-1"], ["--inputs", "0"]])
    func outOfRangeOptionsAreRefused(_ options: [String]) async throws {
        let bench = try ChildProcess(executable: CrosspointRig.binary, arguments: ["bench", "--json"] + options)
        let exit = try await bench.waitForExit()
        #expect(exit != .exited(0), "\(options): \(bench.standardOutput)")
        #expect(bench.standardError.contains("must be"), "\(options): \(bench.standardError)")
        #expect(bench.standardOutput.isEmpty)
    }

    /// Past the mixer's 512 channels: a usage error naming the limit, exit
    /// 64, for bench and serve alike (issue 33: bench took up to 1024 and
    /// then stopped on a precondition).
    @Test(arguments: [["bench", "--inputs", "513", "--outputs", "8"], ["bench", "--recall", "--outputs", "1024"],
                      ["serve", "--no-autostart", "--inputs", "513"]])
    func moreChannelsThanTheMixerTakesIsAUsageError(_ arguments: [String]) async throws {
        let tool = try ChildProcess(executable: CrosspointRig.binary, arguments: arguments)
        defer { tool.terminate() }
        #expect(try await tool.waitForExit(timeout: .seconds(10)) == .exited(64), "\(arguments): \(tool.standardError)")
        #expect(tool.standardError.contains("must be 1-512, the most the mixer takes"), "\(tool.standardError)")
    }

    @Test func recallReportsBothKindsOfRecall() async throws {
        let bench = try ChildProcess(executable: CrosspointRig.binary,
                                     arguments: ["bench", "--recall", "--json", "--inputs", "8", "--outputs", "8", "--trials", "20"])
        #expect(try await bench.waitForExit() == .exited(0), "\(bench.standardError)")
        let line = try #require(bench.standardOutput.split(separator: "\n").last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["inputs"] as? Int == 8 && object["trials"] as? Int == 20)
        for key in ["recall_us_median", "recall_first_read_us_median", "load_us_median", "decode_us_median"] {
            let value = try #require(object[key] as? Double, "\(key) in \(line)")
            #expect(value > 0, "\(key)")
        }
        // 64 crosspoints, 8 source volumes and pans, 8 output volumes move.
        #expect(object["changes"] as? Int == 88)
    }
}
}
