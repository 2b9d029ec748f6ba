import Foundation

/// The files in the project's `Samples/` folder, for tests that need real input.
public enum SampleFiles {
    /// The `Samples/` folder of the checkout this was built from.
    public static var folder: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Samples")
    }

    /// A sample image, such as `plain.png`.
    public static func image(_ name: String) -> URL {
        folder.appendingPathComponent("images").appendingPathComponent(name)
    }
}
