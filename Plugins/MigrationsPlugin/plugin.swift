import Foundation
import PackagePlugin

/// Embeds a folder of `NNNN_name.sql` migrations into the target that uses this plugin: the
/// device store's schema (`migrations/`) into NavPersistence, the collector's own tables
/// (`migrations/collector/`) into NavFleet.
///
/// The SQL files stay the single definition of the schema, and the built binary carries them,
/// so `navstore` migrates a store from any working directory and after being copied anywhere.
@main
struct MigrationsPlugin: BuildToolPlugin {
  /// The folder of each target's migrations, under `migrations/`.
  static let folders = ["NavPersistence": "", "NavFleet": "collector"]

  func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
    guard let subfolder = Self.folders[target.name] else {
      throw PluginError(description: "no migrations folder is named for the target \(target.name)")
    }
    var folder = context.package.directoryURL.appending(path: "migrations")
    if !subfolder.isEmpty { folder = folder.appending(path: subfolder) }
    let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
      .filter { $0.pathExtension == "sql" }
      .sorted { $0.lastPathComponent < $1.lastPathComponent }
    let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedMigrations.swift")
    return [
      .buildCommand(
        displayName: "Embedding \(files.count) migration(s) from migrations/\(subfolder)",
        executable: try context.tool(named: "embed-migrations").url,
        arguments: [output.path] + files.map(\.path),
        inputFiles: files,
        outputFiles: [output])
    ]
  }
}

/// Why the plugin cannot embed a target's migrations.
struct PluginError: Error, CustomStringConvertible {
  let description: String
}
