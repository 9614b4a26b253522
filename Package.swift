// swift-tools-version:6.0
import PackageDescription

// Optimised even in debug builds: the renderer's pixel loops are unusably slow at -Onone,
// and the test suite renders real frames.
//
// Swift 6.3.1's EarlyCodeMotion pass miscompiles a mutating call followed by a read of the
// memory it mutates when it merges that call with an identical one at a loop's end (it moves the
// read above the call); the TOML scanner's cursor hit it (testLiteralStrings catches it). The pass
// is off for every target, in every configuration, until a fixed compiler is the minimum.
let fastInDebug: [SwiftSetting] = [
    .unsafeFlags(["-O"], .when(configuration: .debug)),
    .unsafeFlags(["-Xllvm", "-sil-disable-pass=early-codemotion"])
]

// The renderer and the engine without the runtime's exclusivity checks in release builds: they
// were 3 to 5 % of the player's CPU time (swift_beginAccess and its access set, per property
// access of a class; without them a spinner's frames take 9.7 % fewer instructions, callgrind).
// Debug builds, which the tests run, keep every check, so an overlapping access is still caught.
let uncheckedInRelease: [SwiftSetting] =
    fastInDebug + [
        .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))
    ]

let package = Package(
    name: "Vitrine",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "vitrine", targets: ["vitrine"]),
        .library(name: "VitrineGraphics", targets: ["VitrineGraphics"]),
        .library(name: "VitrineAnimation", targets: ["VitrineAnimation"]),
        .library(name: "VitrineDisplay", targets: ["VitrineDisplay"]),
        .library(name: "VitrineX11", targets: ["VitrineX11"]),
        .library(name: "VitrineWayland", targets: ["VitrineWayland"]),
        .library(name: "VitrineConfig", targets: ["VitrineConfig"]),
        .library(name: "VitrinePlayer", targets: ["VitrinePlayer"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2")
    ],
    targets: [
        // C libraries: module maps over shim headers, nothing else.
        .systemLibrary(
            name: "CPNG", path: "Sources/CPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]),
        .systemLibrary(
            name: "CTurboJPEG", path: "Sources/CTurboJPEG", pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(
            name: "CFreeType", path: "Sources/CFreeType", pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(
            name: "CFontconfig", path: "Sources/CFontconfig", pkgConfig: "fontconfig",
            providers: [.apt(["libfontconfig-dev"])]),
        // wmemset and a prefetch hint for the pixel loops.
        .systemLibrary(name: "CMemory", path: "Sources/CMemory"),
        .systemLibrary(
            name: "CX11", path: "Sources/CX11",
            providers: [.apt(["libx11-dev", "libxext-dev", "libxrandr-dev"])]),
        .systemLibrary(
            name: "CWayland", path: "Sources/CWayland", pkgConfig: "wayland-client",
            providers: [.apt(["libwayland-dev"])]),
        // wayland-scanner's code for xdg-shell, presentation-time and idle-inhibit, kept in the
        // repository (scripts/generate-wayland-protocols.sh), and the few helpers Swift needs.
        .target(name: "CWaylandProtocols", dependencies: ["CWayland"], path: "Sources/CWaylandProtocols"),
        // AVX2 versions of the widest pixel loops, chosen at run time (the portable build targets
        // any x86-64). Optimised in debug builds too, as the Swift pixel loops are.
        .target(
            name: "CPixelKernels", path: "Sources/CPixelKernels",
            cSettings: [.unsafeFlags(["-O2"], .when(configuration: .debug))]),
        // timerfd, eventfd, signalfd: the pieces of a single-threaded poll() loop.
        .systemLibrary(name: "CLinux", path: "Sources/CLinux"),

        // System calls: one error type for errno, whole-file reads and writes; locks, threads, JSON
        // and number formats, so that nothing the player links needs Foundation.
        .target(name: "VitrineSystem", swiftSettings: fastInDebug),

        // A TOML parser that keeps the source position of every key and value,
        // so config errors can name the line of the offending key.
        .target(name: "VitrineTOML", swiftSettings: fastInDebug),

        .target(
            name: "VitrineGraphics",
            dependencies: [
                "VitrineSystem", "CPNG", "CTurboJPEG", "CFreeType", "CFontconfig", "CMemory", "CPixelKernels"
            ],
            swiftSettings: uncheckedInRelease),
        .target(
            name: "VitrineAnimation",
            dependencies: ["VitrineGraphics"],
            swiftSettings: uncheckedInRelease),
        .target(
            name: "VitrineDisplay",
            dependencies: [
                "VitrineSystem", "VitrineGraphics", "CLinux",
                .product(name: "Logging", package: "swift-log")
            ],
            swiftSettings: fastInDebug),
        // The X11 display stack: a presenter through Xlib with MIT-SHM (XPutImage fallback).
        .target(
            name: "VitrineX11",
            dependencies: [
                "VitrineSystem", "VitrineGraphics", "VitrineDisplay", "CX11",
                .product(name: "Logging", package: "swift-log")
            ],
            swiftSettings: fastInDebug),
        // The Wayland display stack: an xdg-shell toplevel fed wl_shm buffers, paced by the
        // compositor's frame callbacks and presentation feedback.
        .target(
            name: "VitrineWayland",
            dependencies: [
                "VitrineSystem", "VitrineGraphics", "VitrineDisplay", "CWayland", "CWaylandProtocols",
                .product(name: "Logging", package: "swift-log")
            ],
            swiftSettings: fastInDebug),
        // Benchmark scenes, workloads and statistics: `vitrine bench` and the display probe use
        // them; no library does.
        .target(
            name: "VitrineBench",
            dependencies: [
                "VitrineSystem", "VitrineGraphics", "VitrineAnimation", "VitrineDisplay", "VitrineX11",
                "VitrineWayland", "CX11", "CLinux", .product(name: "Logging", package: "swift-log")
            ],
            swiftSettings: fastInDebug),
        // The input surfaces under libFuzzer (scripts/fuzz.sh builds it with -sanitize=fuzzer);
        // built plainly, a tool that replays saved inputs.
        .executableTarget(
            name: "vitrine-fuzz",
            dependencies: ["VitrineGraphics", "VitrineAnimation", "VitrineConfig", "VitrinePlayer", "VitrineTOML"],
            swiftSettings: fastInDebug),
        // Presents frames under a real X server for the display tests (server loss) and
        // measures pacing, present cost and idle wake-ups.
        .executableTarget(
            name: "VitrineDisplayProbe",
            dependencies: [
                "VitrineDisplay", "VitrineX11", "VitrineGraphics", "VitrineBench",
                .product(name: "Logging", package: "swift-log")
            ],
            swiftSettings: fastInDebug),
        // TOML → validated playlist: the layer-type registry, value types, key paths, draw specs;
        // every error with its file, line, column and key path. Knows nothing of time,
        // displays or processes.
        .target(
            name: "VitrineConfig",
            dependencies: ["VitrineSystem", "VitrineTOML", "VitrineGraphics", "VitrineAnimation"],
            swiftSettings: fastInDebug),
        // The kiosk at run time: scenes, transitions, inputs, signals, sd_notify.
        .target(
            name: "VitrinePlayer",
            dependencies: [
                "VitrineSystem", "VitrineConfig", "VitrineGraphics", "VitrineAnimation", "VitrineDisplay",
                "VitrineTOML", "CLinux",
                .product(name: "Logging", package: "swift-log")
            ],
            swiftSettings: fastInDebug),
        .executableTarget(
            name: "vitrine",
            dependencies: [
                "VitrineGraphics", "VitrineAnimation", "VitrineDisplay", "VitrineX11", "VitrineWayland",
                "VitrinePlayer", "VitrineConfig", "VitrineTOML", "VitrineSystem", "VitrineBench",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log")
            ],
            swiftSettings: fastInDebug),

        // Test helpers shared by test targets: a private Xvfb per test (the benchmarks' launcher).
        .target(name: "VitrineTestSupport", dependencies: ["CX11", "VitrineBench"], path: "Tests/VitrineTestSupport"),
        // The test binary's counting malloc: how the tests see that a frame allocates nothing.
        .target(name: "CAllocationCounter", path: "Tests/CAllocationCounter"),
        .testTarget(name: "VitrineTOMLTests", dependencies: ["VitrineTOML"]),
        .testTarget(name: "VitrineGraphicsTests", dependencies: ["VitrineGraphics", "VitrineConfig", "CTurboJPEG"]),
        .testTarget(name: "VitrineAnimationTests", dependencies: ["VitrineAnimation"]),
        .testTarget(name: "VitrineBenchTests", dependencies: ["VitrineBench"]),
        .testTarget(
            name: "VitrineDisplayTests",
            dependencies: [
                "VitrineDisplay", "VitrineX11", "VitrineWayland", "VitrineGraphics", "VitrineSystem", "CX11",
                "VitrineTestSupport",
                .product(name: "Logging", package: "swift-log")
            ]),
        .testTarget(
            name: "VitrinePlayerTests",
            dependencies: [
                "VitrinePlayer", "VitrineConfig", "VitrineSystem", "CX11", "VitrineTestSupport", "CAllocationCounter",
                .product(name: "Logging", package: "swift-log")
            ],
            // Broken configs, read from the source tree (found through #filePath).
            exclude: ["Fixtures"])
    ],
    swiftLanguageModes: [.v5]
)
