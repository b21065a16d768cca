import Hummingbird
import NIOCore
import NavCore
import NavFleet
import NavPersistence

/// What a request carries through the collector's middleware: Hummingbird's own, the address
/// of the connection's peer, the token it was authenticated with (`nil` on the endpoints that
/// need none), and the notes its log line is made of.
package struct CollectorContext: RequestContext {
  /// Hummingbird's own.
  package var coreContext: CoreRequestContextStorage
  /// The token the request presented, once authenticated.
  package var token: AccessToken?
  /// The address of the connection's peer: the client, or the proxy in front of the collector.
  let peerAddress: SocketAddress?
  /// What the request's log line and metrics say besides its status: who asked and why it
  /// ended as it did. Shared by every middleware the request goes through.
  let notes = RequestNotes()

  /// A context for a new request.
  package init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    token = nil
    peerAddress = source.channel.remoteAddress
  }
}

/// What the middleware learns of a request as it goes, for the one log line written when it is
/// answered: the client's address and the app (a refusal's cause travels with the refusal).
/// Never a token, a session id or a payload.
final class RequestNotes: Sendable {
  private let state = Protected(Notes())

  struct Notes {
    var client: String?
    var app: String?
  }

  var current: Notes { state.withLock { $0 } }

  func update(_ change: (inout Notes) -> Void) { state.withLock { change(&$0) } }
}
