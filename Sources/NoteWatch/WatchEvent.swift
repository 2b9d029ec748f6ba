/// What a ``DirectoryWatcher`` reports: file events, never what a file means.
///
/// Paths are relative to the watched root, with `/` between components; the empty path is the
/// root itself. Names starting with `.` (temporary files) are never reported, nor is anything
/// inside a folder whose name starts with `.`.
public enum WatchEvent: Hashable, Sendable {
    /// A file is ready to read: it was renamed (`IN_MOVED_TO`) or hard-linked (`IN_CREATE`) to
    /// its name, or closed after writing (`IN_CLOSE_WRITE`); or it was found in a folder that
    /// appeared, when the folder's watch was added.
    ///
    /// The container's writers publish a file complete under its final name, by `rename(2)` or
    /// `link(2)` (docs/sync-format.md); `link(2)` makes only an `IN_CREATE`. A file may be
    /// reported more than once.
    case fileReady(String)
    /// A file or folder disappeared: deleted, or moved away (`IN_DELETE`, `IN_MOVED_FROM`,
    /// `IN_DELETE_SELF`, `IN_MOVE_SELF`). `.removed("")` is the root itself.
    case removed(String)
    /// A file in the folder of modified files was written (`IN_MODIFY`) or renamed into it
    /// (`IN_MOVED_TO`): its name in that folder.
    case modified(String)
    /// Events may have been missed: at start-up, after the kernel's event queue overflowed
    /// (`IN_Q_OVERFLOW`), or when the root appeared again. The receiver looks at everything.
    case rescan
}
