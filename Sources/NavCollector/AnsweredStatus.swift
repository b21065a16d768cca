import Hummingbird

/// The status a client was answered, however a handler ended: the response's, a refusal's own,
/// or 500 for anything else. The request log and the metrics both note it.
enum AnsweredStatus {
  /// Runs `handler`, calls `note` once with the status the client gets and the time it took,
  /// then returns or rethrows as `handler` did.
  static func observing(
    _ handler: () async throws -> Response, note: (_ status: Int, _ duration: Duration) -> Void
  ) async throws -> Response {
    let started = ContinuousClock.now
    do {
      let response = try await handler()
      note(response.status.code, ContinuousClock.now - started)
      return response
    } catch let refusal as any HTTPResponseError {
      note(refusal.status.code, ContinuousClock.now - started)
      throw refusal
    } catch {
      note(500, ContinuousClock.now - started)
      throw error
    }
  }
}
