import ArgumentParser
import Foundation
@_spi(Internals) import NavArchive
import NavCore

/// `--tz`: the time zone a person reads times in. UTC when the output goes to a program (so
/// scripts read the same text everywhere), the machine's own zone on a terminal, or the zone
/// named: an IANA name (`Europe/Paris`), `UTC`, or `local`.
struct TimeZoneOption: ParsableArguments {
  @Option(
    name: .customLong("tz"),
    help: ArgumentHelp(
      "Show times in this time zone: an IANA name like Europe/Paris, UTC, or local.",
      discussion: "By default: the machine's zone on a terminal, UTC otherwise.", valueName: "zone"))
  var name: String?

  func validate() throws {
    if let name, name != "local", TimeZone(identifier: name) == nil {
      throw ValidationError("--tz: '\(name)' is not a time zone (try an IANA name like Europe/Paris, UTC, or local)")
    }
  }

  /// The zone chosen, `nil` for UTC written as the wire format writes it.
  var zone: TimeZone? {
    switch name {
    case "local": TimeZone.current
    case .some(let name):
      TimeZone(identifier: name).flatMap { $0.secondsFromGMT() == 0 && $0.identifier == "UTC" ? nil : $0 }
    case nil: isatty(FileHandle.standardOutput.fileDescriptor) == 1 ? TimeZone.current : nil
    }
  }

  /// A formatter of times in the chosen zone: RFC 3339 with the zone's offset at that time
  /// (`2026-11-21T10:00:00.000+01:00`), or the wire format's `Z` in UTC. Whole milliseconds
  /// throughout: the time is shifted by the offset and written as the wire format writes it.
  func formatter() -> (Timestamp) -> String {
    guard let zone else { return { $0.rfc3339 } }
    return { time in
      guard let (local, offset) = time.wallClock(in: zone) else { return time.rfc3339 }
      let sign = offset < 0 ? "-" : "+"
      let minutes = abs(offset) / 60
      return local + sign + String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }
  }
}
