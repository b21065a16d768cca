import Hummingbird
import NavPersistence

/// What a request carries through the collector's middleware: Hummingbird's own, and the token
/// it was authenticated with (`nil` on the endpoints that need none).
public struct CollectorContext: RequestContext {
  /// Hummingbird's own.
  public var coreContext: CoreRequestContextStorage
  /// The token the request presented, once authenticated.
  public var token: AccessToken?

  /// A context for a new request.
  public init(source: Source) {
    coreContext = .init(source: source)
    token = nil
  }
}
