import Foundation
import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
@_spi(Internals) import NavTools
import Testing

/// `exportEncoded`, which `navstore export` writes through, gives exactly the bytes of
/// `export` rows encoded by `ExportEncoding`, for every table and format, including the events
/// CSV written straight from SQLite's column bytes, on awkward data.
@Suite struct ExportEncodedTests {
  let folder: TemporaryFolder
  init() throws { folder = try TemporaryFolder() }

  /// Rows one by one, the general way.
  static func rowByRow(_ store: SessionStore, _ table: ExportTable, _ format: ExportFormat, _ filter: ExportFilter)
    throws -> [UInt8]
  {
    var bytes = Array((ExportEncoding.header(table, format: format) ?? "").utf8)
    try store.export(table, format: format, filter: filter) { row in
      ExportEncoding.append(row, table: table, format: format, to: &bytes)
    }
    return bytes
  }

  static func encoded(_ store: SessionStore, _ table: ExportTable, _ format: ExportFormat, _ filter: ExportFilter)
    throws -> [UInt8]
  {
    var bytes: [UInt8] = []
    var chunks = 0
    try store.exportEncoded(table, format: format, filter: filter) { chunk in
      bytes += chunk
      chunks += 1
    }
    #expect(chunks >= 1)
    return bytes
  }

  /// Sessions whose ids, screens and causes hold commas, quotes, line breaks and non-ASCII
  /// text, random trees with paths, and enough events to fill several chunks.
  func awkwardStore() throws -> SessionStore {
    let store = try SessionStore(path: folder.path("s.sqlite"))
    var rng = SystemRandomNumberGenerator()
    for (index, id) in ["plain", "with,comma", "with \"quote\"", "é-accent", "z"].enumerated() {
      var session = RandomSession.make(id: id, using: &rng, length: 300)
      for position in session.events.indices where position % 7 == 3 {
        session.events[position].cause = ["tapped": "a,b \"c\"\nd", "row": .number(Double(position))]
        session.events[position].origin = .user
      }
      try store.append(contentsOf: session.events)
      let odd: JSONValue = ["name": "odd, \"name\"\r\n", "id": .number(Double(index))]
      try store.append(event("\(id)+odd", .start(.stack([.root(odd, withNavigation: true)])), offset: Int64(index)))
      try store.append(event("\(id)+odd", .push(["ünï,code": [:]]), offset: Int64(1_000 + index)))
    }
    return store
  }

  @Test func everyTableAndFormatMatchesTheRowsEncodedOneByOne() throws {
    let store = try awkwardStore()
    let filters = [
      ExportFilter(), ExportFilter(session: sessionID("with,comma")),
      ExportFilter(since: Timestamp(millisecondsSince1970: 1_795_000_000_150)),
    ]
    for table in ExportTable.allCases {
      for format in ExportFormat.allCases where format.writes(table) {
        for filter in filters {
          let expected = try Self.rowByRow(store, table, format, filter)
          #expect(try Self.encoded(store, table, format, filter) == expected, "\(table) \(format) \(filter)")
        }
      }
    }
    // The events CSV is big enough here to be handed over in several chunks.
    var chunks = 0
    try store.exportEncoded(.events, format: .csv) { _ in chunks += 1 }
    #expect(chunks > 1)
  }

