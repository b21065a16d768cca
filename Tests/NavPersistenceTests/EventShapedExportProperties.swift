import Foundation
import NavCore
import NavJSON
@_spi(Internals) import NavPersistence
import NavTestSupport
@_spi(Internals) import NavTools
import PropertyBased
import Testing

/// The event-shaped exports (Segment calls, OpenTelemetry records) say what the screen views
/// say: a visit's record is its first view's, the time of the screen before it is that visit's
/// foreground time, the app leaving is a view ended by the background; and pulls resumed from
/// their cursors hand out each record once.
@Suite struct EventShapedExportProperties {
  /// The screen views of a store, as dictionaries by column.
  static func views(_ store: SessionStore) throws -> [[String: ExportValue]] {
    var views: [[String: ExportValue]] = []
    try store.export(.screenViews) { row in
      views.append(Dictionary(uniqueKeysWithValues: zip(ExportTable.screenViews.columns, row.values)))
    }
    return views
  }

  /// The moments of a store's export in `format`.
  static func records(
    _ store: SessionStore, _ format: ExportFormat = .otlp, filter: ExportFilter = ExportFilter()
  ) throws -> [NavigationRecord] {
    var records: [NavigationRecord] = []
    try store.export(.screenViews, format: format, filter: filter) { row in
      if let record = row.navigation { records.append(record) }
    }
    return records
  }

  static func integer(_ value: ExportValue?) -> Int64? { if case .integer(let number)? = value { number } else { nil } }
  static func text(_ value: ExportValue?) -> String? { if case .text(let text)? = value { text } else { nil } }

