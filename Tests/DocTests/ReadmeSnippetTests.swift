// swift-format-ignore-file
// (The Swift between "doc begin" and "doc end" is the docs' text, byte for byte.)
import Foundation
import NavCore
import NavPersistence
import NavTestSupport
import Testing

/// The README's quick start for an app, run twice against one store: a first launch that starts
/// fresh, and a second that restores it, continues it and shows it.
@MainActor @Suite struct ReadmeSnippetTests {
  @Test func theQuickStartRecordsRestoresAndPlays() async throws {
    let folder = try TemporaryFolder()
    let storePath = folder.path("app.sqlite")
    // doc begin
    enum Screen: Codable, Hashable, Sendable {
      case home, numbersList, numberDetail(number: Int)
    }

    enum Action: Codable {
      case numbersTapped, numberTapped(Int)
    }

    @MainActor func launch(storePath: String) async throws -> NavigationModel<Screen> {
      let store = try SessionStore(path: storePath)            // one SQLite file, created when missing
      let resume = try await store.launch(as: Screen.self)     // the latest session, unless ended, stale or crashing
      let recorder = NavigationRecorder<Screen>(
        store: store, session: try SessionID(UUID().uuidString), launch: resume)  // its start says what the launch did
      let model = NavigationModel(
        resume.state(or: .stack([.root(.home, withNavigation: true)])),
        launchingFrom: resume.state?.launchState,              // the way back: legal steps, 650 ms apart
        recorder: recorder, host: .navigationStack17)
      store.confirm(resume, once: model)                       // in the background: the launch returns at once

      model.perform(Action.numbersTapped) {                    // changed, recorded and shown
        model.stack.presentSheet(.numbersList, withNavigation: true)
      }
      try await recorder.flush()                               // when the app moves to the background
      return model
    }
    // doc end

    let home: Coordinator<Screen> = .stack([.root(.home, withNavigation: true)])
    let oneSheet = try home.applying(.presentSheet(.numbersList, withNavigation: true))
    let twoSheets = try oneSheet.applying(.presentSheet(.numbersList, withNavigation: true))

    // A first launch: nothing to restore, the sheet is shown at once.
    let firstModel = try await launch(storePath: storePath)
    #expect(firstModel.shown == oneSheet && firstModel.lastFailure == nil)
    let store = try SessionStore(path: storePath)
    let first = try #require(try await store.read { try $0.latestSession() })
    #expect(first.eventCount == 2 && first.restoredFrom == nil)
    #expect(try await store.read { try $0.history(of: first.id) }.last?.cause == ["numbersTapped": [:]])
    #expect(try await store.read { try $0.restore(first.id, as: Screen.self) }.state == oneSheet)

    // A second launch: the first session is restored and played from the launch state; the
    // launch returns without waiting for the restore to be confirmed, which happens in the
    // background once it is on screen and stable. The new session says which one it continues.
    let secondModel = try await launch(storePath: storePath)
    #expect(try unconfirmedLaunches(inStoreAt: storePath) == 1, "the launch did not wait for the confirmation")
    #expect(secondModel.shown == twoSheets)
    #expect(try await launchesConfirmed(inStoreAt: storePath))
    let second = try #require(try await store.read { try $0.latestSession() })
    #expect(second.id != first.id)
    #expect(second.restoredFrom == SessionLink(session: first.id, seq: 2))
    #expect(try await store.read { try $0.history(of: second.id) }.map(\.operation.name) == ["start", "presentSheet"])
    #expect(try await store.read { try $0.restore(second.id, as: Screen.self) }.state == twoSheets)
    #expect(try await store.launch(as: Screen.self).outcome == .restored, "the confirmed launches count as settled")
  }
}

/// The README's `Package.swift` excerpt names products this package has, the package by the
/// name SwiftPM gives its URL, and the main branch until a release is tagged (then the version
/// `navstore --version` prints).
@Suite struct ManifestSnippetTests {
  @Test func thePackageExcerptNamesRealProductsAndTheCurrentVersion() throws {
    let readme = try Docs.text(of: Docs.root.appendingPathComponent("README.md"))
    let excerpt = try #require(CodeBlock.all(in: readme).first { $0.text.hasPrefix("// Package.swift") }).text
    let manifest = try Docs.text(of: Docs.root.appendingPathComponent("Package.swift"))
    let versionFile = try Docs.text(of: Docs.root.appendingPathComponent("Sources/navstore/NavStoreVersion.swift"))

    // Until a release is tagged the excerpt names the main branch; then, the version
    // `navstore --version` prints.
    let url = try #require(
      Self.captures(#"\.package\(url: "([^"]+)", (branch|from): "([^"]+)", traits: \[\]\)"#, in: excerpt).first,
      "the excerpt depends on the package without its traits (traits: []), so an app resolves no server package")
    let identity = (url[0].split(separator: "/").last.map(String.init) ?? "").replacingOccurrences(of: ".git", with: "").lowercased()
    let tags = try Self.gitTags()
    if url[1] == "branch" {
      #expect(url[2] == "main" && tags.isEmpty, "a release is tagged: name its version instead of the branch")
    } else {
      #expect(versionFile.contains("static let current = \"\(url[2])\""), "the excerpt's version is not navstore's")
    }

    let products = Self.captures(#"\.product\(name: "([^"]+)", package: "([^"]+)"\)"#, in: excerpt)
    #expect(products.count >= 2)
    for product in products {
      #expect(manifest.contains(".library(name: \"\(product[0])\""), "\(product[0]) is not a library product")
      #expect(product[1] == identity, "the package is '\(identity)' for SwiftPM, not '\(product[1])'")
    }
  }

  /// The repository's release tags (none in a clone without them).
  static func gitTags() throws -> [String] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
    process.arguments = ["-C", Docs.root.path, "tag", "--list", "[0-9]*"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return text.split(separator: "\n").map(String.init)
  }

  /// The capture groups of every match of `pattern`.
  static func captures(_ pattern: String, in text: String) -> [[String]] {
    guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
    return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
      (1..<match.numberOfRanges).compactMap { Range(match.range(at: $0), in: text).map { String(text[$0]) } }
    }
  }
}
