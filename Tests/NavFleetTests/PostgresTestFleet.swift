import Foundation
@_spi(Internals) import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
import Testing

@testable import NavFleet

/// A fleet over the tests' PostgreSQL server (`TestPostgres`), its pool running, its schema made,
/// and an app of its own for the test: every test keeps to its own app in the shared database.
final class PostgresTestFleet: Sendable {
  let fleet: PostgresFleet
  let app: AppName
  private let pool: Task<Void, Never>

  init(snapshotInterval: Int = StoreOptions.defaultSnapshotInterval, app: AppName? = nil) async throws {
    let url = try #require(TestPostgres.url, "NAVSTORE_REQUIRE_POSTGRES=1, but NAVSTORE_POSTGRES_URL names no server")
    let fleet = PostgresFleet(
      address: try PostgresAddress(url), connections: 8, snapshotInterval: snapshotInterval,
      operationTimeout: TestPostgres.patientOperationTimeout)
    self.fleet = fleet
    pool = Task { await fleet.run() }
    _ = try await fleet.migrate()
    self.app = try app ?? AppName(TestPostgres.uniqueApp())
    try await fleet.createApp(self.app)
  }

  /// Another collector over the same database and app: its own pool, its own caches.
  func another(snapshotInterval: Int = StoreOptions.defaultSnapshotInterval) async throws -> PostgresTestFleet {
    try await PostgresTestFleet(snapshotInterval: snapshotInterval, app: app)
  }

  deinit { pool.cancel() }
}
