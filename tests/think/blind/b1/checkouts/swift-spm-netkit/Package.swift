// swift-tools-version:5.9
import PackageDescription

let package = Package(
    name: "NetKit",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "NetKit", targets: ["NetKit"]),
    ],
    targets: [
        .target(name: "NetKit"),
        .testTarget(name: "NetKitTests", dependencies: ["NetKit"]),
    ]
)
