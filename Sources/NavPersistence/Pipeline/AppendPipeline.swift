import NavCore

/// Appends on two cores: a second thread prepares events (`EventPreparer`: apply, encode, hash)
/// while the writer's thread stores the ones before them, in order.
///
/// The writer submits events with their positions and takes back one entry per event, in the
/// same order: the prepared event, or the event as it was when the preparer left it to the
/// writer. The input stays on the writer's thread (a file, standard input, a caller's array).
enum AppendPipeline {
  /// One event back from the preparing thread. A class, so that handing it along the writer's
  /// calls is one reference count, not one per array and string it holds.
  final class Entry: Sendable {
    /// The event prepared, or `nil` when the writer appends it itself.
    let prepared: PreparedEvent?
    /// The event as submitted.
    let event: AnyEvent
    /// Its position as the caller counts (a line number, an index from 1).
    let position: Int

    init(prepared: PreparedEvent?, event: AnyEvent, position: Int) {
      self.prepared = prepared
      self.event = event
      self.position = position
    }
  }

  /// An event and its position (a line number, an index from 1).
  typealias Submission = (event: AnyEvent, position: Int)

  /// Events per chunk: enough that the hand-over's lock is a small cost per event. A batch
  /// shorter than this is appended on the writer's thread alone.
  static let chunkSize = 256

  /// Events the writer appends itself at the start of each run (a batch, an import's
  /// transaction) while the preparer, which starts from nothing, gets ahead.
  static let servedFirst = 64

  /// Starts a pipeline preparing events with snapshots every `snapshotInterval` events,
  /// remembering up to `headCapacity` sessions; `storedHead` reads a session's head from the
  /// store's file (on a reader, on the preparing thread) for a session met in the middle of
  /// its history.
  static func start(
    snapshotInterval: Int, headCapacity: Int, storedHead: @escaping @Sendable (SessionID) -> EventPreparer.Expected?
  ) -> OrderedPipeline<Submission, Entry> {
    // The writer serves the first events of each run itself, the sequential way, while the
    // preparer gets ahead (it prepares them too, for the heads after them).
    OrderedPipeline(
      name: "NavPersistence.AppendPipeline", chunkSize: chunkSize,
      selfService: .init(firstItems: servedFirst) { Entry(prepared: nil, event: $0.event, position: $0.position) }
    ) {
      var preparer = EventPreparer(
        snapshotInterval: snapshotInterval, headCapacity: headCapacity, storedHead: storedHead)
      return { submission in
        Entry(prepared: preparer.prepare(submission.event), event: submission.event, position: submission.position)
      }
    }
  }
}
