import NavContract
import NavCore

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

  /// Signing in with a `read` token; `problem` says why the last try was refused.
  static func signIn(problem: String?) -> Markup {
    let refused: Markup = problem.map { #"<p class="problem" role="alert">\#($0)</p>"# } ?? .empty
    return page(
      title: "Sign in", app: nil,
      body: """
        <h1>Sign in</h1>\(refused)<form class="signin" method="post" action="/console/sign-in">\
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

  /// The path of a session's page, and of what hangs from it (`/report`, ...).
  static func sessionPath(_ id: SessionID, _ tail: String = "") -> String {
    "/console/sessions/" + ContractPath.segment(id.rawValue) + tail
  }
}
