import Foundation
@_spi(Internals) import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
@_spi(Internals) import NavTools
import Testing

/// A session as deep as the wire format allows costs what its events hold: reading it (a screen
/// search, verification, the views' exports) takes time linear in its events, and its snapshots
/// and exported rows take room linear in them.
///
/// The shape is the one that made every read quadratic: a stack pushed to its limit, then its
/// top changed at every event, so each state is a thousand routes.
@Suite(.computesAtLength, .serialized) struct DeepSessionCostTests {
  /// One doubling tells linear (about 2 times) from quadratic (about 4) apart; a third size
  /// would cost the suite's run most of its time and tell nothing more.
  static let sizes = [5_000, 10_000]

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

  /// The stores of the sizes, written once for every test of the suite.
  struct Stores: Sendable {
    let folder: TemporaryFolder
    let stores: [SessionStore]

    init() throws {
      folder = try TemporaryFolder.forTheRun()
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
    default: try store.export(.screenViews, filter: ExportFilter(session: session)) { _ in }
    }
  }

  static let reads = ["screen search", "verify", "screen views"]

  @Test(arguments: reads)
  func readingItTakesTimeLinearInItsEvents(read: String) throws {
    let seconds = try stores.map { store in
      try GrowthCheck.medianSeconds { try Self.read(read, sessionID("deep"), in: store) }
    }
    let growth = GrowthCheck.doublingRatios(seconds)
    print("\(read): \(seconds.map { String(format: "%.3f", $0) }) s of CPU for \(Self.sizes) events")
    #expect(growth.linear, "\(read): \(seconds) s for \(Self.sizes) events, ratios \(growth.ratios)")
  }

  /// The snapshots of a store's sessions, and what their events hold, in bytes.
  static func snapshotsAndOperations(_ path: String) throws -> (snapshots: Int, operations: Int, events: Int) {
    let connection = try SQLiteConnection(path: path, mode: .readOnly)
    return (
      Int(try connection.integer("SELECT coalesce(sum(length(state)), 0) FROM snapshots") ?? -1),
      Int(try connection.integer("SELECT sum(length(op)) FROM events") ?? -1),
      Int(try connection.integer("SELECT count(*) FROM events") ?? -1)
    )
  }

  /// A snapshot waits until replaying the events since the last one would cost what reading it
  /// does (each event its operation's bytes and `WorkBudget.unitsPerEvent`), so a session's
  /// snapshots hold at most that much for each event, whatever its tree: linear in its events.
  static func expectSnapshotsWithinTheirCost(_ path: String, _ what: String) throws {
    let (snapshots, operations, events) = try snapshotsAndOperations(path)
    let bound = events * WorkBudget.unitsPerEvent + 2 * operations
    #expect(snapshots <= bound, "\(what): \(snapshots) bytes of snapshots, \(events) events of \(operations) bytes")
  }

  @Test func itsSnapshotsTakeRoomLinearInItsEvents() throws {
    for size in Self.sizes {
      try Self.expectSnapshotsWithinTheirCost(try folder.path("deep-\(size).sqlite"), "\(size) events 1,000 deep")
    }
  }

  @Test func aLargeStateIsNotWrittenAgainEveryHundredSmallEvents() throws {
    // 999 screens of 1 KB (a state of about 1 MB), then 10,000 small events above them: a
    // snapshot every 100 events would write 100 MB; each one waits for its cost in replay.
    let folder = try TemporaryFolder()
    let path = folder.path("large.sqlite")
    let store = try SessionStore(path: path)
    let large = JSONValue.object(["text": .string(String(repeating: "x", count: 1_000))])
    var operations: [AnyOperation] = [.start(.stack(stack("R+home")))]
    operations += (0..<998).map { _ in .push(large) }
    operations += (0..<10_000).map { $0.isMultiple(of: 2) ? .push(.string("small")) : .pop() }
    _ = try store.append(
      contentsOf: operations.enumerated().map { index, operation in event("large", operation, offset: Int64(index)) })
    try Self.expectSnapshotsWithinTheirCost(path, "a 1 MB state under 10,000 small events")
    // And a cold read of its end replays about a snapshot's cost in events, not 10,000.
    #expect(try store.state(of: sessionID("large")).state.routes?.count == 999)
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
