import MixCore
import Presets
import SystemSupport

/// A preset printed for people: sources, crosspoints in use, outputs, master.
struct SceneTable {
    let preset: Preset

    var text: String {
        let s = preset.scene
        var lines = ["preset \(preset.name): \(s.inputCount) inputs, \(s.outputCount) outputs"
                     + (preset.fade.map { ", recall fade \(format($0)) s" } ?? "")]
        if let notes = preset.notes { lines.append("notes: \(notes)") }
        lines.append("")
        lines.append(pad("source", 8) + pad("name", 18) + pad("dB", 8) + pad("pan", 7) + "mute solo")
        for (i, source) in s.sources.enumerated() {
            lines.append(pad("\(i + 1)", 8) + pad(source.name, 18) + pad(db(source.volume), 8)
                         + pad(format(Double(source.pan)), 7) + pad(source.mute ? "M" : "-", 5) + (source.solo ? "S" : "-"))
        }
        lines.append("")
        lines.append("crosspoints in use (in -> out: dB)")
        var any = false
        for n in stride(from: 1, through: s.inputCount, by: 1) {
            let row = stride(from: 1, through: s.outputCount, by: 1).filter { s.crosspoints[n, $0] != 0 }
                .map { "\($0): \(db(s.crosspoints[n, $0]))" }
            if !row.isEmpty { lines.append("  in \(n) -> " + row.joined(separator: ", ")); any = true }
        }
        if !any { lines.append("  none") }
        lines.append("")
        lines.append(pad("output", 8) + pad("name", 18) + pad("dB", 8) + "mute")
        for (i, output) in s.outputs.enumerated() {
            lines.append(pad("\(i + 1)", 8) + pad(output.name, 18) + pad(db(output.volume), 8) + (output.mute ? "M" : "-"))
        }
        lines.append("")
        lines.append("master: \(db(s.master.volume)) dB" + (s.master.mute ? ", muted" : ""))
        return lines.joined(separator: "\n")
    }
}

/// What changes between two scenes of the same size, one line per parameter.
struct SceneDifference {
    let from: Scene
    let to: Scene

    var lines: [String] {
        var lines: [String] = []
        func note(_ what: String, _ a: String, _ b: String) { if a != b { lines.append("\(what): \(a) -> \(b)") } }
        for n in from.sources.indices {
            let (a, b) = (from.sources[n], to.sources[n])
            note("source \(n + 1) level", db(a.volume), db(b.volume))
            note("source \(n + 1) pan", format(Double(a.pan)), format(Double(b.pan)))
            note("source \(n + 1) mute", "\(a.mute)", "\(b.mute)")
            note("source \(n + 1) solo", "\(a.solo)", "\(b.solo)")
            note("source \(n + 1) name", a.name, b.name)
        }
        for n in stride(from: 1, through: from.inputCount, by: 1) {
            for m in stride(from: 1, through: from.outputCount, by: 1) {
                note("crosspoint \(n) -> \(m)", db(from.crosspoints[n, m]), db(to.crosspoints[n, m]))
            }
        }
        for m in from.outputs.indices {
            let (a, b) = (from.outputs[m], to.outputs[m])
            note("output \(m + 1) level", db(a.volume), db(b.volume))
            note("output \(m + 1) mute", "\(a.mute)", "\(b.mute)")
            note("output \(m + 1) name", a.name, b.name)
        }
        note("master level", db(from.master.volume), db(to.master.volume))
        note("master mute", "\(from.master.mute)", "\(to.master.mute)")
        return lines
    }
}

/// A level in dB for people: "off" for silence, one decimal otherwise.
private func db(_ gain: Float) -> String {
    gain <= 0 ? "off" : cFormat("%+.1f", FaderLaw.decibels(gain: gain))
}

private func format(_ value: Double) -> String { cFormat("%g", value) }

private func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
}
