import Hummingbird
import NavCore

/// What to do once a request's answer has ended, done once: give back a request's place in a
/// pool, record its duration. An answer ends when the handler fails, when its answer is a
/// buffer (its length is known), or, for an answer streamed after the handler returns (a
/// history, an export), once the stream has been written, so a reader that takes a chunk a
/// minute is counted, and timed, the whole time. If the stream is never written (the client
/// left first), the answer ends when it is let go.
final class AnswerEnd: Sendable {
  private let action: Protected<(@Sendable (_ whole: Bool) -> Void)?>

  /// `action` is told whether the answer was written whole (`false`: the handler failed, the
  /// stream was cut, or it was never written).
  init(_ action: @escaping @Sendable (_ whole: Bool) -> Void) { self.action = Protected(action) }

  deinit { end(whole: false) }

  /// Runs the action, the first time only.
  func end(whole: Bool) {
    let action = action.withLock { action in
      defer { action = nil }
      return action
    }
    action?(whole)
  }

  /// `response`, ending when its body has been written; at once when the handler throws or the
  /// body is a buffer.
  func held(_ response: () async throws -> Response) async throws -> Response {
    var answer: Response
    do {
      answer = try await response()
    } catch {
      end(whole: false)
      throw error
    }
    guard answer.body.contentLength == nil else {
      end(whole: true)
      return answer
    }
    let body = answer.body
    answer.body = ResponseBody { [self] writer in
      do {
        try await body.write(writer)
      } catch {
        end(whole: false)
        throw error
      }
      end(whole: true)
    }
    return answer
  }
}
