import Foundation

/// What an export wrote.
public struct ExportReport: Equatable, Sendable {
    public var notes = 0
    public var collections = 0
    public var images = 0
}

/// Dates in exports: ISO 8601 in UTC with milliseconds, the precision the store keeps.
enum ExportDate {
    nonisolated(unsafe) private static let formatter: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()
    nonisolated(unsafe) private static let plain: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter
    }()
    private static let lock = NSLock()

    static func text(_ date: Date) -> String {
        lock.withLock { formatter.string(from: date) }
    }

    /// A date written with or without fractional seconds, or a plain `YYYY-MM-DD` (midnight
    /// UTC), as other tools write front matter; nil otherwise.
    static func date(_ text: String) -> Date? {
        lock.withLock {
            if let date = formatter.date(from: text) ?? plain.date(from: text) { return date }
            if text.count == 10 { return plain.date(from: text + "T00:00:00Z") }
            return nil
        }
    }
}

/// The folder an export writes into: made when absent; refused when it holds anything and
/// `force` is not given.
enum ExportFolder {
    static func prepare(_ folder: URL, force: Bool) throws {
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        if manager.fileExists(atPath: folder.path, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw InterchangeError.io(path: folder.path, reason: "it is not a folder") }
            let contents = try Result { try manager.contentsOfDirectory(atPath: folder.path) }.mapError { InterchangeError.io(folder, $0) }.get()
            if !contents.isEmpty && !force { throw InterchangeError.notEmpty(path: folder.path) }
        } else {
            do {
                try manager.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw InterchangeError.io(folder, error)
            }
        }
    }

    static func makeFolder(_ folder: URL) throws {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw InterchangeError.io(folder, error)
        }
    }

    static func write(_ data: Data, to file: URL) throws {
        do {
            try data.write(to: file)
        } catch {
            throw InterchangeError.io(file, error)
        }
    }
}
