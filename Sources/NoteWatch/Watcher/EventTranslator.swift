#if canImport(Glibc)
    import Glibc
#endif
import NoteFiles

/// Turns inotify events into ``WatchEvent``s, and keeps the watches in step with the folders:
/// it watches a folder that appears in the tree (inotify does not), and reports the files that
/// arrived in it before its watch existed; it unwatches a folder that moves away.
///
/// Used only on the watcher's thread.
final class EventTranslator {
    /// What a folder of the tree is watched for.
    static let treeMask: InotifyMask = [
        .create, .closeWrite, .movedTo, .movedFrom, .delete, .deleteSelf, .moveSelf,
        .onlyDirectory, .excludeUnlinked,
    ]

    private let instance: InotifyInstance
    private let folders: WatchedFolders
    private let report: (WatchError) -> Void
    private var table = WatchTable()

    /// - Parameter report: receives what went wrong while watching goes on (a new folder that
    ///   could not be watched, for instance).
    init(instance: InotifyInstance, folders: WatchedFolders, report: @escaping (WatchError) -> Void) {
        self.instance = instance
        self.folders = folders
        self.report = report
    }

    /// Watches the wake folder (made if missing), the folder of modified files and the root's
    /// parent.
    func watchFolders() throws(WatchError) {
        if mkdir(folders.wake, 0o700) != 0 && errno != EEXIST {
            throw .cannotWatch(path: folders.wake, reason: WatchError.reason(forErrno: errno))
        }
        var masks: [String: (InotifyMask, WatchTable.FolderRoles)] = [:]
        func add(_ path: String, _ mask: InotifyMask, _ role: WatchTable.FolderRoles) {
            let (known, roles) = masks[path] ?? ([.onlyDirectory], [])
            masks[path] = (known.union(mask), roles.union(role))
        }
        add(folders.wake, [.closeWrite], .wake)
        if let modifications = folders.modifications { add(modifications, [.modify, .movedTo], .modifications) }
        add(folders.rootParent, [.create, .movedTo], .rootParent)
        for (path, (mask, roles)) in masks {
            do {
                table.setFolder(try instance.addWatch(path, mask: mask), roles: roles)
            } catch {
                throw .cannotWatch(path: path, reason: WatchError.reason(forErrno: error.code))
            }
        }
    }

    /// Watches the tree; a root that does not exist is watched once it is made.
    func watchTree() throws(WatchError) {
        var ignored = EventBatch()
        if let failure = arm("", reportingFiles: false, into: &ignored), !Self.isGone(failure) {
            throw .cannotWatch(path: folders.root, reason: WatchError.reason(forErrno: failure.code))
        }
    }

    /// Whether an event is the watcher's own wake-up write.
    func isWakeEvent(_ event: RawEvent) -> Bool {
        guard event.name == WatchedFolders.wakeFileName, case let .folder(roles)? = table[event.watch] else {
            return false
        }
        return roles.contains(.wake)
    }

    /// Whether an event can be ignored from the start: the wake-up write, or an event about an
    /// entry of the tree whose name starts with `.` (a temporary file, or a folder that is not
    /// watched), which is never reported and changes no watch.
    func isIgnorable(_ event: RawEvent) -> Bool {
        if isWakeEvent(event) { return true }
        guard event.name.hasPrefix("."), case .tree? = table[event.watch] else { return false }
        return true
    }

    func translate(_ events: [RawEvent]) -> [WatchEvent] {
        var batch = EventBatch()
        for event in events { translate(event, into: &batch) }
        return batch.events
    }

    private func translate(_ event: RawEvent, into batch: inout EventBatch) {
        if event.mask.contains(.queueOverflow) {
            // Events were lost, among them maybe folders made: look at everything again.
            batch.append(.rescan)
            if let failure = arm("", reportingFiles: false, into: &batch), !Self.isGone(failure) {
                report(.cannotWatch(path: folders.root, reason: WatchError.reason(forErrno: failure.code)))
            }
            return
        }
        guard let role = table[event.watch] else { return }
        if event.mask.contains(.ignored) {
            table.forget(event.watch)
            return
        }
        switch role {
        case let .tree(folder): translateTreeEvent(event, in: folder, into: &batch)
        case let .folder(roles): translateFolderEvent(event, roles: roles, into: &batch)
        }
    }

