import Foundation
@_spi(Internals) import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
import Testing

/// The library describes what happened in its own terms: an app shows or logs these, so none
/// names a command, an option or an environment variable of the command line (which words its
/// own advice on top).
@Suite struct StoreErrorWordingTests {
  /// One error of every case: the switch stops compiling when a case is added, so the new one
  /// gets a sample here too.
  static let samples: [StoreError] = {
    let session = sessionID("s")
    let sqlite = SQLiteError(extendedCode: 1034, message: "disk I/O error", sql: "COMMIT")
    let wire = WireFormatError(field: "op", message: "missing field \"kind\"")
    let all: [StoreError] = [
      .storeMissing(path: "/a/nav.sqlite"), .folderMissing(path: "/a/nav.sqlite"), .notADatabase(path: "/a/x"),
      .damaged(path: "/a/x"), .notAStore(path: "/a/x"), .walMissing(path: "/a/x"),
      .newerSchema(path: "/a/x", found: 9, supported: 5),
      .olderSchema(path: "/a/x", found: 1, supported: 5), .readOnly(path: "/a/x"),
      .destinationExists(path: "/a/copy.sqlite"), .unknownSession(session),
      .seqBeyondHistory(session: session, seq: 9, last: 3),
      .rejected(session: session, seq: 2, NavigationError(operation: "start", path: .top, reason: .alreadyStarted)),
      .conflict(session: session, expected: 9, actual: 3), .conflict(session: session, expected: 2, actual: 3),
      .conflict(session: session, expected: 9, actual: 1),
      .cannotRecord(session: session, .topCoordinatorKindChanged(from: .stack, to: .tabs)),
      .hashMismatch(
        session: session, seq: 2, claimed: String(repeating: "a", count: 64),
        computed: String(repeating: "b", count: 64)),
      .stateMismatch(session: session, seq: 2),
      .cannotRestore(
        session: session, seq: 2,
        .nothingRestorable(DroppedRoute(path: .top, index: 0, screenName: "home", removedRouteCount: 1, error: wire))),
      .invalidLine(line: 3, wire),
      .lineFailed(
        line: 3,
        .rejected(session: session, seq: 4, NavigationError(operation: "start", path: .top, reason: .alreadyStarted))),
      .unreadableInput(.lineTooLong(line: 2, limit: 10)), .unreadableInput(.unreadable(reason: "Is a directory")),
      .unencodable(wire), .unstorableScreen(screen: "Screen.editor", wire),
      .lossyScreen(screen: "Screen.editor", field: "document"), .causeNotEncodable(wire),
      .unreadableHistory(session: session, seq: 2, .noStartEvent),
      .unreadableSessionID(stored: "a b"), .diskFull(sqlite), .busy(sqlite), .diskFailed(path: "/a/x", sqlite),
      .caller(CallerError(CocoaError(.fileNoSuchFile))), .checkpoint(.identityMissing), .payloadsInWireFormat,
      .forgottenSession(session, at: Timestamp(millisecondsSince1970: 0)), .reentrantWrite, .sqlite(sqlite),
    ]
    for error in all {
      switch error {
      case .storeMissing, .folderMissing, .notADatabase, .damaged, .notAStore, .walMissing, .newerSchema, .olderSchema,
        .readOnly,
        .destinationExists,
        .unknownSession, .seqBeyondHistory, .rejected, .conflict, .cannotRecord, .hashMismatch, .stateMismatch,
        .cannotRestore, .invalidLine, .lineFailed, .unreadableInput, .unencodable, .unstorableScreen, .lossyScreen,
        .causeNotEncodable,
        .unreadableHistory,
        .unreadableSessionID, .diskFull, .busy, .diskFailed, .caller, .checkpoint, .payloadsInWireFormat,
        .forgottenSession, .reentrantWrite, .sqlite:
        break
      }
    }
    return all
  }()

  @Test(arguments: samples)
  func noDescriptionNamesACommandAnOptionOrAVariable(_ error: StoreError) {
    let text = error.description
    #expect(!text.contains("navstore "), "\(text)")
    #expect(!text.contains("'navstore"), "\(text)")
    #expect(!text.contains(" --"), "\(text)")
    #expect(!text.contains("NAVSTORE_"), "\(text)")
    #expect(!text.isEmpty)
  }

  /// The rules' failures (`HistoryError`) are the store's cases of the same name, both ways and
  /// in the same words: an app that matches `.conflict` meets what the rules threw, and the
  /// collector, which reads the rules' part of either engine's error, meets the same.
  @Test(arguments: samples)
  func theRulesFailuresAreTheStoresCasesOfTheSameName(_ error: StoreError) {
    guard let history = error.history else {
      #expect(!Self.rulesCases.contains(Self.caseName(error)), "\(error)")
      return
    }
    #expect(Self.rulesCases.contains(Self.caseName(error)), "\(error)")
    #expect(StoreError(history) == error)
    #expect(history.description == error.description)
    #expect(StoreError(history).history == history)
  }

  /// The store's cases that carry a rule's failure.
  static let rulesCases: Set<String> = [
    "unknownSession", "seqBeyondHistory", "rejected", "conflict", "hashMismatch", "unencodable", "unreadableHistory",
    "unreadableSessionID", "checkpoint", "payloadsInWireFormat", "forgottenSession", "caller",
  ]

  static func caseName(_ error: StoreError) -> String {
    switch error {
    case .payloadsInWireFormat: "payloadsInWireFormat"
    case .reentrantWrite: "reentrantWrite"
    default: Mirror(reflecting: error).children.first?.label ?? ""
    }
  }

  @Test(arguments: VerificationProblemSamples.all)
  func verificationProblemsAreWordedToo(_ problem: VerificationProblem) {
    #expect(!problem.description.contains("navstore"))
    #expect(!problem.description.isEmpty)
  }
}

enum VerificationProblemSamples {
  static let all: [VerificationProblem] = [
    .missingEvent(seq: 4, nextStored: 5), .unreadableEvent, .unhashableEvent, .hashMismatch, .operationDoesNotApply,
    .snapshotDiffers, .sessionRowMissing, .eventCountDiffers(recorded: 3, stored: 2), .headHashDiffers,
    .restoredFromDiffers, .contextDiffers, .launchDiffers, .clockColumnsDiffer, .timeColumnsDiffer, .depthDiffers,
    .orphanSnapshot,
  ]
}
