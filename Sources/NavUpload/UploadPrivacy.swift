/// What of a session's events leaves the device.
///
/// Whatever leaves out something also leaves out the event's chain value (it no longer hashes
/// to it): the collector then chains the session itself, so its hashes are not the device's,
/// and the device's own chain is what `verify` proves on the device.
///
/// Keep a session's privacy once some of it was sent. After events that left something out,
/// the collector's chain is not the device's, so a later event sent with the device's chain
/// value (under `.everything`) is refused as a `hash` mismatch, and the session is held there.
public enum UploadPrivacy: Sendable, Hashable {
  /// Every event as stored, with its chain value: the collector verifies the device's chain.
  case everything
  /// No `cause` (the app's actions, which may hold what the user typed); screens whole.
  case withoutCauses
  /// Screens by name only (`numberDetail`, not the number), no `cause`, no end's reason, and a
  /// context without the user id and the app's own keys: close to what `--omit-payloads` leaves
  /// in an export. The collector still holds where the user went, when, and how (the styles,
  /// the flows, the gestures), enough for screen-time and funnel analytics, not what was on the
  /// screens.
  case screenNamesOnly
}
