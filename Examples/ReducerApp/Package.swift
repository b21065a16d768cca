// swift-tools-version: 6.1
// A reducer-style app (The Composable Architecture with TCACoordinators, say): each flow has a
// pure reducer over its own routes, every action is Codable and becomes the cause of the change
// it makes, and the whole tree is recorded and restored by NavStore. A package of its own,
// beside the product, so that apps depending on NavStore never pull in an example.
// From this folder:
//   swift run ReducerApp
//   swift test            support tickets replayed as regression tests (Tests/ReducerAppTests)
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
    ),
    // Recorded sessions (Fixtures, written by `navstore fixture`) replayed through the app's
    // reducers: each ticket a test.
    .testTarget(
      name: "ReducerAppTests",
      dependencies: ["ReducerApp", .product(name: "NavTesting", package: "NavStore")],
      exclude: ["Fixtures"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
