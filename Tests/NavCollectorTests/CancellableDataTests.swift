import Foundation
import Hummingbird
import HummingbirdTesting
import NavContract
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Requests cancelled as their answers arrive end, every one: the race that deadlocks
/// `URLSession.data(for:)` on Linux (the cancel waiting on the session's queue, the answer on
/// the task's lock) never blocks `cancellableData(for:)`.
@Suite struct CancellableDataTests {
  @Test func requestsCancelledAsTheirAnswersArriveAllEnd() async throws {
    let router = Router()
    router.post("echo") { request, _ -> Response in
      let body = try await request.body.collect(upTo: 1 << 16)
      return Response(status: .ok, body: ResponseBody(byteBuffer: body))
    }
    try await Application(router: router).test(.live) { client in
      let port = try #require(client.port)
      let session = URLSession(configuration: .ephemeral)
      var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)/echo")))
      request.httpMethod = "POST"
      request.httpBody = Data(repeating: 7, count: 2048)
      let sent = request
      var ended = 0
      for round in 0..<400 {
        let task = Task { try await session.cancellableData(for: sent) }
        // Cancelled at moments spread around the answer's arrival.
        try await Task.sleep(for: .microseconds(round % 40 * 50))
        task.cancel()
        _ = await task.result
        ended += 1
      }
      #expect(ended == 400)
    }
  }
}
