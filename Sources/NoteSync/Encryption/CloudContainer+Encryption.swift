import Foundation

/// The key file and the making of an encrypted container (docs/sync-format.md, section 16).
extension CloudContainer {
    /// `key.json`, read now and checked to be of this container. Throws
    /// ``SyncError/encryption(_:)`` when it is missing, not understood or of another container.
    public func keyFile() throws(SyncError) -> KeyFile {
        let data: Data
        do {
            data = try fileSystem.read(path(CloudName.keyFile), limit: KeyFile.sizeLimit)
        } catch {
            guard case .missing = error else { throw error }
            throw .encryption(
                "the encrypted container '\(url.path)' has no key file key.json yet: a file-sync engine may still be "
                    + "carrying it; else the device that made the container stopped before writing it, and its next "
                    + "'notes sync enable' writes it")
        }
        switch CloudJSON.decode(KeyFile.self, from: data) {
        case let .failure(problem):
            throw .encryption("'\(absolutePath(CloudName.keyFile))' is not a key file: \(problem.reason)")
        case let .success(file) where file.container != identity:
            throw .encryption(
                "'\(absolutePath(CloudName.keyFile))' belongs to another container (\(file.container.storeString))")
        case let .success(file):
            return file
        }
    }

    /// Writes `key.json`, replacing the one there (a new passphrase, or a key file that belongs
    /// to an earlier container of this name).
    public func writeKeyFile(_ file: KeyFile) throws(SyncError) {
        guard file.container == identity else {
            throw .wrongContainer(path: absolutePath(CloudName.keyFile), expected: identity, found: file.container)
        }
        try fileSystem.write(CloudJSON.encode(file), to: path(CloudName.keyFile))
    }

    /// Makes the encrypted container `name` unless one exists, and returns a handle on it:
    /// sealed, with its new key, when this call made it; unsealed when it exists (the caller
    /// unlocks it). The new key is kept in `folder` before the sentinel is published, so a
    /// device stopped before `key.json` was written can write it when it runs again.
    ///
    /// Throws ``SyncError/encryption(_:)`` when a plain container has the name: its files stay
    /// plain, and nothing is written.
    public static func createEncrypted(
        in cloud: URL, name: String, passphrase: String, keptIn folder: URL, now: Date = Date(), writer: UUID? = nil,
        access: CloudAccess = .private, scryptCost: Int = EncryptionSettings.defaultCost
    ) throws(SyncError) -> CloudContainer {
        let fileSystem = LocalCloudFileSystem(root: cloud, writer: writer, access: access)
        try CloudName.requireContainerName(name)
        let path = name + "/" + CloudName.descriptor
        for _ in 1...3 {
            if let existing = try readExistingDescriptor(at: path, on: fileSystem) {
                guard existing.encryption != nil else { throw .plainContainer(path: fileSystem.absolutePath(of: name)) }
                return try CloudContainer(fileSystem: fileSystem, name: name, identity: existing.container)
            }
            try makeFolders(of: name, on: fileSystem)
            let identity = UUID()
            let key = ContainerKey.random()
            let settings = EncryptionSettings.new(for: key, container: identity, cost: scryptCost)
            let file: KeyFile
            do {
                file = try KeyFile.wrapping(
                    key, container: identity, passphrase: passphrase, settings: settings, now: now)
            } catch {
                throw .encryption("cannot wrap the container key: \(error)")
            }
            try StoredKey.write(key, container: identity, in: folder)
            let descriptor = ContainerDescriptor(container: identity, created: now, encryption: settings)
            guard try fileSystem.create(CloudJSON.encode(descriptor), at: path) else { continue }
            let container = try CloudContainer(
                fileSystem: fileSystem, name: name, identity: identity,
                sealing: FileSealing(key: key, container: identity))
            try container.writeKeyFile(file)
            return container
        }
        throw .io(path: fileSystem.absolutePath(of: path), reason: "it keeps disappearing while being read")
    }
}
