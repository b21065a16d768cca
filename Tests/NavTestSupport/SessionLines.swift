import NavCore

/// Sessions of legal events as wire-format lines with explicit seqs, for uploads and imports:
/// a start on `screen`, then pushes and pops in turn, a quarter of a second apart, each with a
/// cause. Session `n` is `PREFIX-n` and begins ten minutes after session `n - 1`.
public enum SessionLines {
  /// `sessions` sessions of `events` events each, one line per event, session after session.
  public static func make(prefix: String, sessions: Int, events: Int, screen: String = "home") -> [String] {
    (0..<sessions).flatMap { session in
      (1...events).map { seq in
        let operation =
          seq == 1
          ? #"{"op":"start","state":{"routes":[{"screen":"\#(screen)","style":"root","withNavigation":true}]}}"#
          : seq.isMultiple(of: 2) ? #"{"op":"push","screen":"s\#(seq)"}"# : #"{"op":"pop"}"#
        let at = Timestamp(millisecondsSince1970: 1_795_000_000_000 + Int64(session) * 600_000 + Int64(seq) * 250)
        return
          #"{"session":"\#(prefix)-\#(session)","seq":\#(seq),"at":"\#(at.rfc3339)","op":\#(operation),"cause":{"tapped":\#(seq)}}"#
      }
    }
  }

  /// The same lines as bytes, as `SessionStore.ingest(_:)` takes them.
  public static func bytes(prefix: String, sessions: Int, events: Int, screen: String = "home") -> [ArraySlice<UInt8>] {
    make(prefix: prefix, sessions: sessions, events: events, screen: screen).map { ArraySlice($0.utf8) }
  }
}
