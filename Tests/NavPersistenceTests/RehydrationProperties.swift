import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
import PropertyBased
import Testing

/// Rehydrating at every seq of random sessions gives the state of applying the events one by
/// one, whatever the snapshot interval.
@Suite struct RehydrationProperties {
  static let sessions = Generator<RandomSession, Shrink.None<RandomSession>> { rng in
    RandomSession.make(id: "random", using: &rng, length: Int.random(in: 1...40, using: &rng))
  }

  @Test(arguments: [1, 7, 100])
  func rehydrationAtEverySeqEqualsReplay(interval: Int) async throws {
    await checkProperty(count: 25, input: Self.sessions) { session in
      let folder = try TemporaryFolder()
      let store = try SessionStore(path: folder.path("r.sqlite"), options: StoreOptions(snapshotInterval: interval))
      // Half appended one by one, half in one batch.
      let split = session.events.count / 2
      for event in session.events[..<split] { try store.append(event) }
      try store.append(contentsOf: Array(session.events[split...]))
      let reopened = try SessionStore(path: folder.path("r.sqlite"), options: StoreOptions(snapshotInterval: interval))
      for (index, expected) in session.states.enumerated() {
        let rebuilt = try reopened.state(of: sessionID("random"), at: index + 1)
        #expect(rebuilt.state == expected, "seq \(index + 1), interval \(interval)")
      }
      #expect(try reopened.verify().allSatisfy(\.isIntact))
    }
  }
}
