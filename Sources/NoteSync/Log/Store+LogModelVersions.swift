import NoteStore

/// The model versions that logs carry, by what a log holds (docs/sync-format.md, "Versions"):
/// each log carries the lowest that reads it whole, so that older builds apply every log they
/// understand. ``LogCodec/modelVersionWithDeltas`` is another. Which one a log needs is for
/// sync to decide; the store knows only the version it writes, ``Store/currentModelVersion``.
extension Store {
    /// The model version of a log that carries no tag change: what builds of model 4 still
    /// read (docs/sync-format.md, "Versions").
    public static let modelVersionWithoutTags = 4
    /// The model version of a log that carries a tag change or a version edited from a merge.
    /// Model 6 changed only how the store keeps history, not what logs carry: no log needs
    /// more than 5 for these (docs/sync-format.md, "Versions").
    public static let modelVersionWithTags = 5
    /// The model version of a log that carries a property change or a file attachment: what
    /// builds before properties and files wait on.
    public static let modelVersionWithProperties = 10
}
