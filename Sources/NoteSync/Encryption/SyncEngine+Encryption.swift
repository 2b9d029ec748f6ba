import Foundation
import NoteStore

/// What a passphrase is asked for.
public enum PassphraseRequest: Sendable, Equatable {
    /// The passphrase of a container being made: a prompt asks it twice.
    case create(container: String)
    /// The passphrase of an encrypted container, to unwrap its key once.
    case unlock(container: String)
    /// A new passphrase for the container (`notes sync passphrase`): a prompt asks it twice.
    case change(container: String)
}

/// Where the engine gets a passphrase when it needs one: nil when there is none to give (no
/// terminal, no file, no variable), and the engine then says how to give one.
public typealias PassphraseSource = (PassphraseRequest) throws -> String?

/// Encrypted containers in the engine (docs/sync-format.md, section 16): the key kept in the
/// store, unlocking with the passphrase, changing it, forgetting the key.
extension SyncEngine {
    /// The handle on the container sync is attached to, sealed with the container key when it
    /// is encrypted (kept in the store, or unwrapped now with the passphrase and kept).
    func containerHandle(_ state: SyncState) throws -> CloudContainer {
        guard let cloud = state.cloud, let name = state.containerName, let containerID = state.containerID else {
            throw SyncError.notEnabled
        }
        var container = try CloudContainer(
            cloud: cloud, name: name, identity: containerID, writer: store.deviceID, access: state.access)
        if state.encrypted {
            container.sealing = try Self.sealing(for: container, keptIn: store.folder, passphrase: passphrase)
        }
        return container
    }

    /// How the files of the encrypted `container` are sealed: with the key kept in `folder`,
    /// else with the key that a passphrase from `passphrase` unwraps from `key.json`, which is
    /// then kept. Nothing is written into the container.
    static func sealing(for container: CloudContainer, keptIn folder: URL, passphrase: PassphraseSource?) throws
        -> FileSealing
    {
        if let key = StoredKey.read(in: folder, container: container.identity) {
            return FileSealing(key: key, container: container.identity)
        }
        let key = try unlockedKey(of: container, passphrase: passphrase)
        try StoredKey.write(key, container: container.identity, in: folder)
        return FileSealing(key: key, container: container.identity)
    }

    /// The key of the encrypted `container`, unwrapped from `key.json` with a passphrase from
    /// `passphrase` and checked against `container.json`; nothing is written anywhere.
    static func unlockedKey(of container: CloudContainer, passphrase: PassphraseSource?) throws -> ContainerKey {
        let settings = try encryption(of: container)
        let file = try container.keyFile()
        guard let text = try passphrase?(.unlock(container: container.url.path)) else {
            throw SyncError.keyNeeded(container: container.url.path)
        }
        guard let key = file.unwrap(passphrase: text, settings: settings) else {
            throw SyncError.wrongPassphrase(path: container.url.path)
        }
        guard key.isKey(of: settings, container: container.identity) else {
            throw SyncError.encryption(
                "'\(container.url.path)/key.json' holds another key than the one container.json records: "
                    + "nothing was written"
            )
        }
        return key
    }

    /// The `encryption` of `container`'s `container.json`, read now; throws when it cannot be
    /// read, is not this container's, or is plain.
    static func encryption(of container: CloudContainer) throws -> EncryptionSettings {
        guard case let .present(descriptor) = container.descriptor(), let settings = descriptor.encryption,
            descriptor.container == container.identity
        else {
            throw SyncError.encryption(
                "cannot unlock '\(container.url.path)': its container.json is not that of "
                    + "the encrypted container this device attached to"
            )
        }
        return settings
    }

    /// The container `name` in `cloud` for `notes sync enable`: made encrypted when absent with
    /// `encrypt` (the passphrase asked as for a new container), else made plain when absent;
    /// an existing encrypted one is unlocked (asking nothing when the store keeps its key).
    /// Throws before anything is written into an existing container when the passphrase is
    /// wrong or missing, and for a plain one with `encrypt`.
    func containerForAttaching(cloud: URL, name: String, access: CloudAccess, encrypt: Bool) throws -> CloudContainer {
        let probe = try CloudContainer(
            cloud: cloud, name: name, identity: UUID(), writer: store.deviceID, access: access)
        var container: CloudContainer
        if encrypt, case .absent = probe.descriptor() {
            guard let text = try passphrase?(.create(container: probe.url.path)), !text.isEmpty else {
                throw SyncError.encryption(
                    "an encrypted container needs a passphrase: "
                        + "give it on a terminal, with NOTES_PASSPHRASE or --passphrase-file"
                )
            }
            container = try CloudContainer.createEncrypted(
                in: cloud, name: name, passphrase: text, keptIn: store.folder, writer: store.deviceID, access: access,
                scryptCost: hooks.scryptCost)
            if container.sealing != nil { return container }
            // Another device made it meanwhile: the passphrase given is the one to unlock it with.
            container.sealing = try Self.sealing(for: container, keptIn: store.folder, passphrase: { _ in text })
            return container
        }
        container = try CloudContainer.create(in: cloud, name: name, writer: store.deviceID, access: access)
        guard case let .present(descriptor) = container.descriptor(), let settings = descriptor.encryption else {
            if encrypt { throw SyncError.plainContainer(path: container.url.path) }
            return container
        }
        container.sealing = try Self.sealing(for: container, keptIn: store.folder, passphrase: passphrase)
        try restoreKeyFile(of: container, settings: settings)
        return container
    }

