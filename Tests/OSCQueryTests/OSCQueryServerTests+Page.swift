import OSCQuery
import Testing

/// The application's web page, served beside the namespace.
extension OSCQueryServerTests {
    /// The application's page: at `/page/`, and at `/` for a browser;
    /// OSCQuery clients keep getting JSON at `/`.
    @Test func servesThePageToBrowsersAndJSONToEveryoneElse() async throws {
        let page = ["index.html": OSCQueryPageFile(contentType: "text/html; charset=utf-8", text: "<!doctype html><p>rig</p>"),
                    "elements/fader.js": OSCQueryPageFile(contentType: "text/javascript; charset=utf-8", text: "export {}")]
        try await withServer(page: page) { server in
            let browser = "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
            let html = try await Curl.get(url(server, "/"), headers: [browser])
            #expect(html.status == 200 && html.contentType == "text/html; charset=utf-8" && html.body.contains("<p>rig</p>"))
            #expect(html.headers["cache-control"] == "no-cache" && html.headers["x-content-type-options"] == "nosniff")
            let policy = html.headers["content-security-policy"] ?? ""
            #expect(policy.contains("script-src 'self'") && policy.contains("frame-ancestors 'none'")
                    && policy.contains("form-action 'none'"), "\(policy)")
            // curl, python-oscquery, ossia: */* or JSON or nothing.
            for accept in [[], ["Accept: */*"], ["Accept: application/json"], ["Accept: text/html;q=0, */*"]] {
                let json = try await Curl.get(url(server, "/"), headers: accept)
                #expect(json.contentType == "application/json", "\(accept)")
            }
            // A query at / is OSCQuery's, whoever asks.
            #expect(try await Curl.get(url(server, "/?HOST_INFO"), headers: [browser]).contentType == "application/json")
            for path in ["/page/", "/page", "/page/index.html"] {
                #expect(try await Curl.get(url(server, path)).body.contains("<p>rig</p>"), "\(path)")
            }
            let module = try await Curl.get(url(server, "/page/elements/fader.js"))
            #expect(module.status == 200 && module.contentType == "text/javascript; charset=utf-8" && module.body == "export {}")
            #expect(try await Curl.get(url(server, "/page/missing.js")).status == 404)
            let head = try await Curl.get(url(server, "/page/elements/fader.js"), method: "HEAD")
            #expect(head.status == 200 && head.headers["content-length"] == "9")
        }
        // Without a page, / is JSON for browsers too, and /page is an OSC path like any other.
        try await withServer { server in
            let json = try await Curl.get(url(server, "/"), headers: ["Accept: text/html"])
            #expect(json.contentType == "application/json")
            #expect(try await Curl.get(url(server, "/page/")).status == 404)
        }
    }
}
