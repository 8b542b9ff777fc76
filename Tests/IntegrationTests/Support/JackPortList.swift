import CJack

/// Port queries shared by ``JackServer`` and ``JackProbe``.
enum JackPortList {
    /// Full names of the ports whose name matches `pattern` (a JACK regular
    /// expression; empty matches all) and which have all of `flags`.
    static func names(client: OpaquePointer, pattern: String, flags: UInt) -> [String] {
        guard let list = jack_get_ports(client, pattern.isEmpty ? nil : pattern, nil, flags) else { return [] }
        defer { jack_free(list) }
        return strings(list)
    }

    /// Copies a NULL-terminated array of C strings returned by JACK.
    static func strings(_ list: UnsafeMutablePointer<UnsafePointer<CChar>?>) -> [String] {
        var names: [String] = []
        var index = 0
        while let name = list[index] {
            names.append(String(cString: name))
            index += 1
        }
        return names
    }
}
