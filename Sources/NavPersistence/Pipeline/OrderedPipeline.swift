import Foundation

/// Work split over two cores, in order: the calling thread submits items, a thread of the
/// pipeline's own turns each into a result, and the calling thread takes the results back in
/// the order it submitted the items.
///
/// What must stay on the calling thread stays there: the store's connection, the caller's
/// input and output, the caller's closures. The second thread only ever waits on the two queues
/// between them, so stopping it (at an error, or when the work is done) is immediate. Items go
/// in chunks, so the queues' lock is a small cost per item; at most `capacity` chunks are out
/// at a time, which bounds memory and means neither side can wait on a full queue while the
/// other waits on it.
package final class OrderedPipeline<Item: Sendable, Result: Sendable> {
  /// What goes to the second thread: items, and chunks of results the caller is done with, so
  /// that their memory is freed there and not on the calling thread.
  private struct Outgoing: Sendable {
    var items: [Item]
    var spent: [[Result]]
  }

  /// How the calling thread starts each run (see `init`).
  package struct SelfService {
    /// How many items the calling thread serves itself at the start of each run.
    package var firstItems: Int
    /// The result the second thread would give for an item, computed on the calling thread.
    package var serve: (Item) -> Result
  }

  /// Chunks out at a time (submitted, not yet taken back).
  private static var capacity: Int { 4 }

  private let chunkSize: Int
  private let selfService: SelfService?
  private let toWorker = Handoff<Outgoing>(capacity: capacity)
  private let fromWorker = Handoff<[Result]>(capacity: capacity)
  private var outgoing: [Item] = []
  private var chunksOut = 0
  private var incoming: [Result] = []
  private var incomingPosition = 0
  private var spent: [[Result]] = []
  private var stopped = false
  /// Items sent, and items whose results were handed to the caller (served or received).
  private var sent = 0
  private var handed = 0
  /// The items sent, from `handed` on, kept for serving them here (with `selfService` only).
  private var pending: [Item] = []
  private var pendingHead = 0
  /// Items the calling thread may still serve itself in this run.
  private var toServe = 0
  /// Results still to come for items the calling thread served: dropped on arrival.
  private var toDrop = 0

  /// Starts the second thread, named `name`. It calls `makeWork` once, and the function it
  /// returns with each item in order: that function may keep state of its own, which lives on
  /// the second thread alone.
  ///
  /// With `selfService`, the calling thread serves the first `firstItems` of each run (from
  /// the start, and after each `drain`) itself, as soon as the first chunk is out, and drops
  /// the second thread's results for them when they come: the second thread starts from
  /// nothing, and without this the calling thread would wait for its first chunk at every
  /// run's start. The same items are served whatever the timing, so the work done, and so an
  /// instruction count, is repeatable.
  package init(
    name: String, chunkSize: Int, selfService: SelfService? = nil,
    makeWork: @escaping @Sendable () -> (Item) -> Result
  ) {
    self.chunkSize = max(1, chunkSize)
    self.selfService = selfService
    toServe = selfService?.firstItems ?? 0
    outgoing.reserveCapacity(self.chunkSize)
    let input = toWorker
    let output = fromWorker
    let thread = Thread {
      let work = makeWork()
      while let message = input.receive() {
        guard output.send(message.items.map(work)) else { break }
      }
      output.finish()
    }
    // Decoding and applying recurse as deep as a document nests: the main thread's stack size.
    thread.stackSize = 8 << 20
    thread.name = name
    thread.start()
  }

  deinit {
    stop()
  }

  /// Hands an item to the second thread (in chunks). When a chunk goes, the results back by
  /// then are handed to `take` (after waiting for some when too many chunks are out).
  package func submit(_ item: Item, take: (Result) throws(StoreError) -> Void) throws(StoreError) {
    outgoing.append(item)
    guard outgoing.count == chunkSize else { return }
    try flush(take: take)
    while let ready = next(waiting: false) { try take(ready) }
  }

  /// Sends what is left and hands every result still due to `take`, in order. The next items
  /// begin a new run.
  package func drain(take: (Result) throws(StoreError) -> Void) throws(StoreError) {
    try flush(take: take)
    while let result = next(waiting: true) { try take(result) }
    toServe = selfService?.firstItems ?? 0
  }

  /// Stops the second thread and waits until it has, dropping what it had done.
  package func stop() {
    guard !stopped else { return }
    stopped = true
    toWorker.cancel()
    fromWorker.cancel()
    fromWorker.waitUntilFinished()
  }

  /// Sends the items submitted since the last chunk, making room first.
  private func flush(take: (Result) throws(StoreError) -> Void) throws(StoreError) {
    guard !outgoing.isEmpty else { return }
    while chunksOut >= Self.capacity {
      if let result = next(waiting: true) {
        try take(result)
      } else if !receiveChunk(waiting: true) {
        return  // the second thread stopped
      }
    }
    if selfService != nil {
      if pendingHead > 4 * chunkSize {
        pending.removeFirst(pendingHead)
        pendingHead = 0
      }
      pending.append(contentsOf: outgoing)
    }
    sent += outgoing.count
    _ = toWorker.send(Outgoing(items: outgoing, spent: spent))
    spent = []
    chunksOut += 1
    outgoing = []
    outgoing.reserveCapacity(chunkSize)
  }

  /// The next result in submission order; with `waiting: false`, only when one is ready.
  /// `nil` when every item sent has had its result handed out (or the thread has stopped).
  private func next(waiting: Bool) -> Result? {
    while true {
      if incomingPosition < incoming.count {
        let result = incoming[incomingPosition]
        incomingPosition += 1
        if toDrop > 0 {
          toDrop -= 1
          continue
        }
        handed += 1
        pendingHead += selfService == nil ? 0 : 1
        return result
      }
      guard handed < sent else { return nil }
      if toServe > 0, let selfService {
        let item = pending[pendingHead]
        pendingHead += 1
        handed += 1
        toServe -= 1
        toDrop += 1
        return selfService.serve(item)
      }
      guard receiveChunk(waiting: waiting) else { return nil }
    }
  }

  /// Takes the next chunk of results in, waiting for it or not; `false` when there is none.
  private func receiveChunk(waiting: Bool) -> Bool {
    guard chunksOut > 0, let chunk = waiting ? fromWorker.receive() : fromWorker.receiveIfReady() else { return false }
    chunksOut -= 1
    if !incoming.isEmpty { spent.append(incoming) }
    incoming = chunk
    incomingPosition = 0
    return true
  }
}
