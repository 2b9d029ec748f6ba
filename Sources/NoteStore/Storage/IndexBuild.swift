/// How far the build of a derived index has come, while it is built a part at a time
/// (``Store/trigramIndexBuild()``, ``Store/linkIndexBuild()``).
public struct IndexBuild: Sendable, Equatable {
    /// The items it holds the entries of.
    public let built: Int
    /// The items of the store.
    public let items: Int
}
