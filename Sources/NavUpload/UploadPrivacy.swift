/// What of a session's events leaves the device.
///
/// Whatever leaves out something also leaves out the event's chain value (it no longer hashes
/// to it): the collector then chains the session itself, so its hashes are not the device's,
/// and the device's own chain is what `verify` proves on the device.
public enum UploadPrivacy: Sendable, Hashable {
  /// Every event as stored, with its chain value: the collector verifies the device's chain.
  case everything
  /// No `cause` (the app's actions, which may hold what the user typed); screens whole.
  case withoutCauses
  /// Screens by name only (`numberDetail`, not the number), no `cause`, and a context without
  /// the user id and the app's own keys: what `--omit-payloads` leaves in an export. The
  /// collector still holds where the user went, when, and how (the styles, the flows, the
  /// gestures), enough for screen-time and funnel analytics, not what was on the screens.
  case screenNamesOnly
}
