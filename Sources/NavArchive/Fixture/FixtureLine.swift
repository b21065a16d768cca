import NavCore

/// A recorded event as a test fixture keeps it: everything a replay reads (screens, causes,
/// origins, times, the start's link, launch and host), and of the start's context only what
/// names no one.
///
/// The personal fields (the app's user id, the device's key, the app's own keys, which may hold
/// anything) are left out unless asked for. A line that loses them cannot keep its hash (the
/// chain covers the context), so a fixture without them carries no hashes at all: it is a
/// test's input, not an audit's. Kept whole, the lines are the bundle's, hashes and all.
package enum FixtureLine {
  /// The context's fields a fixture leaves out unless asked, as the wire format names them.
  package static let personalFields = ["userId", "deviceKey", "app"]

  /// `line` (one event of a bundle) as a fixture's line, with its newline.
  package static func rewrite(_ line: some Collection<UInt8>, keepingPersonal: Bool) throws(WireFormatError)
    -> [UInt8]
  {
    let event = try WireFormat.decode(AnyEvent.self, from: line)
    return try WireFormat.canonicalBytes(Self.event(event, keepingPersonal: keepingPersonal)) + [0x0A]
  }

  /// `event` as a fixture keeps it.
  package static func event(_ event: AnyEvent, keepingPersonal: Bool) -> AnyEvent {
    guard !keepingPersonal else { return event }
    var kept = event
    kept.hash = nil
    if case .start(let state, let link, let context?, let launch) = event.operation.kind {
      var context = context
      context.userID = nil
      context.deviceKey = nil
      context.app = [:]
      kept.operation.kind = .start(state, restoredFrom: link, context: context.isEmpty ? nil : context, launch: launch)
    }
    return kept
  }
}
