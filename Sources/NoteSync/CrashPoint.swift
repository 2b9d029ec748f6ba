/// Named points in export and import where a process can be made to die at once, to test that
/// a sync stopped anywhere loses nothing and applies nothing twice.
///
/// A process dies at a point only when its ``SyncHooks`` ask it to (`NOTES_CRASH_AT` for
/// `notes`); otherwise reaching a point does nothing.
enum CrashPoint: String {
    case blobPublished = "export.blob"
    case logWritten = "export.log"
    case exportCommitted = "export.commit"
    case importRead = "import.read"
    /// Inside the import's transaction, once per change applied.
    case importApplying = "import.apply"
    case importCommitted = "import.commit"
    /// After a baseline's database was copied out of the store, before it is published.
    case baselineCopied = "baseline.copy"
    /// After a baseline's files were published, before the store records it.
    case baselinePublished = "baseline.publish"
    /// After a joining device copied and checked a baseline, before it becomes its store.
    case joinVerified = "join.verify"
    /// After a joining device's store was made from a baseline, before sync records it.
    case joinLinked = "join.link"
    /// After compaction removed one of this device's logs.
    case compactionRemoved = "compact.remove"
}
