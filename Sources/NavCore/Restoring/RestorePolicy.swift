/// What restoring does with a stored screen the app can no longer decode.
///
/// Apps change their screen types between versions: a case is renamed or removed, a field is
/// added without a default. A session saved by the old version still holds the old screens.
public enum RestorePolicy: Hashable, Sendable {
  /// The screen's route goes, with every route above it in its stack and the flows those routes
  /// host; a stack whose root goes takes its whole coordinator with it (a hosted flow leaves its
  /// route without a child; a tab leaves its tabs). What is left is well-formed and listed as
  /// dropped. The default: an app would rather reopen slightly shallower than not at all.
  case dropUndecodable
  /// Any screen that does not decode fails the restore, naming the first one.
  case strict
}
