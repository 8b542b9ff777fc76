import Foundation

/// Checks JSON from the server against the attribute names and shapes of
/// the OSCQuery proposal; returns what is wrong, empty if nothing.
enum SpecShape {
    /// Every key a node object may have, per the proposal.
    static let nodeKeys: Set<String> = [
        "FULL_PATH", "CONTENTS", "TYPE", "DESCRIPTION", "ACCESS", "VALUE", "RANGE", "TAGS",
        "EXTENDED_TYPE", "UNIT", "CRITICAL", "CLIPMODE", "OVERLOADS",
    ]
    static let hostInfoKeys: Set<String> = ["NAME", "EXTENSIONS", "OSC_IP", "OSC_PORT", "OSC_TRANSPORT",
                                            "WS_IP", "WS_PORT"]
    static let rangeKeys: Set<String> = ["MIN", "MAX", "VALS"]
    static let clipModes: Set<String> = ["none", "low", "high", "both"]

    /// Problems of the node tree `json`, expected at `path`.
    static func problems(node json: Any, path: String) -> [String] {
        guard let node = json as? [String: Any] else { return ["\(path): not an object"] }
        var problems: [String] = []
        for key in node.keys where !nodeKeys.contains(key) { problems.append("\(path): unknown key \(key)") }
        if node["FULL_PATH"] as? String != path {
            problems.append("\(path): FULL_PATH is \(node["FULL_PATH"] ?? "missing")")
        }
        if let access = node["ACCESS"], !((access as? Int).map { (0...3).contains($0) } ?? false) {
            problems.append("\(path): ACCESS \(access)")
        }
        if let description = node["DESCRIPTION"], !(description is String) {
            problems.append("\(path): DESCRIPTION not a string")
        }
        let type = node["TYPE"] as? String
        if node["TYPE"] != nil && type == nil { problems.append("\(path): TYPE not a string") }
        let arity = type?.count
        for key in ["VALUE", "RANGE", "UNIT", "CLIPMODE"] {
            guard let value = node[key] else { continue }
            guard let array = value as? [Any] else { problems.append("\(path): \(key) not an array"); continue }
            if let arity, array.count != arity { problems.append("\(path): \(key) has \(array.count) for TYPE \(type!)") }
            if arity == nil { problems.append("\(path): \(key) without TYPE") }
        }
        for entry in node["RANGE"] as? [Any] ?? [] where !(entry is NSNull) {
            guard let range = entry as? [String: Any] else { problems.append("\(path): RANGE entry not an object"); continue }
            for key in range.keys where !rangeKeys.contains(key) { problems.append("\(path): RANGE key \(key)") }
            if let vals = range["VALS"], !(vals is [Any]) { problems.append("\(path): VALS not an array") }
        }
        for entry in node["UNIT"] as? [Any] ?? [] where !(entry is String || entry is NSNull) {
            problems.append("\(path): UNIT entry \(entry)")
        }
        for entry in node["CLIPMODE"] as? [Any] ?? [] {
            if entry is NSNull { continue }
            guard let mode = entry as? String, clipModes.contains(mode) else {
                problems.append("\(path): CLIPMODE entry \(entry)"); continue
            }
        }
        if let overloads = node["OVERLOADS"] {
            guard let forms = overloads as? [[String: Any]] else { return problems + ["\(path): OVERLOADS not objects"] }
            for form in forms {
                // Each form is described as a method is, without CONTENTS.
                guard form["CONTENTS"] == nil, let type = form["TYPE"] as? String else {
                    problems.append("\(path): OVERLOADS entry \(form)"); continue
                }
                var described = form
                described["FULL_PATH"] = path
                problems += Self.problems(node: described, path: path).map { "OVERLOADS \(type): \($0)" }
            }
        }
        if let contents = node["CONTENTS"] {
            guard let children = contents as? [String: Any] else { return problems + ["\(path): CONTENTS not an object"] }
            for (name, child) in children {
                problems += Self.problems(node: child, path: (path == "/" ? "" : path) + "/" + name)
            }
        } else if type == nil {
            problems.append("\(path): neither CONTENTS nor TYPE")
        }
        return problems
    }

    /// Problems of a HOST_INFO answer, parsed as `json` from `body`.
    static func problems(hostInfo json: Any, body: String) -> [String] {
        guard let info = json as? [String: Any] else { return ["HOST_INFO: not an object"] }
        var problems: [String] = []
        for key in info.keys where !hostInfoKeys.contains(key) { problems.append("HOST_INFO: unknown key \(key)") }
        if let transport = info["OSC_TRANSPORT"] as? String, !["UDP", "TCP"].contains(transport) {
            problems.append("HOST_INFO: OSC_TRANSPORT \(transport)")
        }
        for key in ["OSC_PORT", "WS_PORT"] where info[key] != nil && !(info[key] is Int) {
            problems.append("HOST_INFO: \(key) not an integer")
        }
        guard let extensions = info["EXTENSIONS"] as? [String: Any] else { return problems + ["HOST_INFO: EXTENSIONS"] }
        // Booleans, not numbers: read them from the text (the server writes compact JSON).
        for key in extensions.keys
        where !body.contains("\"\(key)\":true") && !body.contains("\"\(key)\":false") {
            problems.append("HOST_INFO: EXTENSIONS \(key) not a boolean")
        }
        return problems
    }
}
