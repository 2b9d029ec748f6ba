import CInotifyTools

/// The bits of an inotify watch mask or event mask, as inotify(7) names them.
struct InotifyMask: OptionSet, Sendable {
    let rawValue: UInt32

    static let modify = InotifyMask(rawValue: CINOTIFY_MODIFY)
    static let closeWrite = InotifyMask(rawValue: CINOTIFY_CLOSE_WRITE)
    static let movedFrom = InotifyMask(rawValue: CINOTIFY_MOVED_FROM)
    static let movedTo = InotifyMask(rawValue: CINOTIFY_MOVED_TO)
    static let create = InotifyMask(rawValue: CINOTIFY_CREATE)
    static let delete = InotifyMask(rawValue: CINOTIFY_DELETE)
    static let deleteSelf = InotifyMask(rawValue: CINOTIFY_DELETE_SELF)
    static let moveSelf = InotifyMask(rawValue: CINOTIFY_MOVE_SELF)

    /// Only in events: the file system of the watched folder was unmounted.
    static let unmount = InotifyMask(rawValue: CINOTIFY_UNMOUNT)
    /// Only in events: the kernel's queue overflowed and events were lost (`wd` is -1).
    static let queueOverflow = InotifyMask(rawValue: CINOTIFY_Q_OVERFLOW)
    /// Only in events: the watch was removed, by `inotify_rm_watch` or because its folder is gone.
    static let ignored = InotifyMask(rawValue: CINOTIFY_IGNORED)
    /// Only in events: the entry the event names is a folder.
    static let isDirectory = InotifyMask(rawValue: CINOTIFY_ISDIR)

    /// Only when adding a watch: fail unless the path is a folder.
    static let onlyDirectory = InotifyMask(rawValue: CINOTIFY_ONLYDIR)
    /// Only when adding a watch: do not follow a symbolic link.
    static let dontFollow = InotifyMask(rawValue: CINOTIFY_DONT_FOLLOW)
    /// Only when adding a watch: no events for entries after they were unlinked.
    static let excludeUnlinked = InotifyMask(rawValue: CINOTIFY_EXCL_UNLINK)
}
