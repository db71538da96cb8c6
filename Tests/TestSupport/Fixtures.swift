public import Foundation

/// Files checked in under `Tests/Fixtures`.
public enum Fixtures {
    /// The `Tests/Fixtures` directory of this checkout.
    public static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// The path of the fixture named `name`.
    public static func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }
}
