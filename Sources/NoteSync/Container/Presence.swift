/// Whether a file of the container is there, told apart from not knowing.
///
/// `absent` is said only when it is certain: the folder that would hold the file could be
/// listed and the name is not in it (or a folder on the way is missing from a folder that
/// could be listed). An I/O error, a link, or a file that cannot be understood is
/// `unreadable`, with a message that names the file and says why (thrown as
/// ``SyncError/unreadable(_:)``, as it is): the sentinel check must never take a failing disk
/// or a damaged file for a container that was switched off.
public enum Presence<Value> {
    case present(Value)
    case absent
    case unreadable(String)

    /// The value when present.
    public var value: Value? {
        if case let .present(value) = self { return value }
        return nil
    }

    /// Whether the file is certainly not there.
    public var isAbsent: Bool {
        if case .absent = self { return true }
        return false
    }

    /// The reason the file could not be read, if it could not.
    public var unreadableReason: String? {
        if case let .unreadable(reason) = self { return reason }
        return nil
    }

    /// The same presence with the value transformed.
    public func map<Other>(_ transform: (Value) -> Other) -> Presence<Other> {
        switch self {
        case let .present(value): return .present(transform(value))
        case .absent: return .absent
        case let .unreadable(reason): return .unreadable(reason)
        }
    }
}

extension Presence: Sendable where Value: Sendable {}
extension Presence: Equatable where Value: Equatable {}
