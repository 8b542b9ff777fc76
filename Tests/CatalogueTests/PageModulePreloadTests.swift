import ControlPage
import Foundation
import Testing

/// The page's modules load at once, not level by level (issue 33): each
/// HTML file of the page names, as `<link rel="modulepreload">`, exactly the
/// modules its entry modules (`<script type="module" src>`) reach by static
/// imports, read here from the files the binary serves. A module added,
/// removed or no longer imported fails this test until the list says so.
@Suite struct PageModulePreloadTests {
    /// The page's HTML files, by path.
    static var pages: [(path: String, text: String)] {
        ControlPage.files.filter { $0.key.hasSuffix(".html") }.map { ($0.key, $0.value.text) }.sorted { $0.path < $1.path }
    }

    /// The value of `attribute` in each of the file's `<tag …>` elements whose `filter` attribute is `value`.
    static func attribute(_ attribute: String, of tag: String, where filter: String, is value: String,
                          in html: String) -> [String] {
        html.matches(of: try! Regex("<\(tag)\\b[^>]*>")).compactMap { match in
            let element = String(html[match.range])
            let named = { (name: String) -> String? in
                element.firstMatch(of: try! Regex("\\b\(name)=\"([^\"]*)\"", as: (Substring, Substring).self))
                    .map { String($0.output.1) }
            }
            return named(filter) == value ? named(attribute) : nil
        }
    }

    /// A path as the page's files are keyed: `/page/x.js` or `x.js` beside
    /// `from` (`./`, `../`) as `x.js`, `elements/x.js`.
    static func resolve(_ specifier: String, from: String) -> String {
        if specifier.hasPrefix("/page/") { return String(specifier.dropFirst("/page/".count)) }
        var parts = from.split(separator: "/").dropLast().map(String.init)
        for part in specifier.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(String(part))
            }
        }
        return parts.joined(separator: "/")
    }

    /// The modules a module imports statically (`import … from '…'`,
    /// `import '…'`, `export … from '…'`), comments left out.
    static func imports(of path: String) -> [String] {
        let code = PageCommandTests.code(ControlPage.files[path]?.text ?? "").joined(separator: "\n")
        let statement = #/(?:^|[\s;])(?:import|export)\s+(?:[\w*{}\s,$]+?\s+from\s+)?['"]((?:\.{1,2}/|/)[^'"]+)['"]/#
            .anchorsMatchLineEndings()
        return code.matches(of: statement).map { resolve(String($0.output.1), from: path) }
    }

    /// Every module reachable from these by static imports, these included.
    static func reachable(from entries: [String]) -> Set<String> {
        var found = Set<String>(), todo = entries
        while let module = todo.popLast() {
            guard found.insert(module).inserted else { continue }
            todo += imports(of: module)
        }
        return found
    }

    @Test func everyModuleTheEntriesReachIsPreloadedAndNothingElse() throws {
        #expect(Self.pages.map(\.path).contains("index.html"))
        for (path, html) in Self.pages {
            let entries = Self.attribute("src", of: "script", where: "type", is: "module", in: html)
                .map { Self.resolve($0, from: path) }
            let preloads = Self.attribute("href", of: "link", where: "rel", is: "modulepreload", in: html)
                .map { Self.resolve($0, from: path) }
            if entries.isEmpty && preloads.isEmpty { continue }
            let graph = Self.reachable(from: entries)
            for module in graph {
                #expect(ControlPage.files[module] != nil, "\(path): \(module) is imported but not a file of the page")
            }
            let expected = graph.subtracting(entries)
            #expect(expected.count > 30, "\(path): the graph was read: \(expected.sorted())")
            #expect(Set(preloads).subtracting(expected).isEmpty,
                    "\(path) preloads what its modules do not import: \(Set(preloads).subtracting(expected).sorted())")
            #expect(expected.subtracting(preloads).isEmpty,
                    "\(path) does not preload: \(expected.subtracting(preloads).sorted())")
            #expect(preloads.count == Set(preloads).count, "\(path): each module preloaded once")
        }
    }

    /// Other preloads name a file of the page or the catalogue the rig serves beside it.
    @Test func otherPreloadsNameWhatThePageFetches() {
        for (path, html) in Self.pages {
            for href in Self.attribute("href", of: "link", where: "rel", is: "preload", in: html) {
                let file = Self.resolve(href, from: path)
                #expect(ControlPage.files[file] != nil || file == PageDescription.path, "\(path): \(href)")
            }
        }
    }

    /// The graph is static: no module imports another at run time, which a
    /// preload list could not follow.
    @Test func noModuleImportsAtRunTime() {
        for (path, text) in ControlPage.files where path.hasSuffix(".js") {
            for (number, line) in PageCommandTests.code(text.text).enumerated() where line.contains("import(") {
                Issue.record("\(path):\(number + 1) imports at run time: \(line)")
            }
        }
    }

    /// The reading above, on known text.
    @Test func importsAndPathsAreReadAsTheBrowserDoes() {
        #expect(Self.resolve("../state.js", from: "elements/xp-fader.js") == "state.js")
        #expect(Self.resolve("./xp-label.js", from: "elements/xp-switch.js") == "elements/xp-label.js")
        #expect(Self.resolve("/page/app.js", from: "index.html") == "app.js")
        #expect(Set(Self.imports(of: "elements/xp-switch.js")) == ["elements/control.js", "elements/xp-label.js"])
        let html = #"<script src="/page/a.js" type="module"></script><link href="/page/b.js" rel="modulepreload">"#
        #expect(Self.attribute("src", of: "script", where: "type", is: "module", in: html) == ["/page/a.js"])
        #expect(Self.attribute("href", of: "link", where: "rel", is: "modulepreload", in: html) == ["/page/b.js"])
    }
}
