import HummingbirdCore
import Logging
import NIOCore

/// The first handler of every HTTP connection, before any HTTP decoding:
/// it holds the connection to `HTTPConnectionLimits`. Over a limit of
/// connections, the connection is closed at once. Until the first request
/// header has arrived whole (its blank line), the header must come within
/// the deadline and stay within the size: past the deadline the connection
/// is closed; past the size it is answered `431 Request Header Fields Too
/// Large` and closed. Once the header is in, the guard only passes bytes on
/// (later requests on the connection are bounded by the idle timeout and
/// the HTTP decoder's own limits).
final class HTTPConnectionGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let limits: HTTPConnectionLimits
    private let logger: Logger
    private var host = "?"
    private var counted = false
    /// Bytes of the first header so far; nil once it has arrived whole.
    private var headerBytes: Int? = 0
    /// The last four bytes read, for a blank line split between reads.
    private var last: UInt32 = 0
    private var deadline: Scheduled<Void>?

    init(limits: HTTPConnectionLimits, logger: Logger) {
        self.limits = limits
        self.logger = logger
    }

    func channelActive(context: ChannelHandlerContext) {
        host = context.remoteAddress?.peerHost ?? "?"
        guard limits.open(host) else {
            logger.debug("HTTP: connection refused, over the limit", metadata: ["host": "\(host)"])
            context.close(promise: nil)
            return
        }
        counted = true
        let (limits, host) = (limits, host)
        context.channel.closeFuture.whenComplete { _ in limits.close(host) }
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: .nanoseconds(Int64(limits.headerDeadline.components.seconds) * 1_000_000_000
                                                                  + limits.headerDeadline.components.attoseconds / 1_000_000_000)) {
            channel.close(promise: nil)
        }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let seen = headerBytes else { return context.fireChannelRead(data) }
        let bytes = unwrapInboundIn(data).readableBytesView
        // Looked at no further than the size allows.
        let room = limits.headerSize - seen
        if let end = Self.endOfHeader(bytes.prefix(room + 1), last: &last), end <= room {
            headerBytes = nil
            deadline?.cancel()
            deadline = nil
        } else if bytes.count > room {
            return refuseLarge(context)
        } else {
            headerBytes = seen + bytes.count
        }
        context.fireChannelRead(data)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
    }

    /// Where the header's blank line ends in `bytes` (the count of bytes up
    /// to and with it); nil when it is not there. `last` carries the last
    /// four bytes from one read to the next.
    static func endOfHeader(_ bytes: some Collection<UInt8>, last: inout UInt32) -> Int? {
        var index = 0
        for byte in bytes {
            index += 1
            last = last << 8 | UInt32(byte)
            if last == 0x0D0A_0D0A { return index }
        }
        return nil
    }

    private func refuseLarge(_ context: ChannelHandlerContext) {
        logger.debug("HTTP: request header over \(limits.headerSize) bytes refused", metadata: ["host": "\(host)"])
        headerBytes = nil
        deadline?.cancel()
        let answer = "HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
        let channel = context.channel
        context.writeAndFlush(NIOAny(ByteBuffer(string: answer))).whenComplete { _ in channel.close(promise: nil) }
    }
}

/// A server child channel with `HTTPConnectionGuard` first in every
/// connection's pipeline, in front of the channel it wraps (HTTP with the
/// WebSocket upgrade).
struct GuardedChildChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value
    let inner: Inner
    let limits: HTTPConnectionLimits

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(HTTPConnectionGuard(limits: limits, logger: logger), position: .first)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return inner.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
