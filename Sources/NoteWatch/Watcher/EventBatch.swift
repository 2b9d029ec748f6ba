/// The events of one handler call, in the order they happened, without repeats.
///
/// An event equal to the last one reported for the same path is dropped: a file linked and
/// then closed, a folder deleted (`IN_DELETE` in its parent, then its own `IN_DELETE_SELF`),
/// a file written page by page (`IN_MODIFY`, again and again) each report once. Changes back
/// and forth are kept: `.fileReady(p)`, `.removed(p)`, `.fileReady(p)` are three events.
struct EventBatch {
    private(set) var events: [WatchEvent] = []
    private var lastByKey: [String: WatchEvent] = [:]

    var isEmpty: Bool { events.isEmpty }

    mutating func append(_ event: WatchEvent) {
        let key: String
        switch event {
        case let .fileReady(path), let .removed(path): key = "tree:" + path
        case let .modified(name): key = "modified:" + name
        case .rescan: key = "rescan"
        }
        guard lastByKey[key] != event else { return }
        lastByKey[key] = event
        events.append(event)
    }
}
