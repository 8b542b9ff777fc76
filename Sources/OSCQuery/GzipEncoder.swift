import CZlib

/// Compresses a stream of chunks into one gzip member (RFC 1952), chunk by
/// chunk, for answers sent with `Content-Encoding: gzip`. A namespace is
/// mostly the same few words over and over: level 1 compresses it about
/// tenfold at a speed close to writing it.
final class GzipEncoder {
    private var stream = z_stream()
    private var output = [UInt8](repeating: 0, count: 65_536)
    private let ready: Bool

    init(level: Int32 = 1) {
        ready = crosspoint_deflate_init_gzip(&stream, level) == Z_OK
    }

    deinit {
        if ready { deflateEnd(&stream) }
    }

    /// The compressed bytes for `input`; with `finish`, the end of the
    /// member too (call once, last). Nil if zlib failed.
    func compress(_ input: [UInt8], finish: Bool = false) -> [UInt8]? {
        guard ready else { return nil }
        var compressed: [UInt8] = []
        var input = input
        let flush = finish ? Z_FINISH : Z_NO_FLUSH
        let status: Int32 = input.withUnsafeMutableBufferPointer { inBuffer in
            stream.next_in = inBuffer.baseAddress
            stream.avail_in = UInt32(inBuffer.count)
            var status = Z_OK
            repeat {
                status = output.withUnsafeMutableBufferPointer { outBuffer in
                    stream.next_out = outBuffer.baseAddress
                    stream.avail_out = UInt32(outBuffer.count)
                    return deflate(&stream, flush)
                }
                compressed.append(contentsOf: output[..<(output.count - Int(stream.avail_out))])
            } while status == Z_OK && (stream.avail_out == 0 || (finish && status != Z_STREAM_END))
            stream.next_in = nil
            return status
        }
        let done = finish ? status == Z_STREAM_END : (status == Z_OK || status == Z_BUF_ERROR)
        return done ? compressed : nil
    }
}
