/// What happened to the app, as opposed to its navigation: what a recorder writes as the
/// session's `background`, `foreground` and `end` events.
///
/// Screen views count time only while the app is in the foreground, so an app that reports
/// these gets the time on the screen the user leaves it on, and no time for the hours it sat in
/// the background. Reporting the phase it is already in changes nothing, so an app may report
/// every change of its scene's phase without keeping track.
public enum LifecycleEvent: Hashable, Sendable {
  /// The app left the screen (SwiftUI's `scenePhase` became `.background`; UIKit's
  /// `didEnterBackground`).
  case background
  /// The app is on screen again (`scenePhase` became `.active` after `.background`).
  case foreground
  /// The session is over: the user signed out or closed it, or the app will not continue it.
  /// Nothing is recorded after it, and the launch policy starts the next launch fresh.
  /// `reason` is the app's own word for why (1 to 256 characters; longer is cut).
  case end(reason: String? = nil)

  /// The event as an operation of the log.
  package func operation<AppScreen>(for _: AppScreen.Type = AppScreen.self) -> NavigationOperation<AppScreen> {
    switch self {
    case .background: .background
    case .foreground: .foreground
    case .end(let reason): .end(reason: reason.flatMap(WireScalars.writableText))
    }
  }

  /// The phase the event moves a session to.
  package var phase: SessionPhase {
    switch self {
    case .background: .background
    case .foreground: .foreground
    case .end: .ended
    }
  }
}
