import Foundation

/// The container `DIR/NAME` in a shared cloud folder, as docs/sync-format.md lays it out:
///
/// ```
/// DIR/NAME/
///   container.json                 the sentinel: format version, identity, created
///   devices/<device>.json          registration of each attached device
///   logs/<device>/<sequence>.log   immutable transaction logs, 000000000001.log, ...
///   blobs/<sha256>                 attachment bytes, immutable, content-addressed
/// ```
///
/// A `CloudContainer` is a handle: it holds the identity the device attached to and does all
/// its work through a ``CloudFileSystem``. Everything it reads is untrusted: names must match
/// the layout exactly, links are never followed, sizes are bounded, blob hashes are verified,
/// and files that fail are reported as ``SkippedFile`` instead of failing the sync. It writes
/// only new files (a file without a name or a temporary name, fsync, rename or link, fsync of
/// the folder: docs/sync-format.md, 2.1), never changes a published log or blob, and creates
/// the container's folders only in ``create(on:name:now:)``, so that a container that was
/// deleted is never brought back by a device that still writes.
public struct CloudContainer: Sendable {
    /// The container name used when none is given, like Core Data's ubiquitous content name.
    public static let defaultName = "NoteCollector"

    public let fileSystem: any CloudFileSystem
    /// The name of the container folder in the cloud folder.
    public let name: String
    /// The identity (`container` of `container.json`) this handle belongs to. Registrations
    /// of other containers found in it are foreign.
    public let identity: UUID
    /// How the files of an encrypted container are sealed and named, when this device holds
    /// its key; nil for a plain container. Every file but `container.json` and `key.json` goes
    /// through it (``CloudContainer+Sealing``).
    public var sealing: FileSealing?

    /// A handle on a container the device attached to before, with the identity it recorded
    /// then. Nothing is read: check ``descriptor()`` before trusting the container.
    public init(
        fileSystem: any CloudFileSystem, name: String = defaultName, identity: UUID, sealing: FileSealing? = nil
    ) throws(SyncError) {
        try CloudName.requireContainerName(name)
        self.fileSystem = fileSystem
        self.name = name
        self.identity = identity
        self.sealing = sealing
    }

    /// A handle on the container `name` in the local folder `cloud`, written by `writer`.
    public init(
        cloud: URL, name: String = defaultName, identity: UUID, writer: UUID? = nil, access: CloudAccess = .private,
        sealing: FileSealing? = nil
    ) throws(SyncError) {
        try self.init(
            fileSystem: LocalCloudFileSystem(root: cloud, writer: writer, access: access), name: name,
            identity: identity,
            sealing: sealing)
    }

    /// The container folder.
    public var url: URL {
        fileSystem.root.appendingPathComponent(name)
    }

    /// Creates the container `name` in the local folder `cloud` unless it exists, and attaches
    /// to it. See ``create(on:name:now:)``.
    public static func create(
        in cloud: URL, name: String = defaultName, now: Date = Date(), writer: UUID? = nil,
        access: CloudAccess = .private
    ) throws(SyncError) -> CloudContainer {
        try create(on: LocalCloudFileSystem(root: cloud, writer: writer, access: access), name: name, now: now)
    }

    /// Creates the container `name` unless it exists, and returns a handle on it.
    ///
    /// Makes the container folder and `devices/`, `logs/` and `blobs/` where missing, then
    /// creates `container.json` with a new identity, exclusively: when it exists already, the
    /// identity written there is the one returned. Of several devices creating one container at
    /// once, one writes the identity and every other reads it, so all agree.
    ///
    /// The cloud folder itself must exist: a missing one may be a cloud drive that is not
    /// mounted, and is not made. Throws ``SyncError/newerFormat(path:version:)`` for a container
    /// of a newer format, and ``SyncError/badFile(path:reason:)`` for a `container.json` that
    /// is not one (it is left as it is: it may be someone's data).
    public static func create(on fileSystem: any CloudFileSystem, name: String = defaultName, now: Date = Date())
        throws(SyncError) -> CloudContainer
    {
        try CloudName.requireContainerName(name)
        try makeFolders(of: name, on: fileSystem)
        let path = name + "/" + CloudName.descriptor
        // A descriptor can be removed between a failed creation and the read: try again then.
        for _ in 1...3 {
            let candidate = ContainerDescriptor(container: UUID(), created: now)
            if try fileSystem.create(CloudJSON.encode(candidate), at: path) {
                return try CloudContainer(fileSystem: fileSystem, name: name, identity: candidate.container)
            }
            if let existing = try readExistingDescriptor(at: path, on: fileSystem) {
                return try CloudContainer(fileSystem: fileSystem, name: name, identity: existing.container)
            }
        }
        throw .io(path: fileSystem.absolutePath(of: path), reason: "it keeps disappearing while being read")
    }

