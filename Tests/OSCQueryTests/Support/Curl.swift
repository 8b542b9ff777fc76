import Foundation

/// A real HTTP client: curl, run as a process.
enum Curl {
    struct Reply {
        var status: Int
        var contentType: String
        var body: String
        /// The response's header fields, names lowercased.
        var headers: [String: String] = [:]
        /// The body parsed as JSON.
        func json() throws -> Any {
            try JSONSerialization.jsonObject(with: Data(body.utf8), options: [.fragmentsAllowed])
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var exitCode: Int32
        var description: String { "curl exited with \(exitCode)" }
    }

    /// GETs `url` (or asks it with `method`; `HEAD` as curl's `--head`);
    /// throws `Failure` if curl could not get an answer (exit code 7:
    /// connection refused).
    /// `compressed`: asks for gzip (`--compressed`), and curl unpacks it.
    static func get(_ url: String, method: String = "GET", headers extra: [String] = [],
                    compressed: Bool = false) async throws -> Reply {
        let bodyFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("oscquery-test-\(UUID().uuidString)")
        let headerFile = bodyFile.appendingPathExtension("headers")
        defer {
            try? FileManager.default.removeItem(at: bodyFile)
            try? FileManager.default.removeItem(at: headerFile)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let request = method == "HEAD" ? ["--head"] : ["--request", method]
        process.arguments = ["curl", "--silent", "--globoff", "--max-time", "10"] + request
            + (compressed ? ["--compressed"] : [])
            + extra.flatMap { ["--header", $0] }
            + ["--dump-header", headerFile.path, "--output", bodyFile.path,
               "--write-out", "%{http_code} %{content_type}", url]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        // Wait without blocking a thread of the cooperative pool, which the
        // server under test needs on a 2-core machine.
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        let written = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard status == 0 else { throw Failure(exitCode: status) }
        let parts = written.split(separator: " ", maxSplits: 1)
        // With `--head` curl reads no body (and writes the header there).
        let body = method == "HEAD" ? "" : (try? String(contentsOf: bodyFile, encoding: .utf8)) ?? ""
        var fields: [String: String] = [:]
        for line in ((try? String(contentsOf: headerFile, encoding: .utf8)) ?? "").split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Reply(status: Int(parts.first ?? "") ?? 0, contentType: parts.count > 1 ? String(parts[1]) : "",
                     body: body, headers: fields)
    }
}
