import Foundation
import NoteStore

/// The decisions of enabling sync (`notes sync enable`): joining a container from its
/// baseline or enabling the store as it is, the cloud folder, container and device name that
/// apply when none is given, and whether moving to another container needs the user's word.
extension SyncEngine {
    /// What enabling was asked for; each value nil when it was not given.
    public struct EnableRequest: Sendable {
        /// The shared cloud folder.
        public var cloud: URL?
        /// The container's name.
        public var containerName: String?
        /// This device's name.
        public var deviceName: String?
        /// Whether attaching to another container than the one sync is on with was asked for.
        public var move: Bool

        public init(cloud: URL?, containerName: String?, deviceName: String?, move: Bool) {
            self.cloud = cloud
            self.containerName = containerName
            self.deviceName = deviceName
            self.move = move
        }
    }

    /// Where enabling attaches the store, and under which device name.
    public struct EnableTarget: Sendable, Equatable {
        public var cloud: URL
        public var containerName: String
        public var deviceName: String

        /// The container's folder, as `sync on` names it.
        public var folder: URL { cloud.appendingPathComponent(containerName).standardizedFileURL }
    }

    /// What enabling does before the store is opened.
    public enum EnableStart: Sendable, Equatable {
        /// Nothing can be done: no cloud folder was given, and the store has none recorded
        /// (it has no database yet).
        case noCloudFolder
        /// The store folder has no database: try to join the container from its newest
        /// baseline (``join(folder:cloud:containerName:deviceName:access:progress:passphrase:encrypt:hooks:)``);
        /// when that makes nothing, open the store and enable it.
        case join(EnableTarget)
        /// Open the store and enable it (``decideEnabling(_:)``).
        case openStore
    }

    /// What enabling does with the store open.
    public enum EnableDecision: Sendable, Equatable {
        /// No cloud folder was given, and the store was never attached to one.
        case noCloudFolder
        /// Attach to the target (``enable(cloud:containerName:deviceName:access:encrypt:allowPlain:)``).
        case attach(EnableTarget)
        /// Sync is on with another container, at `current`, and moving was not asked for:
        /// attach to the target only when the user agrees, else refuse.
        case confirmMove(current: String, target: EnableTarget)
    }

    /// Decides, for the store folder `folder`, what enabling does before the store is opened:
    /// a store folder without a database and a cloud folder given joins from a baseline first.
    public static func enableStart(_ request: EnableRequest, storeFolder folder: URL) -> EnableStart {
        let databaseExists = Store.hasDatabase(in: folder)
        guard let cloud = request.cloud else { return databaseExists ? .openStore : .noCloudFolder }
        if databaseExists { return .openStore }
        return .join(
            EnableTarget(
                cloud: cloud, containerName: request.containerName ?? defaultContainerName,
                deviceName: request.deviceName ?? defaultDeviceName(for: folder)))
    }

    /// Decides where enabling attaches this store: what the request gives, else what the store
    /// was last attached to, else the defaults (``defaultContainerName``,
    /// ``defaultDeviceName(for:)``). Moving away from the container sync is on with needs
    /// the request's `move`, or the user's word.
    public func decideEnabling(_ request: EnableRequest) throws -> EnableDecision {
        let last = try lastAttachment()
        guard let cloud = request.cloud ?? last?.cloud else { return .noCloudFolder }
        let target = EnableTarget(
            cloud: cloud, containerName: request.containerName ?? last?.containerName ?? Self.defaultContainerName,
            deviceName: request.deviceName ?? last?.deviceName ?? Self.defaultDeviceName(for: store.folder))
        if let last, last.isOn,
            last.cloud.appendingPathComponent(last.containerName).standardizedFileURL != target.folder,
            !request.move
        {
            return .confirmMove(current: last.cloud.appendingPathComponent(last.containerName).path, target: target)
        }
        return .attach(target)
    }
}
