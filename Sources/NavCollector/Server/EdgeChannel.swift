import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1 channel with `HTTPEdgeHandler` set just below its conversion to Swift
/// HTTP Types, where the request's HTTP version is still known. Wrapped by TLS when the
/// collector serves HTTPS, as Hummingbird's own channels are.
struct EdgeChannel<Base: HTTPChannelHandler>: ServerChildChannel, HTTPChannelHandler {
  typealias Value = Base.Value
  let base: Base

  func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
    base.setup(channel: channel, logger: logger).flatMapThrowing { value in
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