  @Test func damagedStoredTextIsWrittenAsTheGeneralWayWritesIt() throws {
    let path = folder.path("s.sqlite")
    let store = try SessionStore(path: path)
    try store.append(event("s", .start(.stack([.root("home", withNavigation: true)]))))
    // Inserting is allowed by the triggers: rows a hand edit could leave, with a cause of
    // invalid UTF-8 and a hash of the wrong size. The cause is carried as stored.
    let connection = try SQLiteConnection(path: path, mode: .readWrite(create: false))
    try connection.execute(
      """
      INSERT INTO events (session_id, seq, at, origin, op, cause, hash) VALUES ('s', 2, 5, 'app', '{"op":"pop"}', CAST(X'C328' AS TEXT), zeroblob(32));
      """)
    let expected = try Self.rowByRow(store, .events, .csv, ExportFilter())
    #expect(try Self.encoded(store, .events, .csv, ExportFilter()) == expected)
    #expect(
      String(decoding: expected, as: UTF8.self).contains(
        "s,2,1970-01-01T00:00:00.005Z,app,pop,,[],\"{\"\"op\"\":\"\"pop\"\"}\",\u{FFFD}("))
  }

  /// An operation the codec cannot read (not JSON, or invalid UTF-8) has no name, screen or
  /// path to give: both ways refuse the export, naming the session and seq, rather than writing
  /// empty columns.
  @Test(arguments: ["CAST(X'7B226F70223A2270C3FF227D' AS TEXT)", "'not json, \"at all\"'", "'{\"op\":\"teleport\"}'"])
  func anUnreadableStoredOperationIsRefusedBothWays(_ operation: String) throws {
    let path = folder.path("s.sqlite")
    let store = try SessionStore(path: path)
    try store.append(event("s", .start(.stack([.root("home", withNavigation: true)]))))
    let connection = try SQLiteConnection(path: path, mode: .readWrite(create: false))
    try connection.execute(
      "INSERT INTO events (session_id, seq, at, origin, op, cause, hash) VALUES ('s', 2, 5, 'app', \(operation), NULL, zeroblob(32));"
    )
    for export in [
      { _ = try Self.rowByRow(store, .events, .csv, ExportFilter()) },
      { _ = try Self.encoded(store, .events, .csv, ExportFilter()) },
    ] {
      do {
        try export()
        Issue.record("an unreadable operation was exported")
      } catch let StoreError.unreadableHistory(session, seq, _) {
        #expect(session == sessionID("s"))
        #expect(seq == 2)
      }
    }
  }

  /// The exact text, written down, so the two ways cannot drift together.
  @Test func theEventsCSVIsExactlyAsWritten() throws {
    let store = try SessionStore(path: folder.path("s.sqlite"))
    try store.append(event("a,\"b\"", .start(.stack([.root(["name": "x, y", "id": 1], withNavigation: true)]))))
    var pushed = event("a,\"b\"", .push(["numberDetail": ["number": 3]], at: []), offset: 1_250, origin: .user)
    pushed.cause = ["tap": "row\n1"]
    try store.append(pushed)
    let hashes = try store.history(of: sessionID("a,\"b\"")).compactMap(\.hash)
    let text = String(decoding: try Self.encoded(store, .events, .csv, ExportFilter()), as: UTF8.self)
    let expected = [
      "session,seq,occurred_at,origin,op,screen,path,operation,cause,hash,clock_went_back,received",
      #""a,""b""",1,2026-11-18T11:06:40.000Z,app,start,,[],"{""op"":""start"",""state"":{""routes"":[{""screen"":{""id"":1,""name"":""x, y""},""style"":""root"",""withNavigation"":true}]}}",,"#
        + hashes[0] + ",false,2",  // each append its own write, from number 2 on
      // The cause's line break is escaped in its JSON, so the field needs no line break.
      #""a,""b""",2,2026-11-18T11:06:41.250Z,user,push,numberDetail,[],"{""op"":""push"",""screen"":{""numberDetail"":{""number"":3}}}","{""tap"":""row\n1""}","#
        + hashes[1] + ",false,3",
      "",
    ].joined(separator: "\r\n")
    #expect(text == expected)
  }

  /// A hand edit can leave an empty session id, which sorts first: it is refused, as reading
  /// the rows one by one refuses it, not written as an empty field.
  @Test func anEmptyStoredSessionIDIsRefused() throws {
    let path = folder.path("s.sqlite")
    let store = try SessionStore(path: path)
    try store.append(event("s", .start(.stack([.root("home")]))))
    let connection = try SQLiteConnection(path: path, mode: .readWrite(create: false))
    try connection.execute(
      """
      INSERT INTO sessions (id) VALUES ('');
      INSERT INTO events (session_id, seq, at, origin, op, cause, hash) VALUES ('', 1, 0, 'app', '{"op":"pop"}', NULL, zeroblob(32));
      """)
    #expect(throws: StoreError.self) { try Self.rowByRow(store, .events, .csv, ExportFilter()) }
    var written = 0
    #expect(throws: StoreError.self) { try store.exportEncoded(.events, format: .csv) { written += $0.count } }
    #expect(written == 0)
  }

  @Test func anUnknownSessionIsRefusedBeforeAnythingIsWritten() throws {
    let store = try awkwardStore()
    var written = 0
    #expect(throws: StoreError.self) {
      try store.exportEncoded(.events, format: .csv, filter: ExportFilter(session: sessionID("nobody"))) {
        written += $0.count
      }
    }
    #expect(written == 0)
  }

  /// The CSV is written on a second thread while this one reads on: an unwritable row deep in
  /// the export (several chunks in) is still the error reported when a later row fails sooner
  /// on the reading side (an id with a control character), and what reached the output is a
  /// prefix of the export, in order.
  @Test func theFirstBadRowIsTheErrorEvenWhenALaterOneFailsSooner() throws {
    let path = folder.path("s.sqlite")
    let store = try SessionStore(path: path)
    var rng = SeededRandom(seed: 17)
    try store.append(contentsOf: RandomSession.make(id: "a", using: &rng, length: 2_000).events)
    let complete = try Self.encoded(store, .events, .csv, ExportFilter())
    let connection = try SQLiteConnection(path: path, mode: .readWrite(create: false))
    try connection.execute(
      """
      INSERT INTO events (session_id, seq, at, origin, op, cause, hash) VALUES ('a', 2001, 5, 'app', '{"op":"teleport"}', NULL, zeroblob(32));
      INSERT INTO sessions (id) VALUES ('b' || char(7));
      INSERT INTO events (session_id, seq, at, origin, op, cause, hash) VALUES ('b' || char(7), 1, 0, 'app', '{"op":"pop"}', NULL, zeroblob(32));
      """)
    var written: [UInt8] = []
    do {
      try store.exportEncoded(.events, format: .csv) { written += $0 }
      Issue.record("the export went through")
    } catch let StoreError.unreadableHistory(session, seq, _) {
      #expect(session == sessionID("a"))
      #expect(seq == 2001)
    }
    #expect(!written.isEmpty && complete.starts(with: written), "the output is not a prefix of the export")
  }

  /// Every page of an export, read one after another as the collector reads them, joined.
  static func paged(
    _ store: SessionStore, _ table: ExportTable, _ format: ExportFormat, _ filter: ExportFilter, bytes: Int
  ) throws -> (bytes: [UInt8], pages: Int) {
    var export = ExportProgress(table, format: format, filter: filter)
    var joined: [UInt8] = []
    var pages = 0
    while !export.finished {
      joined += try store.exportPage(&export, bytes: bytes)
      pages += 1
    }
    return (joined, pages)
  }

  @Test func pagesOfEveryTableAndFormatJoinToTheWholeExport() throws {
    let store = try awkwardStore()
    let filters = [
      ExportFilter(), ExportFilter(session: sessionID("with,comma")),
      ExportFilter(since: Timestamp(millisecondsSince1970: 1_795_000_000_150)),
      ExportFilter(omitsPayloads: true),
    ]
    for table in ExportTable.allCases {
      for format in ExportFormat.allCases where format.writes(table) {
        for filter in filters where !(filter.omitsPayloads && table == .events && format == .jsonl) {
          let whole = try Self.encoded(store, table, format, filter)
          // A page of one byte holds one stored row's text (or a replayed event's rows).
          for bytes in [1, 700, ExportPages.pageBytes] {
            let (joined, pages) = try Self.paged(store, table, format, filter, bytes: bytes)
            #expect(joined == whole, "\(table) \(format) \(filter) in pages of \(bytes) bytes")
            if bytes == 1, table == .events, filter == ExportFilter() { #expect(pages > 1_000) }
          }
        }
      }
    }
  }

  @Test func theAsyncPagesAreTheExportsBytesAndSkipPagesTheFilterEmptied() async throws {
    let store = try SessionStore(path: folder.path("many.sqlite"))
    // More stored rows (7,500) than a page reads (4,096), and a filter that keeps only one
    // session's: the pages that read none of it hold nothing and are not handed out.
    for index in 0..<30 {
      var events = [event("s\(index)", .start(.stack([.root("home", withNavigation: true)])), offset: Int64(index))]
      for step in 0..<249 {
        events.append(event("s\(index)", step.isMultiple(of: 2) ? .push("next") : .pop(), offset: Int64(index)))
      }
      try await store.append(contentsOf: events)
    }
    for filter in [ExportFilter(), ExportFilter(session: sessionID("s9"))] {
      var pages: [[UInt8]] = []
      for try await page in store.exportPages(.events, format: .csv, filter: filter, bytes: 4096) { pages.append(page) }
      #expect(pages.allSatisfy { !$0.isEmpty })
      #expect(pages.flatMap { $0 } == (try Self.encoded(store, .events, .csv, filter)), "\(filter)")
    }
  }

  @Test func eventsStoredBetweenPagesLeaveEachSessionAWholePrefixOfItsHistory() throws {
    let store = try SessionStore(path: folder.path("growing.sqlite"))
    for id in ["a", "b", "c"] {
      try store.append(contentsOf: [
        event(id, .start(.stack([.root("home", withNavigation: true)]))), event(id, .push("x"), offset: 1),
        event(id, .pop(), offset: 2),
      ])
    }
    var export = ExportProgress(.events, format: .jsonl, filter: ExportFilter())
    var joined: [UInt8] = []
    var grown = 0
    while !export.finished {
      joined += try store.exportPage(&export, bytes: 1)
      // Every session grows after each of the first pages, those already read and those to come.
      guard grown < 6 else { continue }
      for id in ["a", "b", "c"] {
        try store.append(event(id, grown.isMultiple(of: 2) ? .push("y") : .pop(), offset: Int64(10 + grown)))
      }
      grown += 1
    }
    var seqs: [String: [Int]] = [:]
    for line in String(decoding: joined, as: UTF8.self).split(separator: "\n") {
      let event = try WireFormat.decode(AnyEvent.self, from: Array(line.utf8))
      seqs[event.session.rawValue, default: []].append(event.seq ?? 0)
    }
    #expect(Set(seqs.keys) == ["a", "b", "c"])
    for (id, list) in seqs {
      #expect(list == Array(1...list.count), "session \(id) is a whole prefix: \(list)")
    }
    // A page of one row a time grew each session before the export had passed it: every
    // session has all nine of its events (three, then six stored between pages).
    #expect(seqs.values.allSatisfy { $0.count == 9 }, "\(seqs)")
  }
}