    private func translateTreeEvent(_ event: RawEvent, in folder: String, into batch: inout EventBatch) {
        if event.name.isEmpty {
            // The watched folder itself. A folder below the root that moves away is reported
            // by its parent's IN_MOVED_FROM; the root has no watched parent in the tree.
            if event.mask.contains(.deleteSelf) {
                batch.append(.removed(folder))
            } else if event.mask.contains(.moveSelf) && folder.isEmpty {
                unwatchTree(under: "")
                batch.append(.removed(""))
            }
            return
        }
        let path = folder.isEmpty ? event.name : folder + "/" + event.name
        let isHidden = Self.isHidden(path)
        if event.mask.contains(.movedFrom) && event.isDirectory {
            // Its watches would report under the old path: if it moved within the tree, its
            // IN_MOVED_TO watches it again under the new one.
            unwatchTree(under: path)
        }
        if event.mask.contains(.delete) || event.mask.contains(.movedFrom) {
            if !isHidden { batch.append(.removed(path)) }
        } else if isHidden {
            return
        } else if event.isDirectory {
            if event.mask.contains(.create) || event.mask.contains(.movedTo) {
                if let failure = arm(path, reportingFiles: true, into: &batch), !Self.isGone(failure) {
                    report(
                        .cannotWatch(path: folders.absolute(path), reason: WatchError.reason(forErrno: failure.code)))
                }
            }
        } else if !event.mask.isDisjoint(with: [.create, .closeWrite, .movedTo]) {
            batch.append(.fileReady(path))
        }
    }

    private func translateFolderEvent(_ event: RawEvent, roles: WatchTable.FolderRoles, into batch: inout EventBatch) {
        guard !event.name.isEmpty else { return }
        if roles.contains(.rootParent), event.name == folders.rootName, event.isDirectory,
            !event.mask.isDisjoint(with: [.create, .movedTo])
        {
            // The root was made (again): drop the watches of any old one, watch the new one,
            // and have everything in it looked at.
            unwatchTree(under: "")
            if let failure = arm("", reportingFiles: false, into: &batch) {
                if !Self.isGone(failure) {
                    report(.cannotWatch(path: folders.root, reason: WatchError.reason(forErrno: failure.code)))
                }
            } else {
                batch.append(.rescan)
            }
        }
        if roles.contains(.modifications), !event.isDirectory, !event.name.hasPrefix("."),
            !event.mask.isDisjoint(with: [.modify, .movedTo])
        {
            batch.append(.modified(event.name))
        }
    }

    /// Watches the tree folder at `relative` and every folder below it whose name does not start
    /// with `.`; with `reportingFiles`, reports the files found in them.
    ///
    /// The watch is added before the folder is listed, so a file arriving meanwhile is listed,
    /// or reported by its event, or both. Returns the failure to watch the folder itself;
    /// failures below it are reported.
    private func arm(_ relative: String, reportingFiles: Bool, into batch: inout EventBatch) -> InotifyFailure? {
        let path = folders.absolute(relative)
        // The root may be a link the user chose; nothing below it is followed.
        let mask = relative.isEmpty ? Self.treeMask : Self.treeMask.union(.dontFollow)
        do {
            table.setTree(try instance.addWatch(path, mask: mask), path: relative)
        } catch {
            return error
        }
        // A folder gone meanwhile has nothing to arm.
        for entry in (try? FolderListing.entries(of: path)) ?? [] where !entry.name.hasPrefix(".") {
            let child = relative.isEmpty ? entry.name : relative + "/" + entry.name
            if entry.kind != .folder {
                if reportingFiles { batch.append(.fileReady(child)) }
            } else if let failure = arm(child, reportingFiles: reportingFiles, into: &batch), !Self.isGone(failure) {
                report(.cannotWatch(path: folders.absolute(child), reason: WatchError.reason(forErrno: failure.code)))
            }
        }
        return nil
    }

    /// Removes the watches of the tree folder at `relative` and below it ("" for all the tree).
    private func unwatchTree(under relative: String) {
        for watch in table.treeWatches(under: relative) {
            instance.removeWatch(watch)
            table.forget(watch)
        }
    }

    /// Whether a failure to watch means that the folder is no longer there (or no longer a
    /// folder): nothing to report, its removal is.
    private static func isGone(_ failure: InotifyFailure) -> Bool {
        failure.code == ENOENT || failure.code == ENOTDIR
    }

    /// Whether a path relative to the root has a component starting with `.`.
    static func isHidden(_ path: String) -> Bool {
        path.split(separator: "/").contains { $0.hasPrefix(".") }
    }
}
