import ArgumentParser
import Catalogue
import FoundationEssentials
import MixCore
import Presets

struct PresetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preset",
        abstract: "Look at presets offline: list, show, validate, diff.",
        discussion: """
            Presets are read as the rig reads them: delays up to the rig's --max-delay-ms, taken from \
            --max-delay-ms, else from the state file of the rig (--state, or --jack-name's default), else 500 ms.
            """,
        subcommands: [List.self, Show.self, Validate.self, Diff.self])

    struct Location: ParsableArguments {
        @Option(help: "Directory of preset files (NAME.json).")
        var presets = "presets"

        @Option(help: "The longest output delay presets may hold, in ms, as `serve --max-delay-ms` (default: the state file's, else 500).")
        var maxDelayMs: Double?

        @Option(help: "The rig's state file, for its --max-delay-ms (default: $XDG_STATE_HOME/crosspoint/<jack-name>.json).")
        var state: String?

        @Option(help: "The rig's JACK client name, for the default state file.")
        var jackName = "crosspoint"

        func validate() throws {
            let range = Catalogue.longestDelays
            if let maxDelayMs, !(Double(range.lowerBound)...Double(range.upperBound)).contains(maxDelayMs) {
                throw ValidationError("--max-delay-ms must be 0-10000")
            }
        }

        /// The catalogue the rig reads presets with; a state file that
        /// cannot say its longest delay is named, with the field, and stops
        /// the command (exit status 1) rather than be read as the default.
        func catalogue() throws -> Catalogue {
            if let maxDelayMs { return Catalogue(longestDelay: Float(maxDelayMs)) }
            let url = state.map { URL(fileURLWithPath: $0) } ?? StateKeeper.defaultURL(clientName: jackName)
            guard let data = FileManager.default.contents(atPath: url.path) else { return Catalogue() }
            do {
                return Catalogue(longestDelay: try RigState.longestDelay(in: data, file: url.path))
            } catch {
                print(error)
                throw ExitCode.failure
            }
        }

        func store() throws -> PresetStore {
            PresetStore(directory: URL(fileURLWithPath: presets), catalogue: try catalogue())
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every preset name, sorted.")
        @OptionGroup var location: Location

        func run() throws {
            for name in try location.store().names() { print(name) }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "A preset as a readable table.")
        @OptionGroup var location: Location
        @Argument(help: "The preset's name.") var name: String

        func run() throws {
            let store = try location.store()
            let preset = try loadOrFail(store, name)
            print(SceneTable(preset: preset, catalogue: store.catalogue).text)
        }
    }

    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check preset files; exit status 1 and the errors when any is invalid.",
            discussion: "Without FILES, every preset in the directory.")
        @OptionGroup var location: Location
        @Argument(help: "Preset files to check.") var files: [String] = []

        func run() throws {
            let store = try location.store()
            let paths = files.isEmpty ? store.names().map { store.url(for: $0).path } : files
            var failures = 0
            for path in paths {
                guard let data = FileManager.default.contents(atPath: path) else {
                    print("\(path): cannot read"); failures += 1; continue
                }
                do {
                    _ = try PresetCoding.decode(data, file: path, catalogue: store.catalogue)
                    print("\(path): ok")
                } catch {
                    print(error)
                    failures += 1
                }
            }
            if failures > 0 { throw ExitCode.failure }
        }
    }

    struct Diff: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "What a recall from A to B would change.")
        @OptionGroup var location: Location
        @Argument(help: "The preset recalled from.") var from: String
        @Argument(help: "The preset recalled.") var to: String

        func run() throws {
            let store = try location.store()
            let a = try loadOrFail(store, from), b = try loadOrFail(store, to)
            let (target, skipped) = b.fitted(inputs: a.scene.inputCount, outputs: a.scene.outputCount)
            let lines = SceneDifference(from: a.scene, to: target, catalogue: store.catalogue).lines
            print(lines.isEmpty ? "no differences" : lines.joined(separator: "\n"))
            if !skipped.isEmpty { print("not applied to \(from)'s channels: \(skipped.joined(separator: "; "))") }
        }
    }
}

private func loadOrFail(_ store: PresetStore, _ name: String) throws -> Preset {
    do {
        return try store.load(name)
    } catch {
        print(error)
        throw ExitCode.failure
    }
}