    /// Makes the container folder `name` and its `devices/`, `logs/` and `blobs/` where
    /// missing: what creating a container makes, plain or encrypted.
    static func makeFolders(of name: String, on fileSystem: any CloudFileSystem) throws(SyncError) {
        try fileSystem.makeFolder(name)
        for folder in [CloudName.devices, CloudName.logs, CloudName.blobs] {
            try fileSystem.makeFolder(name + "/" + folder)
        }
    }

    /// The descriptor at `path`, or nil when it is gone.
    static func readExistingDescriptor(at path: String, on fileSystem: any CloudFileSystem) throws(SyncError)
        -> ContainerDescriptor?
    {
        let data: Data
        do {
            data = try fileSystem.read(path, limit: ContainerDescriptor.sizeLimit)
        } catch {
            if case .missing = error { return nil }
            throw error
        }
        switch CloudJSON.decode(ContainerDescriptor.self, from: data) {
        case let .success(descriptor) where descriptor.isNewerFormat:
            throw .newerFormat(path: fileSystem.absolutePath(of: path), version: descriptor.formatVersion)
        case let .success(descriptor):
            return descriptor
        case let .failure(problem):
            throw .badFile(
                path: fileSystem.absolutePath(of: path), reason: "not a container descriptor: \(problem.reason)")
        }
    }

    /// The sentinel `container.json`, read now.
    ///
    /// `absent` only when certain: the container folder was listed and has no
    /// `container.json`, or the cloud folder was listed and has no container folder. A failure
    /// to list or read, a link, a file that is too large, not JSON, not of the
    /// `note-collector-container` format, or of a newer format whose keys are not understood,
    /// is `unreadable` with the reason. A newer format that is understood is present, with
    /// ``ContainerDescriptor/isNewerFormat`` set.
    public func descriptor() -> Presence<ContainerDescriptor> {
        let relative = CloudName.descriptor
        switch filePresence(relative, limit: ContainerDescriptor.sizeLimit) {
        case .absent: return .absent
        case let .unreadable(reason): return .unreadable(reason)
        case let .present(data):
            switch CloudJSON.decodeRemembered(ContainerDescriptor.self, from: data) {
            case let .success(descriptor): return .present(descriptor)
            case let .failure(problem):
                return .unreadable("'\(absolutePath(relative))' is not a container descriptor: \(problem.reason)")
            }
        }
    }
}

extension CloudContainer {
    /// The path below the cloud folder of a path relative to the container folder.
    func path(_ relative: String) -> String {
        relative.isEmpty ? name : name + "/" + relative
    }

    func absolutePath(_ relative: String) -> String {
        fileSystem.absolutePath(of: path(relative))
    }

    /// The bytes of the file at `relative` (to the container folder), told apart from its
    /// certain absence and from any reason it cannot be read.
    func filePresence(_ relative: String, limit: Int) -> Presence<Data> {
        let components = [name] + relative.split(separator: "/").map(String.init)
        switch entryPresence(components) {
        case .absent: return .absent
        case let .unreadable(reason): return .unreadable(reason)
        case let .present(entry):
            if let reason = SkippedFile.Reason(entry, expected: .file) {
                return .unreadable("'\(absolutePath(relative))': \(reason)")
            }
            let stored = storedLimit(limit, relative)
            guard entry.size <= stored else {
                return .unreadable(SyncError.tooLarge(path: absolutePath(relative), limit: limit).description)
            }
            do {
                return .present(try opened(fileSystem.read(path(relative), limit: stored), relative))
            } catch {
                return .unreadable(error.description)
            }
        }
    }

    /// What is at `components` below the cloud folder, decided by listing the folder that
    /// holds it, and when that folder is missing, the folder above, up to the cloud folder: a
    /// failed open or read never says `absent`.
    func entryPresence(_ components: [String]) -> Presence<CloudEntry> {
        guard let last = components.last else { return .unreadable("cannot use '\(url.path)': no file named") }
        let folder = components.dropLast()
        do {
            let entries = try fileSystem.list(folder.joined(separator: "/"))
            return entries.first { $0.name == last }.map(Presence.present) ?? .absent
        } catch {
            guard case .missing = error, !folder.isEmpty else { return .unreadable(error.description) }
            switch entryPresence(Array(folder)) {
            case .absent: return .absent
            case .present: return .unreadable("\(error.description), though its folder was listed just before")
            case let .unreadable(reason): return .unreadable(reason)
            }
        }
    }

    /// The entries of a folder of the container, with names starting with `.` left out; a
    /// folder that does not exist has none.
    func visibleEntries(of relative: String) throws(SyncError) -> [CloudEntry] {
        do {
            return try fileSystem.list(path(relative))
                .filter { !CloudName.isIgnored($0.name) }
                .sorted { $0.name < $1.name }
        } catch {
            if case .missing = error { return [] }
            throw error
        }
    }
}
