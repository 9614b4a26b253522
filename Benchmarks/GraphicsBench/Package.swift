// swift-tools-version:6.0
// A hand-run timing harness for VitrineGraphics (not part of the test suite):
//   swift run -c release graphics-bench                  built-in scenes
//   swift run -c release graphics-bench SCENES_JSON SCENE FRAMES WARMUP OUT
//                                                        peers-bench.py's external-renderer protocol
import PackageDescription

let package = Package(
    name: "GraphicsBench",
    dependencies: [.package(name: "Vitrine", path: "../..")],
    targets: [
        .executableTarget(name: "graphics-bench",
                          dependencies: [.product(name: "VitrineGraphics", package: "Vitrine")],
                          path: "Sources/GraphicsBench"),
    ],
    swiftLanguageModes: [.v5]
)
