import Foundation
import NavContract
import NavCore
import NavReport

/// The console's pages, server-rendered from `Markup`: no script, one style sheet, forms that
/// post only to the console.
enum ConsolePages {
  /// A page: the bar (the console's name, the app signed in to, and signing out) and `body`.
  static func page(title: String, app: String?, body: Markup) -> Markup {
    let bar: Markup =
      if let app {
        """
        <header class="bar"><a class="brand" href="/console/sessions">NavStore console</a>\
        <span class="app">app \(app)</span><nav class="sections" aria-label="The console">\
        <a href="/console/sessions">Sessions</a><a href="/console/fleet">Fleet</a></nav>\
        <form method="post" action="/console/sign-out"><button type="submit">Sign out</button></form></header>
        """
      } else {
        #"<header class="bar"><span class="brand">NavStore console</span></header>"#
      }
    return """
      <!doctype html><html lang="en"><head><meta charset="utf-8">\
      <meta name="viewport" content="width=device-width, initial-scale=1">\
      <title>\(title) · NavStore console</title><link rel="stylesheet" href="/console/assets/console.css"></head>\
      <body><a class="skip" href="#main">Skip to the content</a>\(bar)<main id="main">\(body)</main></body></html>
      """
  }

  /// Signing in with a `read` token; `problem` says why the last try was refused, and `next` is
  /// the console's page to go to once signed in (a ticket's link followed before signing in).
  static func signIn(problem: String?, next: String? = nil) -> Markup {
    let refused: Markup = problem.map { #"<p class="problem" role="alert">\#($0)</p>"# } ?? .empty
    let then: Markup = returnPath(next).map { #"<input type="hidden" name="next" value="\#($0)">"# } ?? .empty
    return page(
      title: "Sign in", app: nil,
      body: """
        <h1>Sign in</h1>\(refused)<form class="signin" method="post" action="/console/sign-in">\(then)\
        <label for="token">A read token of your app (navstore token create --role read)\
        <input id="token" name="token" type="password" autocomplete="current-password" required></label>\
        <button type="submit">Sign in</button></form>
        """)
  }

  /// What a request refused for its own reason shows (a session the app does not have, a filter
  /// that is not one).
  static func problem(title: String, app: String?, _ message: String) -> Markup {
    page(
      title: title, app: app,
      body:
        #"<h1>\#(title)</h1><p class="problem" role="alert">\#(message)</p><p><a href="/console/sessions">All sessions</a></p>"#
    )
  }

  /// `path` when it is a console page to send a browser to after signing in: a path of the
  /// console's own (never another site's, nor `//host`, nor one that climbs out with `..`), not
  /// signing in or out, in printable ASCII; `nil` otherwise.
  static func returnPath(_ path: String?) -> String? {
    guard let path, path.utf8.count <= 2048, path.hasPrefix("/console/"),
      path.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") }),
      !path.hasPrefix("/console/sign-in"), !path.hasPrefix("/console/sign-out")
    else { return nil }
    // No `.` or `..` segment, however written: a browser resolves them, out of the console.
    let segments = (path.split(separator: "?", maxSplits: 1).first ?? "").split(
      separator: "/", omittingEmptySubsequences: false)
    guard !segments.contains(where: { [".", ".."].contains(($0.removingPercentEncoding ?? String($0)).lowercased()) })
    else { return nil }
    return path
  }

  /// Where a browser that is not signed in is sent from `path`: signing in, and then back.
  static func signInPath(returningTo path: String) -> String {
    returnPath(path).map { "/console/sign-in?next=" + ContractPath.segment($0) } ?? "/console/sign-in"
  }

  /// The path of a session's page, and of what hangs from it (`/report`, ...).
  static func sessionPath(_ id: SessionID, _ tail: String = "") -> String {
    "/console/sessions/" + ContractPath.segment(id.rawValue) + tail
  }
}
