import Foundation
import NavCore

/// Appends on two cores: a thread of its own prepares events (`EventPreparer`: apply, encode,
/// hash) while the writer's thread stores the ones before them, in order.
///
/// The writer submits events (`submit`), and takes back one entry per event, in the same order
/// (`next`): the prepared event, or the event as it was when the preparer left it to the writer.
/// The input stays on the writer's thread (a file, standard input, a caller's array): the
/// preparing thread only ever waits on the two queues between them, so stopping it at an error
/// is immediate. At most `capacity` chunks are out at a time, which bounds memory and means
/// neither side can wait on a full queue while the other waits on it.
final class AppendPipeline {
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

  /// What goes to the preparing thread: events to prepare, and chunks of entries the writer is
  /// done with, so that their memory is freed there and not on the writer, which has SQLite's
  /// work to do.
  private struct Outgoing: Sendable {
    var events: [(AnyEvent, Int)]
    var spent: [[Entry]]
  }

  /// Events per chunk: enough that the hand-over's lock is a small cost per event.
  static let chunkSize = 256
  /// Chunks out at a time (submitted, not yet taken back).
  private static let capacity = 4

  private let toPreparer = Handoff<Outgoing>(capacity: capacity)
  private let fromPreparer = Handoff<[Entry]>(capacity: capacity)
  private var outgoing: [(AnyEvent, Int)] = []
  private var chunksOut = 0
  private var incoming: [Entry] = []
  private var incomingPosition = 0
  private var spent: [[Entry]] = []
  private var stopped = false

  /// Starts the preparing thread. `storedHead` reads a session's head from the store's file
  /// (on a reader, on the preparing thread) for a session met in the middle of its history.
  init(
    snapshotInterval: Int, headCapacity: Int,
    storedHead: @escaping @Sendable (SessionID) -> EventPreparer.Expected?
  ) {
    outgoing.reserveCapacity(Self.chunkSize)
    let input = toPreparer
    let output = fromPreparer
    let thread = Thread {
      var preparer = EventPreparer(snapshotInterval: snapshotInterval, headCapacity: headCapacity, storedHead: storedHead)
      while let message = input.receive() {
        let entries = message.events.map { event, position in
          Entry(prepared: preparer.prepare(event), event: event, position: position)
        }
        guard output.send(entries) else { break }
      }
      output.finish()
    }
    // Decoding and applying recurse as deep as a document nests: the main thread's stack size.
    thread.stackSize = 8 << 20
    thread.name = "NavPersistence.AppendPipeline"
    thread.start()
  }

  deinit {
    stop()
  }

  /// Hands an event to the preparing thread (in chunks). When a chunk goes, the entries back by
  /// then are stored through `write` (waiting for some first when too many chunks are out).
  func submit(_ event: AnyEvent, position: Int, write: (Entry) throws(StoreError) -> Void) throws(StoreError) {
    outgoing.append((event, position))
    guard outgoing.count == Self.chunkSize else { return }
    try flush(write: write)
    while let ready = next(waiting: false) { try write(ready) }
  }

  /// Sends the events submitted since the last chunk, making room first.
  func flush(write: (Entry) throws(StoreError) -> Void) throws(StoreError) {
    guard !outgoing.isEmpty else { return }
    while chunksOut >= Self.capacity {
      guard let entry = next(waiting: true) else { return }
      try write(entry)
    }
    _ = toPreparer.send(Outgoing(events: outgoing, spent: spent))
    spent = []
    chunksOut += 1
    outgoing = []
    outgoing.reserveCapacity(Self.chunkSize)
  }

  /// The next entry in submission order; with `waiting: false`, only when one is ready.
  /// `nil` when none is out (or the thread has stopped).
  private func next(waiting: Bool) -> Entry? {
    if incomingPosition == incoming.count {
      guard chunksOut > 0 else { return nil }
      guard let chunk = waiting ? fromPreparer.receive() : fromPreparer.receiveIfReady() else { return nil }
      chunksOut -= 1
      if !incoming.isEmpty { spent.append(incoming) }
      incoming = chunk
      incomingPosition = 0
      if chunk.isEmpty { return nil }
    }
    let entry = incoming[incomingPosition]
    incomingPosition += 1
    return entry
  }

  /// Sends what is left and calls `write` with every entry still out, in order.
  func drain(write: (Entry) throws(StoreError) -> Void) throws(StoreError) {
    try flush(write: write)
    while let entry = next(waiting: true) { try write(entry) }
  }

  /// Stops the preparing thread and waits until it has, dropping what it had prepared.
  func stop() {
    guard !stopped else { return }
    stopped = true
    toPreparer.cancel()
    fromPreparer.cancel()
    fromPreparer.waitUntilFinished()
  }
}
