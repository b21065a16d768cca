import Foundation
import NavCore
import NavFleet
import NavPersistence
import NavTestSupport
import NavUpload
import Testing

/// A daily byte cap holds across launches, days go on where the last stopped, and an expensive
/// network gets its own cap.
extension UploaderTests {
  @Test func aDailyCapHoldsAcrossLaunchesAndTheNextDayGoesOn() async throws {
    _ = try await device.ingest(SessionLines.bytes(prefix: "capped", sessions: 20, events: 50))
    // Room for a batch and a half a day: a batch is four sessions' events as stored, chain
    // values included.
    var firstBatch: [String] = []
    for number in 0..<4 {
      for event in try await device.read({ try $0.history(of: sessionID("capped-\(number)")) }) {
        firstBatch.append(try WireFormat.canonicalString(event))
      }
    }
    let cap = try CollectorClient.body(of: firstBatch).count * 3 / 2
    let time = Protected(Timestamp(millisecondsSince1970: 1_795_000_000_000))  // the test moves it
    var capped = UploadConfiguration(batchEvents: 200, budget: UploadBudget(bytesPerDay: cap))
    capped.now = { time.withLock { $0 } }
    let configuration = capped
    let device = self.device
    let token = self.token
    try await withCollector { url in
      var days = 0
      while true {
        // A launch a day, and a second one the same day, which finds the day spent.
        let first = NavigationUploader(store: device, collector: url, token: token, configuration: configuration)
        let outcome = await first.flush()
        let spent = try await device.uploadSpending(on: time.withLock { $0 })
        #expect(spent.bytes <= cap, "day \(days): \(spent.bytes) bytes sent, over the cap of \(cap)")
        if outcome == .done { break }
        #expect(outcome == .overBudget)
        #expect(spent.bytes > 0, "day \(days): nothing fitted")
        let again = NavigationUploader(store: device, collector: url, token: token, configuration: configuration)
        #expect(await again.flush() == .overBudget)
        #expect(
          try await device.uploadSpending(on: time.withLock { $0 }) == spent, "a second launch sent more the same day")
        time.withLock { $0 = Timestamp(millisecondsSince1970: $0.millisecondsSince1970 + 86_400_000) }
        days += 1
        try #require(days < 20, "the uploads never finished")
      }
      #expect(days >= 3, "1,000 events at about 300 a day took \(days + 1) days")
    }
    let shop = try collector.store(of: AppName("shop"))
    #expect(try Self.events(shop) == Self.events(device))
  }

  @Test func anExpensiveNetworkHasItsOwnCap() async throws {
    _ = try await device.ingest(SessionLines.bytes(prefix: "cell", sessions: 3, events: 10))
    let expensive = Protected(true)  // the network the test switches
    let configuration = UploadConfiguration(
      budget: UploadBudget(bytesPerDayOnExpensiveNetwork: 0, networkIsExpensive: { expensive.withLock { $0 } }))
    let device = self.device
    let token = self.token
    try await withCollector { url in
      let uploader = NavigationUploader(store: device, collector: url, token: token, configuration: configuration)
      #expect(await uploader.flush() == .overBudget)
      #expect(try await uploader.pending().events == 30)
      #expect(try await device.uploadSpending().bytes == 0)
      expensive.withLock { $0 = false }  // on Wi-Fi again
      #expect(await uploader.flush() == .done)
      let spent = try await device.uploadSpending()
      #expect(spent.bytes > 0 && spent.expensiveBytes == 0)
    }
  }

  /// The background loop on an expensive network with no allowance sends nothing, however
  /// often it looks, and goes on by itself once the network is no longer expensive.
  @Test func theBackgroundLoopWaitsForACheaperNetwork() async throws {
    _ = try await device.ingest(SessionLines.bytes(prefix: "loop", sessions: 2, events: 10))
    let expensive = Protected(true)  // the network the test switches
    let configuration = UploadConfiguration(
      flushAt: 1, interval: .zero, pollInterval: .milliseconds(20),
      budget: UploadBudget(bytesPerDayOnExpensiveNetwork: 0, networkIsExpensive: { expensive.withLock { $0 } }))
    let device = self.device
    let token = self.token
    try await withCollector { url in
      let uploader = NavigationUploader(store: device, collector: url, token: token, configuration: configuration)
      await uploader.start()
      try await Task.sleep(for: .milliseconds(300))  // some fifteen looks
      #expect(try await uploader.pending().events == 20)
      #expect(try await device.uploadSpending().bytes == 0)
      expensive.withLock { $0 = false }
      let deadline = ContinuousClock.now + .seconds(30)
      while try await uploader.pending().events > 0, ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(20))
      }
      await uploader.stop()
      #expect(try await uploader.pending().events == 0)
    }
    #expect(try Self.events(collector.store(of: AppName("shop"))) == Self.events(device))
  }
}
