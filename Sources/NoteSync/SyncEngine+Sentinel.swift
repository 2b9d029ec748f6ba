import Foundation
import NoteStore

/// The sentinel step of a sync (docs/sync-format.md, "Sentinel, identity and sync states"):
/// `container.json` and this device's registration are checked before anything is written
/// to the cloud, and a device whose container is definitely gone, or is another one,
/// detaches and keeps every local note.
extension SyncEngine {
    /// The sentinel step: joins the container kept in place of this one when both were created
    /// at once (returning the report of attaching), else checks the sentinel and this device's
    /// registration (``checkSentinel(_:sentinel:expected:)``), and records whether another
    /// device shares the container.
    func confirmSentinel(_ container: CloudContainer, state: SyncState, scope: ImportScope) throws -> SyncReport? {
        let sentinel = settledDescriptor(container)
        if let adopted = try joinConcurrentContainer(container, sentinel: sentinel, state: state) { return adopted }
        try checkSentinel(container, sentinel: sentinel, expected: container.identity)
        if scope == .everything && !state.containerShared { try noteSharing(container) }
        return nil
    }

    /// Checks the sentinel and this device's registration; detaches when either is
    /// definitely gone or the container is another one.
    func checkSentinel(_ container: CloudContainer, sentinel: Presence<ContainerDescriptor>, expected: UUID) throws {
        switch sentinel {
        case let .unreadable(message):
            throw SyncError.unreadable(message)
        case .absent:
            try detach(.sentinelGone)
        case let .present(descriptor) where descriptor.isNewerFormat:
            try detach(.newerFormat(descriptor.formatVersion))
        case let .present(descriptor) where descriptor.container != expected:
            try detach(.anotherContainer(found: descriptor.container, attached: expected))
        case let .present(descriptor) where descriptor.encryption == nil && container.sealing != nil:
            try detach(.noLongerEncrypted)
        case let .present(descriptor) where descriptor.encryption != nil && container.sealing == nil:
            try detach(.nowEncrypted)
        case let .present(descriptor)
        where descriptor.encryption.map { container.sealing?.isKey(of: $0) == false } == true:
            try detach(.anotherKey)
        case .present:
            break
        }
        switch container.registration(of: store.deviceID) {
        case let .unreadable(message):
            throw SyncError.unreadable(message)
        case .absent:
            if try registerAfterReplacement(container, containerID: expected) { break }
            try detach(.registrationGone(device: store.deviceID))
        case .present:
            break
        }
    }

    /// How long a sentinel found absent is looked for again before sync goes off: a file-sync
    /// engine that resolves a conflict on `container.json` moves the local file aside before it
    /// puts the kept one in its place.
    static let sentinelGrace: TimeInterval = 0.5

    /// The sentinel, read now; when it is absent, read again until it is back or
    /// ``sentinelGrace`` has passed.
    private func settledDescriptor(_ container: CloudContainer) -> Presence<ContainerDescriptor> {
        var found = container.descriptor()
        let deadline = Date().addingTimeInterval(Self.sentinelGrace)
        while case .absent = found, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            found = container.descriptor()
        }
        return found
    }

    /// How far apart two containers' creations may be to count as one made twice at once.
    static let concurrentCreationWindow: TimeInterval = 86400

    /// Two devices that created the container at once on two hosts, before the file-sync
    /// engine carried either, find one of the two sentinels kept by the engine: the device whose
    /// container lost attaches to the one kept, pushing its notes into it, with no action by the
    /// user (docs/sync-format.md, "Sentinel, identity and sync states"). Told apart from a
    /// container that replaced this one later: both were created within
    /// ``concurrentCreationWindow`` of each other, and this device never saw another device
    /// registered in its container (it records when it does). Returns the report of
    /// attaching, or nil when it is not that case.
    private func joinConcurrentContainer(
        _ container: CloudContainer, sentinel: Presence<ContainerDescriptor>, state: SyncState
    ) throws -> SyncReport? {
        guard !state.containerShared, case let .present(found) = sentinel, found.container != state.containerID,
            !found.isNewerFormat, (found.encryption != nil) == state.encrypted,
            let created = state.containerCreated,
            abs(found.created.timeIntervalSince(created)) <= Self.concurrentCreationWindow,
            let cloud = state.cloud, let name = state.containerName,
            try !container.devices().registrations.contains(where: { $0.device != store.deviceID })
        else { return nil }
        var report = try attach(
            cloud: cloud, containerName: name, deviceName: state.deviceName ?? store.deviceID.storeString,
            access: state.access)
        report.joinedContainer = found.container
        return report
    }

    /// Records, once, that another device registered in this device's container: from then
    /// on a container found in its place is never taken for one created at the same time.
    private func noteSharing(_ container: CloudContainer) throws {
        guard try container.devices().registrations.contains(where: { $0.device != store.deviceID }) else { return }
        try store.recordSync { ledger in try ledger.update { $0.containerShared = true } }
    }

    private func detach(_ reason: SyncStateReason) throws -> Never {
        try setState(.off, reason: reason)
        throw SyncError.detached(reason: reason.description)
    }
}
