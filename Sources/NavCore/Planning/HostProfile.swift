/// How much navigation a host applies in one update: what a "legal step" means.
///
/// SwiftUI applies one navigation change per state update; how much counts as "one" depends on
/// the container. These three profiles are the cases FlowStacks distinguishes.
///
/// Under every profile, what the user cannot see costs no delay: a plan builds the tabs that are
/// not on screen (selected neither before nor after) after everything the user can see, so the
/// user's screen and its sheet arrive first.
public enum HostProfile: String, CaseIterable, Hashable, Sendable, Codable, CustomStringConvertible {
  /// `NavigationView`: one push, one presentation or one dismissal per step; any number of
  /// trailing pushes may be popped at once.
  case navigationView = "navigation-view"
  /// `NavigationStack` (iOS 16): as `navigationView`, but pushes join the previous step.
  case navigationStack = "navigation-stack"
  /// `NavigationStack` on iOS 17 and later: also every dismissal in one step.
  case navigationStack17 = "navigation-stack-17"

  /// The profile `navstore` uses when none is named.
  public static let `default` = HostProfile.navigationView

  /// Whether several presentation layers can be dismissed in one step.
  var dismissesManyAtOnce: Bool { self == .navigationStack17 }

  /// Whether pushes can land in the same step as the change before them.
  var mergesPushes: Bool { self != .navigationView }

  public var description: String { rawValue }
}
