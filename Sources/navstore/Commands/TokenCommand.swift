import ArgumentParser
import Foundation
import NavCore
import NavFleet
import NavPersistence

/// `navstore token`: the collector's tokens, each for one app and one role.
struct TokenCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "token",
    abstract: "Create, list and revoke the collector's tokens (one app, one role each).",
    discussion: """
      A token lets a device upload its app's sessions (role ingest) or lets support, QA and \
      analysts read them (role read). The store keeps only a hash of each token's secret: the \
      token is printed once, when it is made.

      Examples:
        navstore token create --app shop --role ingest --label "ios 4.2" --db collector.sqlite
        navstore token create --app shop --role read --label "support" --expires-in 90d --db collector.sqlite
        navstore token list --db collector.sqlite
        navstore token revoke 3f9a0c1d2e4b5a67 --db collector.sqlite
      """,
    subcommands: [Create.self, List.self, Revoke.self])

  /// `navstore token create`.
  struct Create: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Make a token and print it, alone, on standard output (it is not shown again).",
      discussion: """
        The app is created when it is new: its sessions are kept in a file of its own beside \
        the store (collector.sqlite keeps the app shop in collector.apps/shop.sqlite).

        Examples:
          navstore token create --app shop --role ingest --label "ios app" > device.token
          navstore token create --app shop --role read --label "support: Ana" --expires-in 30d
          navstore token create --app shop --role read --expires 2027-01-01
        """)

    @OptionGroup var location: StoreLocation

    @Option(help: "The app the token reaches.", transform: appArgument)
    var app: AppName

    @Option(help: "What the token may do: ingest (upload, read heads) or read (read everything, write nothing).")
    var role: TokenRole

    @Option(help: "Who or what holds it, for 'token list' (1 to 256 characters).")
    var label: String?

    @Option(help: "When it stops working: a date (midnight UTC) or a time.", transform: timeArgument)
    var expires: Timestamp?

    @Option(
      help: ArgumentHelp(
        "How long it works from now: a number of days, hours or minutes (90d, 12h, 30m).", valueName: "span"),
      transform: spanArgument)
    var expiresIn: Duration?

    func validate() throws {
      if expires != nil, expiresIn != nil { throw ValidationError("give --expires or --expires-in, not both") }
      if let label, label.isEmpty || label.unicodeScalars.count > 256 {
        throw ValidationError("--label: give 1 to 256 characters")
      }
    }

    func run() async throws {
      let now = Timestamp.now
      let until =
        expires
        ?? expiresIn.map { Timestamp(millisecondsSince1970: now.millisecondsSince1970 + $0.components.seconds * 1_000) }
      if let until, until <= now { throw CLIError("--expires: \(until) has passed already") }
      let (app, role, label) = (app, role, label)
      let made = try await location.withTokens(writing: true) { tokens in
        try await fleetCall { () async throws(FleetError) in
          try await tokens.createToken(app: app, role: role, label: label, expiresAt: until, at: now)
        }
      }
      let expiry = until.map { ", expires \($0)" } ?? ""
      FileHandle.standardError.write(
        Data("navstore: token \(made.token.id) for app \(app), role \(role.rawValue)\(expiry); keep it secret\n".utf8))
      print(made.text)
    }
  }

  /// `navstore token list`.
  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "List the tokens: id, app, role, label, when made, last used, expires and revoked.",
      discussion: """
        --json prints one object per token: id, app, role, label, created_at, last_used_at, \
        expires_at, revoked_at (each null when it does not apply). A use is noted to the \
        minute. The secrets are never shown.

        Examples:
          navstore token list
          navstore token list --json | jq -r 'select(.revoked_at == null and .role == "read") | .id'
          navstore token list --json | jq -r 'select(.last_used_at == null) | .id'
        """)

    @OptionGroup var location: StoreLocation

    @Flag(help: "One JSON object per token per line.")
    var json = false

    func run() async throws {
      let tokens = try await location.withTokens(writing: false) { tokens in
        try await fleetCall { () async throws(FleetError) in try await tokens.tokens() }
      }
      if json {
        for token in tokens {
          let object: JSONValue = [
            "id": .string(token.id), "app": .string(token.app.rawValue), "role": .string(token.role.rawValue),
            "label": token.label.map(JSONValue.string) ?? .null, "created_at": .string(token.createdAt.rfc3339),
            "last_used_at": token.lastUsedAt.map { .string($0.rfc3339) } ?? .null,
            "expires_at": token.expiresAt.map { .string($0.rfc3339) } ?? .null,
            "revoked_at": token.revokedAt.map { .string($0.rfc3339) } ?? .null,
          ]
          print(object.canonicalString)
        }
        return
      }
      guard !tokens.isEmpty else {
        print("no token (make one with 'navstore token create --app APP --role ingest|read')")
        return
      }
      let appWidth = max(3, tokens.map { TerminalWidth.of($0.app.rawValue) }.max() ?? 0)
      let labels = tokens.map { ScreenName.printable($0.label ?? "-") }
      let labelWidth = min(32, max(5, labels.map(TerminalWidth.of).max() ?? 0))
      func pad(_ text: String, _ width: Int) -> String { TerminalWidth.padded(text, to: width) }
      print(
        "ID                " + pad("APP", appWidth) + "  ROLE    " + pad("LABEL", labelWidth)
          + "  CREATED                   LAST USED                 EXPIRES                   REVOKED")
      let now = Timestamp.now
      for (token, label) in zip(tokens, labels) {
        let expires = token.expiresAt.map { $0.rfc3339 + ($0 <= now ? " (passed)" : "") } ?? "-"
        print(
          token.id + "  " + pad(token.app.rawValue, appWidth) + "  " + pad(token.role.rawValue, 6) + "  "
            + pad(TerminalWidth.truncated(label, to: labelWidth), labelWidth) + "  " + token.createdAt.rfc3339 + "  "
            + pad(token.lastUsedAt?.rfc3339 ?? "-", 24) + "  " + pad(expires, 24) + "  "
            + (token.revokedAt?.rfc3339 ?? "-"))
      }
    }
  }

  /// `navstore token revoke`.
  struct Revoke: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Revoke a token: it authenticates nothing from now on.",
      discussion: """
        Examples:
          navstore token revoke 3f9a0c1d2e4b5a67
        """)

    @OptionGroup var location: StoreLocation

    @Argument(help: "The token's id (16 hex digits), as 'navstore token list' shows it.")
    var id: String

    func run() async throws {
      // A whole token pasted where its id was asked: its id is what was meant, and its secret
      // is never printed back (nor kept in a shell's scrollback by this command).
      var tokenID = id
      if let whole = AccessToken.id(ofWhole: id) {
        tokenID = whole
        FileHandle.standardError.write(
          Data(
            "navstore: that is a whole token; its id is \(whole) (give only the id: the secret is not needed)\n".utf8))
      }
      guard tokenID.count == 16, tokenID.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
        throw CLIError("that is not a token id: give the 16 hex digits 'navstore token list' shows")
      }
      let id = tokenID
      let token = try await location.withTokens(writing: true) { tokens in
        try await fleetCall { () async throws(FleetError) in try await tokens.revokeToken(id, at: .now) }
      }
      print("revoked \(token.id) (app \(token.app), role \(token.role.rawValue))")
    }
  }
}

extension TokenRole: ExpressibleByArgument {}
