import ArgumentParser
import Foundation
import NavCore
import NavPersistence

/// `navstore token`: the collector's tokens, each for one app and one role.
struct TokenCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "token",
    abstract: "Create, list and revoke the collector's tokens (one app, one role each).",
    discussion: """
      A token lets a device upload its app's sessions (role ingest) or lets support, QA and \
      analysts read them (role read). The store keeps only a hash of each token's secret: the \
      token is printed once, when it is made.

      Examples:
        navstore token create --app shop --role ingest --db collector.sqlite
        navstore token list --db collector.sqlite
        navstore token revoke 3f9a0c1d2e4b5a67 --db collector.sqlite
      """,
    subcommands: [Create.self, List.self, Revoke.self])

  /// `navstore token create`.
  struct Create: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Make a token and print it, alone, on standard output (it is not shown again).",
      discussion: """
        The app is created when it is new: its sessions are kept in a file of its own beside \
        the store (collector.sqlite keeps the app shop in collector.apps/shop.sqlite).

        Examples:
          navstore token create --app shop --role ingest > device.token
          navstore token create --app shop --role read
        """)

    @OptionGroup var location: StoreLocation

    @Option(help: "The app the token reaches.", transform: appArgument)
    var app: AppName

    @Option(help: "What the token may do: ingest (upload, read heads) or read (read everything, write nothing).")
    var role: TokenRole

    func run() throws {
      let store = try StoreOption.open(path: location.resolvedPath, forWriting: true)
      let made = try storeCall { () throws(StoreError) in try store.createToken(app: app, role: role) }
      FileHandle.standardError.write(
        Data("navstore: token \(made.token.id) for app \(app), role \(role.rawValue); keep it secret\n".utf8))
      print(made.text)
    }
  }

  /// `navstore token list`.
  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "List the tokens: id, app, role, when made, and when revoked.",
      discussion: """
        --json prints one object per token: id, app, role, created_at, revoked_at (null while \
        valid). The secrets are never shown.

        Examples:
          navstore token list
          navstore token list --json | jq -r 'select(.revoked_at == null and .role == "read") | .id'
        """)

    @OptionGroup var location: StoreLocation

    @Flag(help: "One JSON object per token per line.")
    var json = false

    func run() throws {
      let store = try StoreOption.open(path: location.resolvedPath, forWriting: false)
      let tokens = try storeCall { () throws(StoreError) in try store.tokens() }
      if json {
        for token in tokens {
          let object: JSONValue = [
            "id": .string(token.id), "app": .string(token.app.rawValue), "role": .string(token.role.rawValue),
            "created_at": .string(token.createdAt.rfc3339),
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
      let width = max(3, tokens.map(\.app.rawValue.count).max() ?? 0)
      print(
        "ID                APP\(String(repeating: " ", count: width - 3))  ROLE    CREATED                   REVOKED")
      for token in tokens {
        print(
          token.id + "  " + token.app.rawValue.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
            + token.role.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0) + "  " + token.createdAt.rfc3339
            + "  " + (token.revokedAt?.rfc3339 ?? "-"))
      }
    }
  }

  /// `navstore token revoke`.
  struct Revoke: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Revoke a token: it authenticates nothing from now on.",
      discussion: """
        Examples:
          navstore token revoke 3f9a0c1d2e4b5a67
        """)

    @OptionGroup var location: StoreLocation

    @Argument(help: "The token's id, as 'navstore token list' shows it.")
    var id: String

    func run() throws {
      let store = try StoreOption.open(path: location.resolvedPath, forWriting: true)
      let token = try storeCall { () throws(StoreError) in try store.revokeToken(id) }
      print("revoked \(token.id) (app \(token.app), role \(token.role.rawValue))")
    }
  }
}

extension TokenRole: ExpressibleByArgument {}
