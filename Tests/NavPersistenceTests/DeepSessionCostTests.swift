import Foundation
@_spi(Internals) import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
import Testing

/// A session as deep as the wire format allows costs what its events hold: reading it (a screen
/// search, verification, the views' exports) takes time linear in its events, and its snapshots
/// and exported rows take room linear in them.
///
/// The shape is the one that made every read quadratic: a stack pushed to its limit, then its
/// top changed at every event, so each state is a thousand routes.
@Suite(.computesAtLength, .serialized) struct DeepSessionCostTests {
  static let sizes = [5_000, 10_000, 20_000]

  /// 999 pushes, then a pop and a push in turn: 1,000 routes deep from the 1,000th event on.
  static func deepSession(events: Int) -> [AnyEvent] {
    let longest = TreeLimits.routesInOneStack - 1
    var operations: [AnyOperation] = [.start(.stack(stack("R+home")))]
    for index in 1..<events {
      operations.append(
        index <= longest || (index - longest).isMultiple(of: 2) ? .push(.string("screen-\(index)")) : .pop())
    }
    return operations.enumerated().map { index, operation in event("deep", operation, offset: Int64(index) * 100) }
  }

  /// The stores of the three sizes, written once for every test of the suite.
  struct Stores: Sendable {
    let folder: TemporaryFolder
    let stores: [SessionStore]

    init() throws {
      folder = try TemporaryFolder()
      let folder = folder
      stores = try DeepSessionCostTests.sizes.map { size in
        let store = try SessionStore(path: folder.path("deep-\(size).sqlite"))
        _ = try store.append(contentsOf: DeepSessionCostTests.deepSession(events: size))
        return store
      }
    }
  }

  static let written = Result { try Stores() }

  var stores: [SessionStore] { get throws { try Self.written.get().stores } }
  var folder: TemporaryFolder { get throws { try Self.written.get().folder } }

  /// One read of `session` in `store`.
  static func read(_ read: String, _ session: SessionID, in store: SessionStore) throws {
    switch read {
    case "screen search": #expect(try !store.showedScreen(named: "nowhere", in: session))
    case "verify": #expect(try store.verify([session]).allSatisfy(\.isIntact))
    case "screen views": try store.export(.screenViews, filter: ExportFilter(session: session)) { _ in }
    default: try store.export(.transitions, filter: ExportFilter(session: session)) { _ in }
    }
  }

  static let reads = ["screen search", "verify", "screen views", "transitions"]

  @Test(arguments: reads)
  func readingItTakesTimeLinearInItsEvents(read: String) throws {
    let seconds = try stores.map { store in
      try GrowthCheck.medianSeconds { try Self.read(read, sessionID("deep"), in: store) }
    }
    let growth = GrowthCheck.doublingRatios(seconds)
    print("\(read): \(seconds.map { String(format: "%.3f", $0) }) s of CPU for \(Self.sizes) events")
    #expect(growth.linear, "\(read): \(seconds) s for \(Self.sizes) events, ratios \(growth.ratios)")
  }

  @Test func itsSnapshotsTakeRoomLinearInItsOperations() throws {
    for (size, store) in zip(Self.sizes, try stores) {
      let connection = try SQLiteConnection(path: try folder.path("deep-\(size).sqlite"), mode: .readOnly)
      let snapshots = try #require(try connection.integer("SELECT sum(length(state)) FROM snapshots"))
      let operations = try #require(try connection.integer("SELECT sum(length(op)) FROM events"))
      // A full copy every 100 events would take 1,000 routes × 20 bytes × size / 100: 1 MB for
      // 5,000 events, 4 MB for 20,000. Each snapshot waits for its own size in operations.
      #expect(
        snapshots <= 3 * operations, "\(size) events: \(snapshots) bytes of snapshots, \(operations) of operations")
      _ = store
    }
  }

  @Test(arguments: [ExportTable.screenViews, .transitions])
  func itsExportedRowsStaySmall(table: ExportTable) throws {
    for (size, store) in zip(Self.sizes, try stores) {
      var bytes = 0
      try store.exportEncoded(table, format: .csv) { bytes += $0.count }
      // A row names a screen or two and their paths, at most 12 names each: a few hundred
      // bytes, where paths of every name on the stack made 5 KB and more.
      #expect(bytes / size < 600, "\(table) of \(size) events: \(bytes) bytes")
    }
  }
}
