import FoundationEssentials
import Access
import JSON
import Logging
import PortPatterns
import MIDI
import RigControl
import Surfaces

/// The rig's MIDI controllers (`serve --midi NAME --midi-map FILE`,
/// docs/surfaces.md): their names checked, their maps read against the
/// rig's address space, and the desk that runs them.
extension Rig {
    /// Why `--midi` and `--midi-map` cannot make controllers, or nil.
    static func midiProblem(names: [String], maps: [String], mackie: [String] = []) -> String? {
        guard names.count == maps.count else {
            return "--midi and --midi-map come in pairs, in the same order: \(names.count) --midi, \(maps.count) --midi-map"
        }
        var seen: Set<String> = []
        for name in names + mackie {
            guard (1...32).contains(name.utf8.count),
                  name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
            else {
                return "--midi or --mcu '\(name.escapingControlCharacters().cut(to: 40))': a name is 1-32 letters, digits, '-' or '_' (its ports are NAME_in and NAME_out)"
            }
            guard seen.insert(name).inserted else { return "--midi or --mcu '\(name)' is given twice" }
        }
        var files: Set<String> = []
        for map in maps where !files.insert(URL(fileURLWithPath: map).standardizedFileURL.path).inserted {
            return "--midi-map '\(map.escapingControlCharacters().cut(to: 80))' is given for two controllers: learn rewrites a controller's whole map, so each has a file of its own"
        }
        return nil
    }

    /// A `--surface-connect` (`NAME=RE`) or `--surface-role` (`NAME=ROLE`)
    /// entry: the controller's name (one of `names`) and the rest, or what
    /// is wrong with it. `check`: what is wrong with the rest, or nil.
    static func surfaceEntry(_ entry: String, names: [String],
                             check: (String) -> String?) -> Result<(String, String), SurfaceEntryError> {
        guard let equals = entry.firstIndex(of: "=") else {
            return .failure(.init("'\(entry.escapingControlCharacters().cut(to: 64))' is not NAME=…"))
        }
        let name = String(entry[..<equals]), rest = String(entry[entry.index(after: equals)...])
        guard names.contains(name) else {
            return .failure(.init("'\(name.escapingControlCharacters().cut(to: 40))' is no --midi controller or --mcu unit (\(names.joined(separator: ", ")))"))
        }
        if let problem = check(rest) { return .failure(.init("\(name): \(problem)")) }
        return .success((name, rest))
    }

    /// Why `text` cannot be a `--surface-connect` expression, or nil.
    static func surfacePatternProblem(_ text: String) -> String? {
        PortPattern.problem(text) ?? (text.isEmpty ? "empty" : nil)
    }

    struct SurfaceEntryError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// The desk of the controllers the configuration names, each map read
    /// for the rig as it starts; nil when there are none. A map that cannot
    /// be used stops the start, naming the file and the field.
    static func surfaces(_ configuration: Configuration, controller: Controller, door: AccessDoor,
                         logger: Logger) throws -> SurfaceDesk? {
        guard let wires = configuration.host.surfaces, wires.count > 0 else { return nil }
        var surfaces: [MIDISurface] = []
        for (name, path) in zip(wires.names, configuration.midiMaps) {
            do {
                let map = try MIDIMap.load(path: path, space: controller.addressSpace)
                surfaces.append(MIDISurface(name: name, map: map, file: path))
                logger.notice("surface \(name): \(map.bindings.count) bindings from \(path), on ports \(name)_in and \(name)_out")
            } catch {
                throw StartFailure(description: "--midi-map: \(error)")
            }
        }
        // A Mackie Control unit's wire holds no map of its own: the console has them all.
        for name in wires.names.dropFirst(configuration.midiMaps.count) {
            surfaces.append(MIDISurface(name: name, map: MIDIMap([])))
        }
        let units = Array(configuration.midiMaps.count..<wires.count)
        if !units.isEmpty {
            logger.notice("Mackie Control: \(units.count * Mackie.stripsPerUnit) strips on \(units.map { wires.names[$0] }.joined(separator: ", ")) (ports NAME_in and NAME_out; the first has the master fader)")
        }
        for (name, role) in configuration.surfaceRoles.sorted(by: { $0.key < $1.key }) {
            controller.bindSurface(name, role: role)
            logger.notice("surface \(name): acts in the role \(role)")
        }
        return SurfaceDesk(controller: controller, wires: wires, surfaces: surfaces, admission: door,
                           boundToRoles: Set(configuration.surfaceRoles.keys), learning: controller.learning,
                           mackie: units.isEmpty ? nil : MackieConsole(units: units), logger: logger)
    }
}
