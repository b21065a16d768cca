import FuzzSupport
import NavContract
@_spi(Internals) import NavCore
import NavFleet
import NavIngest
import NavPersistence
import NavUpload

/// An upload's body as the collector reads it, and its lines' outcomes as the collector decides
/// them, against properties that must hold whatever the bytes:
/// - the body read in pieces of any size gives the lines it gives read whole, and a gzip of it
///   (as a device sends it) gives the same lines;
/// - what is read keeps the limits: no line over its bytes, no more lines than allowed, no
///   newline inside a line; and the lines are the body's, each followed in it by its end (LF or
///   CRLF; the last may end with a lone CR, or nothing);
/// - each non-blank line has one outcome, in order; only accepted lines are stored (a rejected
///   line writes nothing); every session the upload leaves verifies, and the head the answer
///   gives is the session's stored length; sent again, it stores exactly the lines its second
///   answer says it accepted;
/// - every state stored is within the wire format's tree limits (deep trees are in the corpus:
///   flows nested to the limit, screens nested to what a reader takes), and reads back from its
///   own canonical text.
///
/// The input's first byte chooses how the body is read (bit 0: the bytes are the gzip stream
/// itself; else plain, and gzip'd here for the round trip), its second the size of the pieces.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzUpload(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  guard bytes.count >= 2 else { return 0 }
  let (flags, piece, body) = (bytes[0], Int(bytes[1]) + 1, Array(bytes.dropFirst(2)))
  let limits = UploadLimits(lineBytes: 4_096, requestLines: 48, requestBytes: 16_384)

  let gzipStream = flags & 1 == 1
  let whole = read(body, gzip: gzipStream, limits: limits, piece: body.count + 1)
  let pieces = read(body, gzip: gzipStream, limits: limits, piece: piece)
  guard whole == pieces else { violated("read in pieces of \(piece), the body gives other lines") }
  if !gzipStream, let compressed = try? Gzip.compress(body) {
    let inflated = read(compressed, gzip: true, limits: limits, piece: piece)
    guard inflated == whole else { violated("the gzip of a body gives other lines than the body") }
  }
  guard let lines = whole else { return 0 }
  for line in lines {
    guard line.count <= limits.lineBytes else { violated("a line over the line limit was read") }
    guard !line.contains(UInt8(ascii: "\n")) else { violated("a line holds a newline") }
  }
  if !gzipStream, !reassembles(lines, into: body) { violated("the lines and their ends are not the body") }
  guard lines.count <= limits.requestLines else { violated("more lines than the limit were read") }
  guard lines.reduce(0, { $0 + $1.count }) <= limits.requestBytes else {
    violated("more bytes than the limit were read")
  }
  checkOutcomes(lines.map { $0[...] })
  return 0
}

/// `body` through the collector's own reader (`UploadBody`, inflating when `gzip`), `piece`
/// bytes at a time: the lines, or nil when the read was refused.
private func read(_ body: [UInt8], gzip: Bool, limits: UploadLimits, piece: Int) -> [[UInt8]]? {
  do {
    // Small windows, so that the inflater hands out many of them.
    var reader = try UploadBody(limits: limits, gzip: gzip, windowBytes: 256)
    for start in stride(from: 0, to: body.count, by: piece) {
      try body[start..<min(start + piece, body.count)].withUnsafeBytes { try reader.take($0) }
    }
    return try reader.finish().map(Array.init)
  } catch {
    return nil
  }
}

/// Whether `body` is `lines` one after another, each followed by LF or CRLF, the last also by a
/// lone CR or nothing, with nothing left over but the empty lines a body's end does not count.
private func reassembles(_ lines: [[UInt8]], into body: [UInt8]) -> Bool {
  let (cr, lf) = (UInt8(ascii: "\r"), UInt8(ascii: "\n"))
  var position = 0
  for (index, line) in lines.enumerated() {
    guard body.count - position >= line.count, body[position..<position + line.count].elementsEqual(line) else {
      return false
    }
    position += line.count
    let isLast = index == lines.count - 1
    if position < body.count, body[position] == lf {
      position += 1
    } else if position + 1 < body.count, body[position] == cr, body[position + 1] == lf {
      position += 2
    } else if isLast, position + 1 == body.count, body[position] == cr {
      position += 1
    } else if !(isLast && position == body.count) {
      return false
    }
  }
  return position == body.count
}

/// The lines ingested twice into an empty store, with the outcomes' properties.
private func checkOutcomes(_ lines: [ArraySlice<UInt8>]) {
  let store: SessionStore
  do {
    store = try SessionStore(path: ":memory:")
  } catch {
    violated("cannot open an in-memory store: \(error)")
  }
  var storedBefore = 0
  for round in 1...2 {
    let outcome: UploadOutcome
    do {
      outcome = try store.ingest(lines)
    } catch {
      // Only a store that cannot write may throw, and an in-memory store always can.
      violated("round \(round): ingest threw \(error)")
    }
    let numbers = outcome.lines.map(\.number)
    guard numbers == numbers.sorted(), Set(numbers).count == numbers.count,
      numbers.allSatisfy({ (1...lines.count).contains($0) })
    else { violated("round \(round): outcomes are not one per line, in order") }
    guard let results = try? store.verify() else { violated("round \(round): the store cannot be verified") }
    guard results.allSatisfy({ $0.failure == nil }) else { violated("round \(round): a session does not verify") }
    let stored = results.reduce(0) { $0 + $1.eventCount }
    guard stored == storedBefore + outcome.accepted else {
      violated("round \(round): \(stored - storedBefore) events stored for \(outcome.accepted) accepted lines")
    }
    for result in results {
      if let head = outcome.heads[result.session], head.seq != result.eventCount {
        violated("round \(round): the answer's head of a session is not its stored length")
      }
      guard let state = try? store.state(of: result.session).state else {
        violated("round \(round): a stored session's state cannot be read")
      }
      guard (try? state.checkLimits()) != nil else { violated("round \(round): a state past the tree limits") }
      guard let text = try? WireFormat.canonicalBytes(state),
        (try? WireFormat.decode(AnyCoordinator.self, from: text)) == state
      else { violated("round \(round): a stored state does not read back from its text") }
    }
    storedBefore = stored
  }
}
