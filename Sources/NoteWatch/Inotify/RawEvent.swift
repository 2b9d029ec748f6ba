/// One inotify event, copied out of libinotifytools' static buffer, which the next read reuses.
struct RawEvent: Sendable, Equatable {
    /// The watch the event came through; -1 for a queue overflow.
    let watch: Int32
    let mask: InotifyMask
    /// Pairs the `IN_MOVED_FROM` and `IN_MOVED_TO` events of one rename.
    let cookie: UInt32
    /// The entry inside the watched folder; empty for an event about the folder itself.
    let name: String

    var isDirectory: Bool { mask.contains(.isDirectory) }
}
