import Foundation
import NoteSync

extension SyncHooks {
    /// The hooks that tests give a `notes` process through its environment: `NOTES_CRASH_AT`,
    /// `NOTES_SCRYPT_COST`, `NOTES_ACKNOWLEDGE_SECONDS` and `NOTES_COMMIT_CHECK_SECONDS`
    /// (CONTRIBUTING.md, "Test hooks").
    /// Read once: a crash point counts its passes over the whole process.
    static let environment: SyncHooks = {
        let environment = ProcessInfo.processInfo.environment
        return SyncHooks(
            crashAt: environment["NOTES_CRASH_AT"], scryptCost: environment["NOTES_SCRYPT_COST"],
            acknowledgementSeconds: environment["NOTES_ACKNOWLEDGE_SECONDS"],
            commitCheckSeconds: environment["NOTES_COMMIT_CHECK_SECONDS"])
    }()
}
