import Foundation

/// Why sync is in the state it is (``SyncRecord/reason``), as `notes sync status` says it.
///
/// Kept as a code and a detail (`sync_record.reason`, `reason_detail`); ``description`` is the
/// text the person reads.
public enum SyncStateReason: Equatable, Sendable, CustomStringConvertible {
    /// `notes sync enable` is attaching the device.
    case beingEnabled
    /// The person disabled sync; with `registrationRemoved`, the device's registration was removed too.
    case disabled(registrationRemoved: Bool)
    /// The container's sentinel is gone.
    case sentinelGone
    /// The container has a format version newer than this build understands.
    case newerFormat(Int)
    /// The sentinel names another container than the one the device attached to.
    case anotherContainer(found: UUID, attached: UUID)
    /// The sentinel no longer says the container is encrypted.
    case noLongerEncrypted
    /// The sentinel says the container is encrypted, which it was not.
    case nowEncrypted
    /// The sentinel records another key, or other scrypt parameters, than the device's key.
    case anotherKey
    /// The device's registration is gone.
    case registrationGone(device: UUID)
    /// A reason written by another build, as it wrote it.
    case other(String)

    public var description: String {
        switch self {
        case .beingEnabled: "being enabled"
        case .disabled(let removed): removed ? "disabled, registration removed" : "disabled"
        case .sentinelGone:
            "the container's sentinel container.json is gone: sync was switched off or the container was wiped"
        case .newerFormat(let version):
            "the container has format version \(version), newer than this build understands; "
                + "update notes to sync with it"
        case .anotherContainer(let found, let attached):
            "the container is another one (identity \(found.storeString), "
                + "this device attached to \(attached.storeString)); nothing was merged or deleted"
        case .noLongerEncrypted: "the container's sentinel no longer says it is encrypted: nothing was written to it"
        case .nowEncrypted:
            "the container's sentinel now says it is encrypted, which it was not: nothing was written to it"
        case .anotherKey:
            "the container's sentinel records another key, or other scrypt parameters, than this device's key: "
                + "nothing was written to it"
        case .registrationGone(let device): "this device's registration devices/\(device.storeString).json is gone"
        case .other(let text): text
        }
    }

    /// The code kept in `sync_record.reason`.
    var code: String {
        switch self {
        case .beingEnabled: "being-enabled"
        case .disabled(let removed): removed ? "disabled-unregistered" : "disabled"
        case .sentinelGone: "sentinel-gone"
        case .newerFormat: "newer-format"
        case .anotherContainer: "another-container"
        case .noLongerEncrypted: "no-longer-encrypted"
        case .nowEncrypted: "now-encrypted"
        case .anotherKey: "another-key"
        case .registrationGone: "registration-gone"
        case .other: "other"
        }
    }

    /// What the code alone does not say, kept in `sync_record.reason_detail`.
    var detail: String? {
        switch self {
        case .newerFormat(let version): String(version)
        case .anotherContainer(let found, let attached): found.storeString + " " + attached.storeString
        case .registrationGone(let device): device.storeString
        case .other(let text): text
        default: nil
        }
    }

    /// The reason kept as `code` and `detail`; nil when they are not one.
    init?(code: String, detail: String?) {
        switch (code, detail) {
        case ("being-enabled", nil): self = .beingEnabled
        case ("disabled", nil): self = .disabled(registrationRemoved: false)
        case ("disabled-unregistered", nil): self = .disabled(registrationRemoved: true)
        case ("sentinel-gone", nil): self = .sentinelGone
        case ("newer-format", let detail?):
            guard let version = Int(detail) else { return nil }
            self = .newerFormat(version)
        case ("another-container", let detail?):
            let ids = detail.split(separator: " ").compactMap { UUID(storeText: String($0)) }
            guard ids.count == 2 else { return nil }
            self = .anotherContainer(found: ids[0], attached: ids[1])
        case ("no-longer-encrypted", nil): self = .noLongerEncrypted
        case ("now-encrypted", nil): self = .nowEncrypted
        case ("another-key", nil): self = .anotherKey
        case ("registration-gone", let detail?):
            guard let device = UUID(storeText: detail) else { return nil }
            self = .registrationGone(device: device)
        case ("other", let detail?): self = .other(detail)
        default: return nil
        }
    }

    /// The reason whose text is `text`, as the key-value ledger of earlier builds kept it.
    init(text: String) {
        let fixed: [SyncStateReason] = [
            .beingEnabled, .disabled(registrationRemoved: false), .disabled(registrationRemoved: true), .sentinelGone,
            .noLongerEncrypted, .nowEncrypted, .anotherKey,
        ]
        if let known = fixed.first(where: { $0.description == text }) {
            self = known
            return
        }
        let words = text.split(separator: " ")
        if text.hasPrefix("the container has format version "), words.count > 5,
            let version = Int(words[5].trimmingCharacters(in: [","])), Self.newerFormat(version).description == text
        {
            self = .newerFormat(version)
        } else if text.hasPrefix("the container is another one (identity "), words.count > 11,
            let found = UUID(storeText: words[6].trimmingCharacters(in: [","])),
            let attached = UUID(storeText: words[11].trimmingCharacters(in: [")", ";"])),
            Self.anotherContainer(found: found, attached: attached).description == text
        {
            self = .anotherContainer(found: found, attached: attached)
        } else if text.hasPrefix("this device's registration devices/"), words.count > 3,
            let device = UUID(storeText: String(words[3].dropFirst("devices/".count).dropLast(".json".count))),
            Self.registrationGone(device: device).description == text
        {
            self = .registrationGone(device: device)
        } else {
            self = .other(text)
        }
    }
}
