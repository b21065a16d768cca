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
final class OrderedPipeline<Item: Sendable, Result: Sendable> {
  /// What goes to the second thread: items, and chunks of results the caller is done with, so
  /// that their memory is freed there and not on the calling thread.
  private struct Outgoing: Sendable {
    var items: [Item]
    var spent: [[Result]]
  }

  /// Chunks out at a time (submitted, not yet taken back).
  private static var capacity: Int { 4 }

  private let chunkSize: Int
  private let toWorker = Handoff<Outgoing>(capacity: capacity)
  private let fromWorker = Handoff<[Result]>(capacity: capacity)
  private var outgoing: [Item] = []
  private var chunksOut = 0
  private var incoming: [Result] = []
  private var incomingPosition = 0
  private var spent: [[Result]] = []
  private var stopped = false
  /// The calling thread's own way to turn an item into its result (see `init`).
  private let selfServe: ((Item) -> Result)?
  /// Items sent whose results have not been handed to the caller, from `pendingHead` on.
  private var pending: [Item] = []
  private var pendingHead = 0
  /// Results still to come for items the calling thread served itself: dropped on arrival.
  private var toDrop = 0

  /// Starts the second thread, named `name`. It calls `makeWork` once, and the function it
  /// returns with each item in order: that function may keep state of its own, which lives on
  /// the second thread alone.
  ///
  /// `selfServe`, when given, gives the same result as the second thread would, on the calling
  /// thread: when the calling thread would otherwise wait for the next result (at the start,
  /// before the second thread is ahead), it serves the next item itself, and the second
  /// thread's result for it is dropped when it comes.
  init(
    name: String, chunkSize: Int, selfServe: ((Item) -> Result)? = nil,
    makeWork: @escaping @Sendable () -> (Item) -> Result
  ) {
    self.chunkSize = max(1, chunkSize)
    self.selfServe = selfServe
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
  func submit(_ item: Item, take: (Result) throws(StoreError) -> Void) throws(StoreError) {
    outgoing.append(item)
    guard outgoing.count == chunkSize else { return }
    try flush(take: take)
    while let ready = next(waiting: false) { try take(ready) }
  }

  /// Sends what is left and hands every result still out to `take`, in order.
  func drain(take: (Result) throws(StoreError) -> Void) throws(StoreError) {
    try flush(take: take)
    while let result = next(waiting: true) { try take(result) }
  }

  /// Stops the second thread and waits until it has, dropping what it had done.
  func stop() {
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
      guard let result = next(waiting: true) else { return }
      try take(result)
    }
    if selfServe != nil {
      if pendingHead > 4 * chunkSize {
        pending.removeFirst(pendingHead)
        pendingHead = 0
      }
      pending.append(contentsOf: outgoing)
    }
    _ = toWorker.send(Outgoing(items: outgoing, spent: spent))
    spent = []
    chunksOut += 1
    outgoing = []
    outgoing.reserveCapacity(chunkSize)
  }

  /// The next result in submission order; with `waiting: false`, only when one is ready.
  /// `nil` when none is out (or the thread has stopped).
  private func next(waiting: Bool) -> Result? {
    while true {
      if incomingPosition < incoming.count {
        let result = incoming[incomingPosition]
        incomingPosition += 1
        if toDrop > 0 {
          toDrop -= 1
          continue
        }
        pendingHead += 1
        return result
      }
      guard chunksOut > 0 else { return nil }
      var chunk = fromWorker.receiveIfReady()
      if chunk == nil {
        guard waiting else { return nil }
        if let selfServe, pendingHead < pending.count {
          let item = pending[pendingHead]
          pendingHead += 1
          toDrop += 1
          return selfServe(item)
        }
        chunk = fromWorker.receive()
      }
      guard let chunk else { return nil }  // the thread stopped
      chunksOut -= 1
      if !incoming.isEmpty { spent.append(incoming) }
      incoming = chunk
      incomingPosition = 0
    }
  }
}
