import ArgumentParser
import FoundationEssentials
import MixCore
import Presets

struct PresetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preset",
        abstract: "Look at presets offline: list, show, validate, diff.",
        subcommands: [List.self, Show.self, Validate.self, Diff.self])

    struct Location: ParsableArguments {
        @Option(help: "Directory of preset files (NAME.json).")
        var presets = "presets"

        var store: PresetStore { PresetStore(directory: URL(fileURLWithPath: presets)) }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every preset name, sorted.")
        @OptionGroup var location: Location

        func run() throws {
            for name in location.store.names() { print(name) }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "A preset as a readable table.")
        @OptionGroup var location: Location
        @Argument(help: "The preset's name.") var name: String

        func run() throws {
            let preset = try loadOrFail(location.store, name)
            print(SceneTable(preset: preset).text)
        }
    }

    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check preset files; exit status 1 and the errors when any is invalid.",
            discussion: "Without FILES, every preset in the directory.")
        @OptionGroup var location: Location
        @Argument(help: "Preset files to check.") var files: [String] = []

        func run() throws {
            let paths = files.isEmpty ? location.store.names().map { location.store.url(for: $0).path } : files
            var failures = 0
            for path in paths {
                guard let data = FileManager.default.contents(atPath: path) else {
                    print("\(path): cannot read"); failures += 1; continue
                }
                do {
                    _ = try PresetCoding.decode(data, file: path)
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
            let a = try loadOrFail(location.store, from), b = try loadOrFail(location.store, to)
            let (target, skipped) = b.fitted(inputs: a.scene.inputCount, outputs: a.scene.outputCount)
            let lines = SceneDifference(from: a.scene, to: target).lines
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
