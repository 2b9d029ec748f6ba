import Foundation

/// The waiting logs and skipped files of the last sync, kept for `notes sync status`.
enum LastReport {
    static func encode(_ report: SyncReport) -> String {
        let object: [String: Any] = [
            "waiting": report.waiting.map { ["path": $0.path, "reason": $0.reason] },
            "skipped": report.skipped.map { ["path": $0.path, "reason": $0.reason.description] },
        ]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    static func decode(_ text: String?) -> (waiting: [SyncStatus.Waiting], skipped: [SkippedFile]) {
        guard let text, let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            return ([], [])
        }
        func pairs(_ key: String) -> [(String, String)] {
            (object[key] as? [[String: String]] ?? []).compactMap { entry in
                guard let path = entry["path"], let reason = entry["reason"] else { return nil }
                return (path, reason)
            }
        }
        return (
            pairs("waiting").map { SyncStatus.Waiting(path: $0.0, reason: $0.1) },
            pairs("skipped").map { SkippedFile(path: $0.0, reason: SkippedFile.Reason(reported: $0.1)) }
        )
    }
}

extension SkippedFile.Reason {
    /// The reason from its description, as a status report kept it.
    init(reported text: String) {
        let known: [SkippedFile.Reason] = [
            .badlyNamed, .symbolicLink, .notAFile, .notAFolder, .tooLarge, .foreignContainer, .missingBase,
            .wrongDevice,
        ]
        self =
            known.first { $0.description == text }
            ?? .unreadable(String(text.dropFirst(text.hasPrefix("unreadable: ") ? 12 : 0)))
    }
}
