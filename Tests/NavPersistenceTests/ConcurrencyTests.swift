import Foundation
import NavCore
import NavPersistence
import NavTestSupport
import Testing

/// Two connections (two stores on one file) racing to append to one session: each seq is won by
/// exactly one of them, the loser is told so, and nothing is lost.
@Suite struct ConcurrencyTests {
  @Test func exactlyOneWriterWinsEachSeq() async throws {
    let folder = try TemporaryFolder()
    let path = folder.path("c.sqlite")
    let first = try SessionStore(path: path)
    let second = try SessionStore(path: path)
    try await first.write { try $0.append(event("s", .start(.stack(stack("R+"))))) }

    let rounds = 60
    let results = await withTaskGroup(of: (writer: Int, wins: [Int], conflicts: Int).self) { group in
      for (writer, store) in [first, second].enumerated() {
        group.addTask {
          var wins: [Int] = []
          var conflicts = 0
          for round in 0..<rounds {
            let seq = round + 2
            // Each writer claims the seq it believes is next; only one claim per seq can succeed.
            let claim = event("s", .push(.string("w\(writer)-\(seq)")), offset: Int64(seq), seq: seq)
            do {
              try store.append(claim)
              wins.append(seq)
            } catch StoreError.conflict {
              conflicts += 1
            } catch {
              Issue.record("writer \(writer) seq \(seq): \(error)")
            }
          }
          return (writer, wins, conflicts)
        }
      }
      var all: [(writer: Int, wins: [Int], conflicts: Int)] = []
      for await result in group { all.append(result) }
      return all
    }
    let allWins = results.flatMap(\.wins).sorted()
    #expect(allWins == Array(2...(rounds + 1)), "every seq won exactly once")
    #expect(results.map(\.conflicts).reduce(0, +) == rounds, "every losing claim was told it lost")
    let history = try await first.read { try $0.history(of: sessionID("s")) }
    #expect(history.count == rounds + 1)
    for entry in history.dropFirst() {
      guard case .push(.string(let name), _) = entry.operation.kind, let seq = entry.seq else {
        Issue.record("unexpected event \(entry)")
        continue
      }
      let winner = results.first { $0.wins.contains(seq) }?.writer
      #expect(name == "w\(winner ?? -1)-\(seq)", "the stored event is the winner's")
    }
    #expect(try await second.read { try $0.verify() }.allSatisfy(\.isIntact))
  }

  @Test func unclaimedAppendsFromTwoConnectionsAreAllKept() async throws {
    let folder = try TemporaryFolder()
    let path = folder.path("c.sqlite")
    let stores = [try SessionStore(path: path), try SessionStore(path: path)]
    try await stores[0].write { try $0.append(event("s", .start(.stack(stack("R+"))))) }
    await withTaskGroup(of: Void.self) { group in
      for (writer, store) in stores.enumerated() {
        group.addTask {
          for index in 0..<50 {
            do {
              try store.append(event("s", .presentSheet(.string("w\(writer)-\(index)"))))
            } catch {
              Issue.record("\(error)")
            }
          }
        }
      }
    }
    let history = try await stores[1].read { try $0.history(of: sessionID("s")) }
    #expect(history.count == 101)
    #expect(history.map(\.seq) == Array(1...101).map(Optional.some))
    #expect(try await stores[0].read { try $0.verify() }.allSatisfy(\.isIntact))
  }

  @Test func manyOpenersCreatingOneStoreAllSucceed() async throws {
    for round in 0..<5 {
      let folder = try TemporaryFolder()
      let path = folder.path("new-\(round).sqlite")
      let failures = await withTaskGroup(of: String?.self) { group in
        for _ in 0..<8 {
          group.addTask {
            do {
              _ = try SessionStore(path: path)
              return nil
            } catch {
              return "\(error)"
            }
          }
        }
        var failures: [String] = []
        for await failure in group { if let failure { failures.append(failure) } }
        return failures
      }
      #expect(failures.isEmpty, "round \(round): \(failures)")
    }
  }
}
