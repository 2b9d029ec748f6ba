import ArgumentParser

/// One benchmark: it sets up its data in the workbench's scratch folder, measures, and
/// reports figures, ratios and the targets it checks.
protocol Scenario {
    func run(on bench: Workbench) throws -> ScenarioReport
}

/// The scenarios, by the name given to `--scenario`, in the order they run.
enum ScenarioName: String, CaseIterable, ExpressibleByArgument, Sendable {
    case localSave = "local-save"
    case listing
    case browser
    case insert
    case `import`
    case syncLatency = "sync-latency"
    case sustained
    case catchUp = "catch-up"
    case idle
    case history
    case syncthing
    case interchange
    case encryption
    case bigNote = "big-note"
    case bigFile = "big-file"
    case links
    case scale
    case devices

    var scenario: any Scenario {
        switch self {
        case .localSave: return LocalSaveScenario()
        case .listing: return ListingScenario()
        case .browser: return BrowserScenario()
        case .insert: return InsertScenario()
        case .import: return ImportScenario()
        case .syncLatency: return SyncLatencyScenario()
        case .sustained: return SustainedScenario()
        case .catchUp: return CatchUpScenario()
        case .idle: return IdleScenario()
        case .history: return HistoryScenario()
        case .syncthing: return SyncthingScenario()
        case .interchange: return InterchangeScenario()
        case .encryption: return EncryptionScenario()
        case .bigNote: return BigNoteScenario()
        case .bigFile: return BigFileScenario()
        case .links: return LinksScenario()
        case .scale: return ScaleScenario()
        case .devices: return DevicesScenario()
        }
    }
}
