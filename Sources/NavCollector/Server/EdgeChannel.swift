import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1 channel with `HTTPEdgeHandler` set just below its conversion to Swift
/// HTTP Types, where the request's HTTP version is still known. Wrapped by TLS when the
/// collector serves HTTPS, as Hummingbird's own channels are.
///
/// Each connection's send buffer is held to `sendBufferBytes`: left to the kernel, it grows to
/// 4 MiB on a fast link whatever the client reads, so 64 readers that stopped reading would
/// have 256 MiB of exports waiting in the kernel, all read from the store at once, before a
/// single one slowed the export down.
struct EdgeChannel<Base: HTTPChannelHandler>: ServerChildChannel, HTTPChannelHandler {
  typealias Value = Base.Value
  let base: Base

  /// Bytes a connection may have sent and not yet delivered (the kernel doubles it for its
  /// bookkeeping): 2 MiB a second to a client 100 ms away.
  static var sendBufferBytes: Int32 { 256 * 1024 }

  func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
    channel.setOption(ChannelOptions.socketOption(.so_sndbuf), value: SocketOptionValue(Self.sendBufferBytes))
      .flatMap { base.setup(channel: channel, logger: logger) }
      .flatMapThrowing { value in
        let operations = channel.pipeline.syncOperations
        let conversion = try operations.handler(type: HTTP1ToHTTPServerCodec.self)
        try operations.addHandler(HTTPEdgeHandler(), position: .before(conversion))
        return value
      }
  }

  func handle(value: Value, logger: Logger) async {
    await base.handle(value: value, logger: logger)
  }

  var responder: HTTPChannelHandler.Responder { base.responder }
}
