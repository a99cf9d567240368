// swift-tools-version:5.10
import PackageDescription

let package = Package(
    name: "ImagePipe",
    platforms: [.iOS(.v16), .macOS(.v13)],
    products: [
        .library(name: "ImagePipe", targets: ["ImagePipe"]),
    ],
    targets: [
        .target(name: "ImagePipe"),
        .testTarget(
            name: "ImagePipeTests",
            dependencies: ["ImagePipe"],
            resources: [.copy("Fixtures")]
        ),
    ]
)
