import Foundation

/// Who may read what a device writes into the cloud folder, by file modes.
///
/// Notes are private: by default a device writes files 0600 and folders 0700, as the store
/// does, whatever the umask, so that other accounts on a machine that holds the cloud folder
/// cannot read them. `group` (0640 and 0750) is for a cloud folder shared on purpose with a
/// group, such as a sync client running under another account.
public enum CloudAccess: String, Sendable, CaseIterable {
    case `private`
    case group

    var fileMode: mode_t { self == .group ? 0o640 : 0o600 }
    var folderMode: mode_t { self == .group ? 0o750 : 0o700 }
}
