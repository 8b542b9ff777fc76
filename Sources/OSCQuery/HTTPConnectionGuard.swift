import HummingbirdCore
import Logging
import NIOCore

/// The first handler of every HTTP connection, before any HTTP decoding:
/// it holds the connection to `HTTPConnectionLimits`. Over a limit of
/// connections, the connection is closed at once. Every request header on
/// the connection, not only the first, must arrive whole (its blank line)
/// within the deadline and stay within the size: past the deadline the
/// connection is closed; past the size it is answered `431 Request Header
/// Fields Too Large` and closed (written at once: a client that pipelines
/// may get it before the answers to requests it sent earlier). The first
/// header's deadline runs from the
/// connection's opening, a later one's from its first byte (a connection
/// idle between requests is the idle timeout's). A body is passed on by its
/// `Content-Length` (`HTTPRequestFraming`); a request whose body has no
/// length (`Transfer-Encoding`) is answered `411 Length Required` and
/// closed, since where the next header starts could not be told. Once the
/// connection has become a WebSocket (a `101` answer went out) the guard
/// only passes bytes on.
final class HTTPConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private let limits: HTTPConnectionLimits
    private let logger: Logger
    private var host = "?"
    private var framing = HTTPRequestFraming()
    private var deadline: Scheduled<Void>?
    /// A WebSocket now, or refused: nothing more to look at.
    private var done = false

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
        let (limits, host) = (limits, host)
        context.channel.closeFuture.whenComplete { _ in limits.close(host) }
        startDeadline(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !done else { return context.fireChannelRead(data) }
        let bytes = unwrapInboundIn(data).readableBytesView
        for byte in bytes {
            switch framing.take(byte, headerLimit: limits.headerSize) {
            case .none: continue
            case .headerBegins: if deadline == nil { startDeadline(context) }
            case .headerEnds:
                deadline?.cancel()
                deadline = nil
            case .tooLarge: return refuse(context, "431 Request Header Fields Too Large",
                                          "request header over \(limits.headerSize) bytes")
            case .lengthRequired: return refuse(context, "411 Length Required", "request body without a length")
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if !done, case .byteBuffer(let buffer) = unwrapOutboundIn(data),
           buffer.readableBytesView.starts(with: Self.switching) {
            // A WebSocket from here on: its frames are not HTTP. What the
            // kernel holds for it is bounded too (rather than grown to
            // megabytes for a client that does not read); its own queue is
            // `FrameQueue`.
            done = true
            deadline?.cancel()
            deadline = nil
            context.channel.setOption(ChannelOptions.socketOption(.so_sndbuf), value: FrameQueue.kernelSendBuffer)
                .whenFailure { _ in }
        }
        context.write(data, promise: promise)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
    }

    private static let switching = Array("HTTP/1.1 101 ".utf8)

    private func startDeadline(_ context: ChannelHandlerContext) {
        let channel = context.channel
        let (seconds, attoseconds) = limits.headerDeadline.components
        deadline = context.eventLoop.scheduleTask(in: .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)) {
            channel.close(promise: nil)
        }
    }

    private func refuse(_ context: ChannelHandlerContext, _ status: String, _ reason: String) {
        logger.debug("HTTP: \(reason) refused", metadata: ["host": "\(host)"])
        done = true
        deadline?.cancel()
        deadline = nil
        let answer = "HTTP/1.1 \(status)\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.byteBuffer(ByteBuffer(string: answer)))).whenComplete { _ in
            channel.close(promise: nil)
        }
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
