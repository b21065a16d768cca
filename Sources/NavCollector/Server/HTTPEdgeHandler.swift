import NIOCore
import NIOHTTP1

/// Two repairs where HTTP's parts still carry their version, just below Hummingbird's
/// conversion to Swift HTTP Types (which answers every request as HTTP/1.1):
///
/// - A request in HTTP/1.0 is answered in HTTP/1.0, without chunked encoding (which 1.0 does
///   not have), and its connection is closed after the answer, which is how a 1.0 client knows
///   a body without a length has ended.
/// - A request that cannot be parsed gets the contract's JSON error body with its 400, where
///   Hummingbird writes an empty one.
final class HTTPEdgeHandler: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart
  typealias OutboundIn = HTTPServerResponsePart
  typealias OutboundOut = HTTPServerResponsePart

  /// The versions of the requests read and not yet answered, oldest first (HTTP/1.1 may
  /// pipeline several).
  private var versions: [HTTPVersion] = []
  /// The answer being written is to an HTTP/1.0 request.
  private var answeringHTTP10 = false
  /// The request could not be parsed: the 400 Hummingbird writes next gets a body.
  private var parseFailed = false
  private var malformedBody: ByteBuffer?

  /// The body of the 400 for a request that cannot be parsed.
  static let malformedRequestBody =
    #"{"error":"bad-request","message":"The request is not well-formed HTTP/1.1 (its request line, a header or its framing); fix the client, then send it again."}"#
    + "\n"

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    if case .head(let head) = unwrapInboundIn(data) { versions.append(head.version) }
    context.fireChannelRead(data)
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    if error is HTTPParserError { parseFailed = true }
    context.fireErrorCaught(error)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    switch unwrapOutboundIn(data) {
    case .head(var head) where head.status == .badRequest && parseFailed:
      let body = ByteBuffer(string: Self.malformedRequestBody)
      head.headers.replaceOrAdd(name: "content-type", value: "application/json")
      head.headers.replaceOrAdd(name: "content-length", value: String(body.readableBytes))
      head.headers.replaceOrAdd(name: "connection", value: "close")
      malformedBody = body
      context.write(wrapOutboundOut(.head(head)), promise: promise)
    case .head(var head) where head.status.code >= 200:
      answeringHTTP10 = versions.first == .http1_0
      if answeringHTTP10 {
        head.version = .http1_0
        head.headers.remove(name: "transfer-encoding")
        head.headers.replaceOrAdd(name: "connection", value: "close")
      }
      context.write(wrapOutboundOut(.head(head)), promise: promise)
    case .end(let trailers):
      if let body = malformedBody {
        malformedBody = nil
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
      }
      if !versions.isEmpty { versions.removeFirst() }
      // HTTP/1.0 has no trailers, and its body ends where the connection does.
      guard answeringHTTP10 else {
        context.write(wrapOutboundOut(.end(trailers)), promise: promise)
        return
      }
      answeringHTTP10 = false
      let channel = context.channel
      let written = context.eventLoop.makePromise(of: Void.self)
      context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
      written.futureResult.whenComplete { _ in channel.close(promise: nil) }
      written.futureResult.cascade(to: promise)
    default:
      context.write(data, promise: promise)
    }
  }
}
