import Foundation

/// One name in a folder of the cloud, as `lstat(2)` sees it: a link is reported as a link,
/// never as what it points to.
public struct CloudEntry: Equatable, Sendable {
    /// What kind of file system object a name is.
    public enum Kind: Equatable, Sendable {
        case file
        case folder
        case symbolicLink
        /// A device, socket, FIFO or anything else that is neither file, folder nor link.
        case other
    }

    /// The name in its folder, without any separator.
    public var name: String
    public var kind: Kind
    /// The size in bytes, as `lstat(2)` reports it (for a link, the length of its target).
    public var size: Int64
    /// When it was last modified, when known.
    public var modified: Date?
    /// Its inode number, when known: a file replaced under the same name has another one.
    public var inode: UInt64?

    public init(name: String, kind: Kind, size: Int64, modified: Date? = nil, inode: UInt64? = nil) {
        self.name = name
        self.kind = kind
        self.size = size
        self.modified = modified
        self.inode = inode
    }
}
