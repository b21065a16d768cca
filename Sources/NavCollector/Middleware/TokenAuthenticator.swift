import Hummingbird
import NavFleet
import NavPersistence

/// Authenticates `Authorization: Bearer TOKEN` against the store's tokens and puts the token in
/// the request's context; anything else is a 401 that names no reason (a malformed, unknown,
/// revoked, expired or wrong token all answer the same). It guards every path under `/v1/`,
/// routed or not, so that without a valid token a client cannot tell which endpoints exist.
/// The console's pages (`/console/...` but signing in and its style sheet) take the pass of the
/// console's cookie instead (`ConsolePass`, made from a `read` token); without one, a page is a
/// redirect to signing in and anything else a 401.
/// A client address that presents tokens that are none faster than its `GuessLimit` is refused
/// with a 429 before the store is asked. The scheme's name is matched in any case, as RFC 9110
/// (11.1) says.
struct TokenAuthenticator: RouterMiddleware {
  typealias Context = CollectorContext
  let tokens: TokenCheck
  /// The tokens that were none, by client address.
  let guesses: GuessLimit

  func handle(
    _ request: Request, context: CollectorContext, next: (Request, CollectorContext) async throws -> Response
  ) async throws -> Response {
    // By the path's segments, as the router matches them (`//console/x` is `/console/x`).
    let segments = request.uri.path.split(separator: "/")
    let token: AccessToken
    let address = context.notes.current.client
    if segments.first == "v1" {
      guard let presented = Self.bearer(request.headers[.authorization]) else { throw CollectorError.unauthorized }
      try guesses.check(address)
      guard let found = try await tokens.authenticate(presented) else {
        guesses.noteNone(address)
        throw CollectorError.unauthorized
      }
      token = found
    } else if segments.first == "console", !ConsoleEndpoints.isOpen(segments) {
      // The console's pages: the read token its cookie's pass signs in with, or the way to sign in.
      var found: AccessToken?
      if let pass = ConsoleCookie.pass(in: request.headers) {
        try guesses.check(address)
        found = try await tokens.authenticate(consolePass: pass)
        if found == nil { guesses.noteNone(address) }
      }
      guard let found, found.role == .read else {
        guard request.method == .get || request.method == .head else { throw CollectorError.unauthorized }
        // Back to this page once signed in: a ticket's link still lands where it points.
        let asked = request.uri.path + (request.uri.query.map { "?" + $0 } ?? "")
        return ConsoleEndpoints.redirect(to: ConsolePages.signInPath(returningTo: asked))
      }
      token = found
    } else {
      return try await next(request, context)
    }
    context.notes.update { $0.app = token.app.rawValue }
    var context = context
    context.token = token
    // The token's use is written beside the request, once a minute at most, and never fails it.
    async let noted: Void = tokens.noteUse(token.id)
    do {
      let response = try await next(request, context)
      await noted
      return response
    } catch {
      await noted
      throw error
    }
  }

  /// The credentials of a `Bearer` authorization, the scheme in any case.
  static func bearer(_ header: String?) -> String? {
    guard let header, let space = header.firstIndex(of: " ") else { return nil }
    guard header[..<space].lowercased() == "bearer" else { return nil }
    let credentials = header[space...].drop { $0 == " " }
    return credentials.isEmpty ? nil : String(credentials)
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
