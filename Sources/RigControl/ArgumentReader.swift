import Catalogue
import MixCore
import OSC
import SystemSupport

/// Reads and checks the arguments of a message that sets a parameter.
/// Every failure is a reason for the `/error` reply; finite values outside a
/// range are clamped, never refused.
struct ArgumentReader {
    let arguments: [OSCArgument]

    struct Failure: Error { let reason: String }

    /// The longest fade accepted, in seconds.
    static let longestFade = Catalogue.longestFade

    /// `value [fade]`, a number clamped to `range`, and an optional fade in
    /// seconds.
    func valueAndFade(in range: ClosedRange<Double>) throws(Failure) -> (value: Double, fade: Double?) {
        guard (1...2).contains(arguments.count) else {
            throw Failure(reason: "expected 1 or 2 arguments (value [fade seconds]), got \(arguments.count)")
        }
        let value = try number(at: 0)
        let fade = arguments.count == 2 ? try number(at: 1) : nil
        return (min(max(value, range.lowerBound), range.upperBound),
                fade.map { min(max($0, 0), Self.longestFade) })
    }

    /// `step [fade]`: a relative step, any finite number (what it is
    /// clamped to depends on where it lands), and an optional fade in seconds.
    func stepAndFade() throws(Failure) -> (step: Double, fade: Double?) {
        guard (1...2).contains(arguments.count) else {
            throw Failure(reason: "expected 1 or 2 arguments (step [fade seconds]), got \(arguments.count)")
        }
        let step = try number(at: 0)
        let fade = arguments.count == 2 ? try number(at: 1) : nil
        return (step, fade.map { min(max($0, 0), Self.longestFade) })
    }

    /// Whether the button value at `index` is a press: an int or float
    /// (non-zero is pressed; TouchOSC buttons send 1.0, then 0.0 on release)
    /// or T/F.
    func isPressed(at index: Int) throws(Failure) -> Bool {
        if case .bool(let on) = arguments[index] { return on }
        guard arguments[index].number != nil else {
            throw Failure(reason: "wrong argument type '\(arguments[index].typeTag)' at \(index + 1), expected a button value (i, f or T/F)")
        }
        return try number(at: index) != 0
    }

    /// One on/off argument: an int or float (non-zero is on) or T/F, as
    /// TouchOSC buttons send 1.0 and 0.0.
    func onOff() throws(Failure) -> Bool {
        guard arguments.count == 1 else {
            throw Failure(reason: "expected 1 argument (on/off), got \(arguments.count)")
        }
        if case .bool(let on) = arguments[0] { return on }
        return try number(at: 0) != 0
    }

    /// A membership's one argument is 0 or 1 (or T/F), nothing else: a 2
    /// is more likely a group's number sent to the wrong address than a yes.
    func member() throws(Failure) {
        guard arguments.count == 1 else { return }
        if case .bool = arguments[0] { return }
        let number = try number(at: 0)
        guard number == 0 || number == 1 else {
            throw Failure(reason: "a membership is 0 or 1, not \(Int(exactly: number).map(String.init) ?? "\(number)")")
        }
    }

    /// One string argument of at most `maxLength` characters; `what` it
    /// is in the reasons ("name", "patch").
    func name(maxLength: Int = 64, what: String = "name") throws(Failure) -> String {
        guard arguments.count == 1 else {
            throw Failure(reason: "expected 1 argument (a \(what)), got \(arguments.count)")
        }
        switch arguments[0] {
        case .string(let text), .symbol(let text):
            guard text.count <= maxLength, text.utf8.count <= 4 * maxLength else {
                throw Failure(reason: "\(what) longer than \(maxLength) characters")
            }
            guard !text.containsControlCharacters else { throw Failure(reason: "\(what) with a control character") }
            return text
        default:
            throw Failure(reason: "wrong argument type '\(arguments[0].typeTag)', expected a string")
        }
    }

    /// Whole numbers, one per argument (floats must be whole: tablets send
    /// floats for everything), each in `range`.
    func channelNumbers(in range: ClosedRange<Int>, atMost limit: Int) throws(Failure) -> [Int] {
        guard (1...max(1, limit)).contains(arguments.count) else {
            throw Failure(reason: "expected 1 to \(limit) arguments (one input per output), got \(arguments.count)")
        }
        var numbers: [Int] = []
        for index in arguments.indices {
            let value = try number(at: index)
            guard value == value.rounded(), value >= Double(range.lowerBound), value <= Double(range.upperBound) else {
                throw Failure(reason: "argument \(index + 1) is \(value), expected a whole number \(range.lowerBound)-\(range.upperBound)")
            }
            numbers.append(Int(value))
        }
        return numbers
    }

    func number(at index: Int) throws(Failure) -> Double {
        guard let value = arguments[index].number else {
            throw Failure(reason: "wrong argument type '\(arguments[index].typeTag)' at \(index + 1), expected a number")
        }
        guard value.isFinite else { throw Failure(reason: "non-finite value at argument \(index + 1)") }
        return value
    }
}

/// The arguments of preset commands.
extension ArgumentReader {
    func none() throws(Failure) {
        guard arguments.isEmpty else { throw Failure(reason: "takes no arguments") }
    }

    /// Between `count.lowerBound` and `count.upperBound` strings.
    func strings(_ count: ClosedRange<Int>, usage: String) throws(Failure) -> [String] {
        guard count.contains(arguments.count) else {
            throw Failure(reason: "expected \(usage), got \(arguments.count) arguments")
        }
        var result: [String] = []
        for (index, argument) in arguments.enumerated() {
            guard case .string(let text) = argument else {
                throw Failure(reason: "wrong argument type '\(argument.typeTag)' at \(index + 1), expected a string (\(usage))")
            }
            result.append(text)
        }
        return result
    }

    /// Nothing, or one whole number in `range`.
    func optionalNumber(in range: ClosedRange<Double>, usage: String) throws(Failure) -> Double? {
        guard arguments.count <= 1 else { throw Failure(reason: "expected \(usage), got \(arguments.count) arguments") }
        guard !arguments.isEmpty else { return nil }
        let value = try number(at: 0)
        guard value == value.rounded(), range.contains(value) else {
            throw Failure(reason: "expected \(usage): a whole number \(Int(range.lowerBound))-\(Int(range.upperBound))")
        }
        return value
    }

    /// `[fade]`, in seconds.
    func optionalFade() throws(Failure) -> Double? {
        guard arguments.count <= 1 else { throw Failure(reason: "expected [fade seconds], got \(arguments.count) arguments") }
        return arguments.isEmpty ? nil : min(max(try number(at: 0), 0), Self.longestFade)
    }

    /// `s name [f fade] [s scope]`; the scope may also follow the name directly.
    func recallArguments() throws(Failure) -> (name: String, fade: Double?, scope: String?) {
        let usage = "name [fade seconds] [scope]"
        guard (1...3).contains(arguments.count) else {
            throw Failure(reason: "expected \(usage), got \(arguments.count) arguments")
        }
        guard case .string(let name) = arguments[0] else {
            throw Failure(reason: "wrong argument type '\(arguments[0].typeTag)' at 1, expected a preset name")
        }
        var fade: Double?
        var scope: String?
        for index in 1..<arguments.count {
            if case .string(let text) = arguments[index], scope == nil {
                scope = text
            } else if fade == nil && scope == nil {
                fade = min(max(try number(at: index), 0), Self.longestFade)
            } else {
                throw Failure(reason: "expected \(usage)")
            }
        }
        return (name, fade, scope)
    }
}
