// swift-tools-version: 6.1
// A reducer-style app (The Composable Architecture with TCACoordinators, say): each flow has a
// pure reducer over its own routes, every action is Codable and becomes the cause of the change
// it makes, and the whole tree is recorded and restored by NavStore. A package of its own,
// beside the product, so that apps depending on NavStore never pull in an example.
// From this folder:
//   swift run ReducerApp
import PackageDescription

let package = Package(
  name: "ReducerApp",
  platforms: [.macOS(.v14)],
  dependencies: [
    // No traits: the collector's packages stay out of the app's graph, as the README says.
    .package(name: "NavStore", path: "../..", traits: [])
  ],
  targets: [
    .executableTarget(
      name: "ReducerApp",
      dependencies: [
        .product(name: "NavCore", package: "NavStore"),
        .product(name: "NavPersistence", package: "NavStore"),
      ]
    )
  ],
  swiftLanguageModes: [.v6]
)
