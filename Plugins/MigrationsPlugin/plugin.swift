import Foundation
import PackagePlugin

/// Embeds folders of `NNNN_name.sql` migrations into the target that uses this plugin, each as
/// an enum of its own: the device store's schema (`migrations/`) into NavPersistence; the
/// collector's own tables (`migrations/collector/`) and a fleet's PostgreSQL schema
/// (`migrations/postgresql/`) into NavFleet.
///
/// The SQL files stay the single definition of the schema, and the built binary carries them,
/// so `navstore` migrates a store from any working directory and after being copied anywhere.
@main
struct MigrationsPlugin: BuildToolPlugin {
  /// The folders of each target's migrations, under `migrations/`, with the enum each becomes.
  static let folders: [String: [(subfolder: String, enumName: String)]] = [
    "NavPersistence": [("", "EmbeddedMigrations")],
    "NavFleet": [("collector", "EmbeddedMigrations"), ("postgresql", "PostgreSQLMigrations")],
  ]

  func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
    guard let folders = Self.folders[target.name] else {
      throw PluginError(description: "no migrations folder is named for the target \(target.name)")
    }
    return try folders.map { subfolder, enumName in
      var folder = context.package.directoryURL.appending(path: "migrations")
      if !subfolder.isEmpty { folder = folder.appending(path: subfolder) }
      let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        .filter { $0.pathExtension == "sql" }
        .sorted { $0.lastPathComponent < $1.lastPathComponent }
      let output = context.pluginWorkDirectoryURL.appending(path: "\(enumName).swift")
      return .buildCommand(
        displayName: "Embedding \(files.count) migration(s) from migrations/\(subfolder)",
        executable: try context.tool(named: "embed-migrations").url,
        arguments: [output.path, enumName] + files.map(\.path),
        inputFiles: files,
        outputFiles: [output])
    }
  }
}

/// Why the plugin cannot embed a target's migrations.
struct PluginError: Error, CustomStringConvertible {
  let description: String
}
