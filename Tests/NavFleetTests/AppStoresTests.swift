import Foundation
import Logging
import NavCore
import NavPersistence
import NavTestSupport
import Testing

@testable import NavFleet

/// The collector's stores of its apps, opened off the actor: many requests for an app whose
/// store is not open yet share one opening; a file that is missing refuses them all, alike, and
/// is opened once it is there.
@Suite struct AppStoresTests {
  let folder: TemporaryFolder
  init() throws { folder = try TemporaryFolder() }

  @Test func requestsForAStoreBeingOpenedShareOneOpening() async throws {
    let fleet = try SQLiteFleet(path: folder.path("c.sqlite"))
    _ = try fleet.createToken(app: AppName("shop"), role: .ingest)
    let stores = AppStores(fleet: fleet, logger: Logger(label: "test"))
    let opened = try await withThrowingTaskGroup(of: SessionStore.self) { group in
      for _ in 0..<32 { group.addTask { try await stores.store(for: AppName("shop")) } }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(opened.count == 32)
    #expect(opened.allSatisfy { $0 === opened[0] }, "one store, opened once")
    #expect(try await stores.store(for: AppName("shop")) === opened[0])
    #expect(await stores.problems().isEmpty)
  }

  @Test func aMissingFileRefusesEveryRequestAndIsOpenedOnceItIsThere() async throws {
    let fleet = try SQLiteFleet(path: folder.path("c.sqlite"))
    let stores = AppStores(fleet: fleet, logger: Logger(label: "test"))
    let reasons = await withTaskGroup(of: String?.self) { group in
      for _ in 0..<8 {
        group.addTask {
          do {
            _ = try await stores.store(for: AppName("late"))
            return nil
          } catch {
            return (error as? AppStores.Broken)?.reason
          }
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(reasons.count == 8 && reasons.allSatisfy { $0?.contains("is missing") == true }, "\(reasons)")
    #expect(await stores.problems().count == 1)
    _ = try fleet.createToken(app: AppName("late"), role: .ingest)
    _ = try await stores.store(for: AppName("late"))
    #expect(await stores.problems().isEmpty)
  }
}