    /// Writes `key.json` again when it is certainly absent and this device holds the key: what
    /// the device that made the container does when it stopped before writing it.
    private func restoreKeyFile(of container: CloudContainer, settings: EncryptionSettings) throws {
        guard case .absent = container.filePresence(CloudName.keyFile, limit: KeyFile.sizeLimit),
            let key = StoredKey.read(in: store.folder, container: container.identity),
            key.isKey(of: settings, container: container.identity)
        else { return }
        guard let text = try passphrase?(.create(container: container.url.path)), !text.isEmpty else {
            throw SyncError.encryption(
                "the encrypted container '\(container.url.path)' has no key file key.json: give its passphrase "
                    + "(on a terminal, with NOTES_PASSPHRASE or --passphrase-file) to write it again")
        }
        try container.writeKeyFile(
            KeyFile.wrapping(key, container: container.identity, passphrase: text, settings: settings))
    }

    /// Changes the passphrase of the encrypted container sync is on with: the container key is
    /// wrapped anew under the new passphrase and `key.json` replaced. No file is encrypted
    /// again, and devices that hold the key go on without asking. Refused when `container.json`
    /// is not that of the key this device holds (its scrypt parameters changed, say).
    public func changePassphrase() throws {
        try locked {
            let state = try SyncState(store)
            guard state.state == .on else { throw SyncError.notEnabled }
            guard state.encrypted else {
                throw SyncError.encryption("the container this store syncs with is not encrypted: it has no passphrase")
            }
            let container = try containerHandle(state)
            let settings = try Self.encryption(of: container)
            guard let key = StoredKey.read(in: store.folder, container: container.identity),
                key.isKey(of: settings, container: container.identity)
            else {
                throw SyncError.encryption(
                    "the container.json of '\(container.url.path)' is not that of the key this device holds "
                        + "(changed in the folder?): the passphrase was not changed")
            }
            guard let text = try passphrase?(.change(container: container.url.path)), !text.isEmpty else {
                throw SyncError.encryption(
                    "give the new passphrase on a terminal, with NOTES_NEW_PASSPHRASE or --new-passphrase-file")
            }
            try container.writeKeyFile(
                KeyFile.wrapping(key, container: container.identity, passphrase: text, settings: settings))
        }
    }

    /// Removes the container key kept in the store; the next sync asks for the passphrase.
    /// Returns whether a key was kept.
    @discardableResult
    public func forgetKey() throws -> Bool {
        try locked { try StoredKey.remove(in: store.folder) }
    }

    /// Whether the container sync is attached to is encrypted, and whether this store holds
    /// its key.
    public func encryption() throws -> (encrypted: Bool, keyHeld: Bool) {
        let state = try SyncState(store)
        guard state.encrypted, let identity = state.containerID else { return (false, false) }
        return (true, StoredKey.read(in: store.folder, container: identity) != nil)
    }
}

extension SyncEngine {
    /// Makes sure the store holds the key of the encrypted container sync is on with,
    /// unwrapping it with a passphrase from ``passphrase`` when it does not; does nothing for
    /// a plain container. What `notes watch` does before it starts, since it asks nobody.
    public func unlock() throws {
        let state = try SyncState(store)
        guard state.state == .on, state.encrypted else { return }
        _ = try containerHandle(state)
    }
}

extension SyncEngine {
    /// Throws, having written nothing, when this store synced with an encrypted container at
    /// `cloud/name` and what is there now is plain or absent: its notes never go into the
    /// folder in the clear unless asked (`allowPlain`), whoever replaced the container.
    func refuseToGoPlain(cloud: URL, name: String, access: CloudAccess) throws {
        let state = try SyncState(store)
        guard state.encrypted, let previous = state.cloud, state.containerName == name,
            previous.standardizedFileURL.path == cloud.standardizedFileURL.path
        else { return }
        let probe = try CloudContainer(cloud: cloud, name: name, identity: UUID(), access: access)
        switch probe.descriptor() {
        case let .present(descriptor) where descriptor.encryption != nil: return
        case .unreadable: return
        case .present, .absent:
            throw SyncError.encryption(
                "this store synced with an encrypted container at '\(probe.url.path)', and the container there now is "
                    + "plain or gone: nothing was written; "
                    + "give --encrypt to make an encrypted one, or --allow-plain to sync in the clear"
            )
        }
    }
}
