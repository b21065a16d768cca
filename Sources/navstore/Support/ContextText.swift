import NavCore

/// A session's context as a person reads it in one line: `app 2.3.1 (412), iOS 17.5.1,
/// iPhone15,2, fr_FR, Europe/Paris, user install-7f3a`, what the context has, in that order.
enum ContextText {
  static func line(_ context: SessionContext) -> String {
    var parts: [String] = []
    if let version = context.appVersion {
      parts.append("app \(version)" + (context.appBuild.map { " (\($0))" } ?? ""))
    } else if let build = context.appBuild {
      parts.append("app build \(build)")
    }
    let system = [context.osName, context.osVersion].compactMap { $0 }.joined(separator: " ")
    if !system.isEmpty { parts.append(system) }
    parts += [context.deviceModel, context.locale, context.timeZone].compactMap { $0 }
    if let user = context.userID { parts.append("user \(user)") }
    if !context.app.isEmpty { parts.append(JSONValue.object(context.app).canonicalString) }
    if let host = context.host { parts.append("host \(host)") }
    return ScreenName.printable(parts.joined(separator: ", "))
  }

  /// The app's version and build, for a listing's column: `2.3.1 (412)`, or `-`.
  static func appVersion(_ context: SessionContext?) -> String {
    guard let context, context.appVersion != nil || context.appBuild != nil else { return "-" }
    let text = [context.appVersion, context.appBuild.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
    return ScreenName.printable(text)
  }
}
