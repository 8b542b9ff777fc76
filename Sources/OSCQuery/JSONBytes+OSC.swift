import JSON
import OSC

extension JSONBytes {
    /// An OSC argument as its JSON equivalent: numbers (`i f h d`) as
    /// numbers, strings (`s S`) as strings; blobs and the valueless types
    /// (`T F N I`) as null, as the proposal's table of JSON equivalents says.
    mutating func argument(_ argument: OSCArgument) {
        switch argument {
        case .int32(let v): int(v)
        case .int64(let v): int(v)
        case .float(let v): number(v)
        case .double(let v): number(v)
        case .string(let v), .symbol(let v): string(v)
        case .bool, .nil, .impulse, .blob, .unsupported: null()
        }
    }
}
