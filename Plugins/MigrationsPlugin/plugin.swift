import Foundation
import PackagePlugin

/// Embeds `migrations/NNNN_name.sql` into the target that uses this plugin.
///
/// The SQL files stay the single definition of the schema, and the built binary carries them,
/// so `navstore` migrates a store from any working directory and after being copied anywhere.
@main
struct MigrationsPlugin: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
    let folder = context.package.directoryURL.appending(path: "migrations")
    let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
      .filter { $0.pathExtension == "sql" }
      .sorted { $0.lastPathComponent < $1.lastPathComponent }
    let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedMigrations.swift")
    return [
      .buildCommand(
        displayName: "Embedding \(files.count) migration(s) from migrations/",
        executable: try context.tool(named: "embed-migrations").url,
        arguments: [output.path] + files.map(\.path),
        inputFiles: files,
        outputFiles: [output])
    ]
  }
}
