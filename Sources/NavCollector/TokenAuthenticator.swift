import Hummingbird
import NavPersistence

/// Authenticates `Authorization: Bearer TOKEN` against the store's tokens and puts the token in
/// the request's context; anything else is a 401 that names no reason (a malformed, unknown,
/// revoked or wrong token all answer the same). It guards every path under `/v1/`, routed or
/// not, so that without a valid token a client cannot tell which endpoints exist.
struct TokenAuthenticator: RouterMiddleware {
  typealias Context = CollectorContext
  let store: SessionStore

  func handle(
    _ request: Request, context: CollectorContext, next: (Request, CollectorContext) async throws -> Response
  ) async throws -> Response {
    guard request.uri.path.hasPrefix("/v1/") else { return try await next(request, context) }
    guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else {
      throw CollectorError.unauthorized
    }
    let presented = String(header.dropFirst("Bearer ".count))
    let token: AccessToken?
    do {
      token = try await store.authenticate(presented)
    } catch {
      throw CollectorError.unavailable("The token store cannot be read (\(error))")
    }
    guard let token else { throw CollectorError.unauthorized }
    var context = context
    context.token = token
    return try await next(request, context)
  }
}

extension CollectorContext {
  /// The request's token, which must have one of `roles`; 403 otherwise.
  func requireToken(_ roles: TokenRole...) throws -> AccessToken {
    guard let token else { throw CollectorError.unauthorized }
    guard roles.contains(token.role) else {
      throw CollectorError.forbidden(roles.map(\.rawValue).joined(separator: " or "))
    }
    return token
  }
}
