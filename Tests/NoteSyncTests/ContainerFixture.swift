import Foundation
import NoteSync
import NoteSyncTestSupport
import NoteTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A cloud folder of its own with a container created in it, and ways to put files there
/// behind the container's back, as another device or a careless user would.
struct ContainerFixture {
    let folder = TemporaryFolder("notes-cloud")
    let faulty: FaultyCloudFileSystem
    let container: CloudContainer

    /// The cloud folder.
    var cloud: URL { folder.url.appendingPathComponent("cloud") }

    init() throws {
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("cloud"), withIntermediateDirectories: true)
        faulty = FaultyCloudFileSystem(root: folder.url.appendingPathComponent("cloud"))
        container = try CloudContainer.create(on: faulty)
    }

    /// A path inside the container folder.
    func url(_ relative: String) -> URL {
        container.url.appendingPathComponent(relative)
    }

    /// A path outside the cloud folder, for links to point at.
    func outside(_ name: String) -> URL {
        folder.url.appendingPathComponent(name)
    }

    /// The path that the container passes to its file system for `relative`.
    func cloudPath(_ relative: String) -> String {
        relative.isEmpty ? CloudContainer.defaultName : CloudContainer.defaultName + "/" + relative
    }

    func write(_ text: String, at relative: String) throws {
        try write(Data(text.utf8), at: relative)
    }

    func write(_ data: Data, at relative: String) throws {
        let url = url(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    func makeFolder(_ relative: String) throws {
        try FileManager.default.createDirectory(at: url(relative), withIntermediateDirectories: true)
    }

    func link(_ relative: String, to target: URL) throws {
        try FileManager.default.createSymbolicLink(at: url(relative), withDestinationURL: target)
    }

    func remove(_ relative: String) throws {
        try FileManager.default.removeItem(at: url(relative))
    }

    /// The permission bits of a file or folder in the container.
    func mode(_ relative: String) -> mode_t {
        var info = stat()
        guard lstat(url(relative).path, &info) == 0 else { return 0 }
        return info.st_mode & 0o7777
    }

    /// Every path in the container folder, relative to it, hidden ones included.
    func allPaths() -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: container.url.path)
        return ((enumerator?.allObjects as? [String]) ?? []).sorted()
    }

    /// A registration file as another build would write it.
    static func registrationJSON(container: UUID, device: UUID, name: String = "laptop", extra: String = "") -> String {
        """
        {"format":"note-collector-device","formatVersion":1,"container":"\(container.lowercased)",\
        "device":"\(device.lowercased)","name":"\(name)","registered":"2025-03-04T05:06:07.089Z",\
        "modelVersion":2\(extra)}
        """
    }
}

extension UUID {
    /// The UUID as the container writes it.
    var lowercased: String { uuidString.lowercased() }
}