  @Test func recordsSayWhatTheScreenViewsSay() async throws {
    let scenarios = Generator<[[AnyEvent]], Shrink.None<[[AnyEvent]]>> { rng in
      (0..<Int.random(in: 1...3, using: &rng)).map { ScreenViewVisitProperties.session($0, using: &rng) }
    }
    await checkProperty(count: 60, input: scenarios) { sessions in
      let folder = try TemporaryFolder()
      let store = try SessionStore(path: folder.path("e.sqlite"))
      for event in sessions.flatMap({ $0 }) { try store.append(event) }
      let views = try Self.views(store)
      let records = try Self.records(store)
      for events in sessions {
        let id = events[0].session
        let own = views.filter { Self.text($0["session"]) == id.rawValue }
        let mine = records.filter { $0.session == id }
        #expect(mine.first?.kind == .sessionStart, "\(id): a session's records begin with its start")
        #expect(mine.filter { $0.kind == .sessionStart }.count == 1)
        #expect(mine.map(\.seq) == mine.map(\.seq).sorted(), "\(id): records come in the order of the history")
        // A visit's record is its first view's row, at the moment the view began.
        let firsts = own.filter { $0["view_id"] == $0["visit_id"] }
        let screens = mine.filter { $0.kind == .screen }
        #expect(screens.count == firsts.count, "\(id): one screen record per visit")
        var visitTime: [String: Int64] = [:]
        var visitOrder: [String] = []
        for view in own {
          guard let visit = Self.text(view["visit_id"]) else { continue }
          if visitTime[visit] == nil { visitOrder.append(visit) }
          visitTime[visit, default: 0] += Self.integer(view["duration_ms"]) ?? 0
        }
        for (record, view) in zip(screens, firsts) {
          #expect(record.visit?.id == Self.text(view["visit_id"]))
          #expect(record.screen?.name == Self.text(view["screen"]) && record.screen?.path == Self.text(view["path"]))
          #expect(view["entered_at"] == .time(record.at), "\(id): the record is at the visit's start")
          #expect(record.visit?.previous?.name == Self.text(view["previous_screen"]))
          #expect(record.visit?.arrival.kind.rawValue == Self.text(view["arrival"]))
          #expect(record.visit?.arrival.direction == Self.text(view["direction"]))
          #expect(record.visit?.causeAction == Self.text(view["cause_action"]))
          // The time of the screen before is the foreground time of the visit before.
          let position = visitOrder.firstIndex(of: record.visit?.id ?? "") ?? 0
          let before = position > 0 ? visitTime[visitOrder[position - 1]] : nil
          #expect(
            record.visit?.previousMilliseconds == before,
            "\(id): \(record.visit?.id ?? "") says \(String(describing: record.visit?.previousMilliseconds)) ms before, the views \(String(describing: before))"
          )
        }
        // The app leaving is a view ended by the background, with its visit's time so far.
        let leaving = own.filter { $0["ended_by"] == .text("background") }
        let backgrounds = mine.filter { $0.kind == .background }
        #expect(backgrounds.count == leaving.count, "\(id): one background record per view the background ended")
        for (record, view) in zip(backgrounds, leaving) {
          #expect(view["exited_at"] == .time(record.at))
          let visit = Self.text(view["visit_id"]) ?? ""
          let sofar = own.prefix { $0["view_id"] != view["view_id"] }.filter { Self.text($0["visit_id"]) == visit }
            .compactMap { Self.integer($0["duration_ms"]) }.reduce(0, +)
          #expect(record.visitMilliseconds == sofar + (Self.integer(view["duration_ms"]) ?? 0))
        }
        let ends = events.filter { $0.operation.name == "end" }.count
        #expect(mine.filter { $0.kind == .sessionEnd }.count == ends)
      }
      // Every line is JSON, one per record, and Segment's message ids are unique.
      for format in [ExportFormat.segment, .otlp] {
        var bytes: [UInt8] = []
        try store.exportEncoded(.screenViews, format: format) { bytes += $0 }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == records.count, "\(format)")
        let parsed = try lines.map { try JSONParser.parse(String($0)) }
        if format == .segment {
          let ids = parsed.compactMap { $0.objectValue?["messageId"]?.stringValue }
          #expect(Set(ids).count == lines.count, "every call has its own messageId")
        }
      }
    }
  }

  @Test func pullsResumedFromTheirCursorsHandOutEachRecordOnce() async throws {
    let arrivals = Generator<IncrementalExportProperties.Arrival, Shrink.None<IncrementalExportProperties.Arrival>> {
      rng in IncrementalExportProperties.arrival(using: &rng)
    }
    await checkProperty(count: 40, input: arrivals) { arrival in
      let folder = try TemporaryFolder()
      let store = try SessionStore(path: folder.path("p.sqlite"))
      var pulled: [NavigationRecord] = []
      var cursor: Int64?
      for (index, write) in arrival.writes.enumerated() {
        try store.append(contentsOf: write)
        guard arrival.pullsAfter.contains(index) || index == arrival.writes.count - 1 else { continue }
        let now = try store.exportCursor()
        #expect(now >= cursor ?? .min, "a cursor never goes back")
        pulled += try Self.records(store, filter: ExportFilter(after: cursor, through: now))
        cursor = now
      }
      let whole = try Self.records(store)
      #expect(
        Set(pulled.map(Self.key)).count == pulled.count, "no record is handed out twice")
      #expect(
        Set(pulled.map(Self.key)) == Set(whole.map(Self.key)),
        "the pulls hold every record of one export at the end")
    }
  }

  /// A call Segment would refuse as over 32 KB goes without the app's values, then with its
  /// strings cut, and says so; one that is small is whole.
  @Test func aSegmentCallStaysUnderSegmentsLimit() throws {
    let huge = String(repeating: "x", count: 40_000)
    let folder = try TemporaryFolder()
    let store = try SessionStore(path: folder.path("s.sqlite"))
    try store.append(event("big", .start(.stack(stack("R+home")))))
    var push = event("big", .push(.object([huge: .object(["note": .string(huge)])])), offset: 1)
    push.cause = .object(["typed": .string(huge)])
    try store.append(push)
    try store.append(event("big", .push(.string("small")), offset: 2))
    var bytes: [UInt8] = []
    try store.exportEncoded(.screenViews, format: .segment) { bytes += $0 }
    let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
    #expect(lines.count == 4, "the start and three visits")
    for line in lines { #expect(line.utf8.count <= SegmentCall.maximumBytes) }
    let big = try #require(lines.first { $0.contains(#""messageId":"big#2""#) })
    #expect(big.contains(#""navstore_trimmed":true"#) && big.contains("…"))
    // The next visit's previous screen is the long one: cut too. The home screen's is whole.
    #expect((lines.first { $0.contains(#""messageId":"big#3""#) } ?? "").contains("navstore_trimmed"))
    #expect(!(lines.first { $0.contains(#""messageId":"big#1""#) } ?? "x").contains("navstore_trimmed"))
  }

  /// What tells two records apart, and what a pipeline sees of them, but for the journey: a
  /// record sent before its journey moved keeps the journey it had (each moment is sent once).
  static func key(_ record: NavigationRecord) -> String {
    var record = record
    record.received = 0
    record.journey = ""
    return OTLPLogRecord.line(record)
  }
}
