import Foundation

/// The registrations of attached devices: `devices/<device>.json`.
extension CloudContainer {
    /// Writes (or replaces) the registration of a device, atomically.
    ///
    /// A device writes only its own registration. Throws
    /// ``SyncError/wrongContainer(path:expected:found:)`` for a registration of another
    /// container, which every device would skip as foreign.
    public func register(_ registration: DeviceRegistration) throws(SyncError) {
        let relative = registrationPath(of: registration.device)
        guard registration.container == identity else {
            throw .wrongContainer(path: absolutePath(relative), expected: identity, found: registration.container)
        }
        try fileSystem.write(sealed(CloudJSON.encode(registration), relative), to: path(relative))
    }

    /// The registration of `device`, read now.
    ///
    /// `absent` only when certain (see ``Presence``). A registration that is a link, too
    /// large, not understood, or of another device or container is `unreadable`, with the
    /// reason.
    public func registration(of device: UUID) -> Presence<DeviceRegistration> {
        let relative = registrationPath(of: device)
        switch filePresence(relative, limit: DeviceRegistration.sizeLimit) {
        case .absent: return .absent
        case let .unreadable(reason): return .unreadable(reason)
        case let .present(data):
            switch decodeRegistration(data, device: device) {
            case let .success(registration): return .present(registration)
            case let .failure(skip): return .unreadable("'\(absolutePath(relative))': \(skip.reason)")
            }
        }
    }

    /// Removes the registration of `device`, if there is one (`notes sync disable --forget`).
    public func removeRegistration(of device: UUID) throws(SyncError) {
        do {
            try fileSystem.remove(path(registrationPath(of: device)))
        } catch {
            if case .missing = error { return }
            throw error
        }
    }

    /// Every valid registration in `devices/`, by device, and the files that were skipped.
    ///
    /// Skipped and reported: names other than `<lowercase uuid>.json`, links, folders and
    /// other non-files, files over ``DeviceRegistration/sizeLimit``, files that cannot be read
    /// or understood, registrations of another container or of another device than their
    /// name. Names starting with `.` are ignored. Throws when `devices/` cannot be listed; a
    /// missing `devices/` has no registrations.
    public func devices() throws(SyncError) -> (registrations: [DeviceRegistration], skipped: [SkippedFile]) {
        var registrations: [DeviceRegistration] = []
        var skipped: [SkippedFile] = []
        for entry in try visibleEntries(of: CloudName.devices) {
            let relative = CloudName.devices + "/" + entry.name
            switch registration(in: entry, device: CloudName.device(ofRegistration: entry.name)) {
            case let .read(registration): registrations.append(registration)
            case let .skipped(reason): skipped.append(SkippedFile(path: relative, reason: reason))
            case .gone: continue
            }
        }
        return (registrations, skipped)
    }

    /// The registration in one entry of `devices/`, the reason it is skipped, or nil when it
    /// disappeared since it was listed.
    private func registration(in entry: CloudEntry, device: UUID?) -> RegistrationReading {
        guard let device else { return .skipped(.badlyNamed) }
        if let reason = SkippedFile.Reason(entry, expected: .file) { return .skipped(reason) }
        let relative = CloudName.devices + "/" + entry.name
        let limit = storedLimit(DeviceRegistration.sizeLimit, relative)
        guard entry.size <= limit else { return .skipped(.tooLarge) }
        let data: Data
        do {
            data = try opened(fileSystem.read(path(relative), limit: limit), relative)
        } catch {
            if case .missing = error { return .gone }
            return .skipped(SkippedFile.Reason(error))
        }
        switch decodeRegistration(data, device: device) {
        case let .success(registration): return .read(registration)
        case let .failure(skip): return .skipped(skip.reason)
        }
    }

    /// The registration in `data`, checked to be of this container and of `device`.
    private func decodeRegistration(_ data: Data, device: UUID) -> Result<DeviceRegistration, Skip> {
        switch CloudJSON.decodeRemembered(DeviceRegistration.self, from: data) {
        case let .failure(problem):
            return .failure(Skip(reason: .unreadable("not a device registration: \(problem.reason)")))
        case let .success(registration) where registration.container != identity:
            return .failure(Skip(reason: .foreignContainer))
        case let .success(registration) where registration.device != device:
            return .failure(Skip(reason: .wrongDevice))
        case let .success(registration):
            return .success(registration)
        }
    }

    func registrationPath(of device: UUID) -> String {
        CloudName.devices + "/" + CloudName.registration(of: device)
    }
}

/// Why a registration that was read is not used.
private struct Skip: Error {
    var reason: SkippedFile.Reason
}

/// The outcome of reading one registration file.
private enum RegistrationReading {
    case read(DeviceRegistration)
    case skipped(SkippedFile.Reason)
    /// Removed since its folder was listed: nothing to report.
    case gone
}
