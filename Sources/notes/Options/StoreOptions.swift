import ArgumentParser
import Foundation
import NoteStore

/// `--store DIR`, shared by every subcommand.
struct StoreOptions: ParsableArguments {
    @Option(
        name: .customLong("store"),
        help: ArgumentHelp(
            "The store folder (default: $NOTES_STORE, else ${XDG_DATA_HOME:-~/.local/share}/notes).",
            valueName: "DIR"),
        completion: .directory)
    var store: String?

    /// The store folder: the option, else `NOTES_STORE`, else the XDG data folder.
    var folder: URL { Self.folder(option: store) }

    static func folder(option store: String?) -> URL {
        let environment = ProcessInfo.processInfo.environment
        if let store, !store.isEmpty { return URL(fileURLWithPath: store) }
        if let store = environment["NOTES_STORE"], !store.isEmpty { return URL(fileURLWithPath: store) }
        let data =
            environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return URL(fileURLWithPath: data).appendingPathComponent("notes")
    }

    /// Opens the store, creating it on first use; commands that only read ask for
    /// `.readOnly`, which writes nothing on opening.
    func open(_ access: Store.Access = .readWrite) throws -> Store {
        try Store(folder: folder, access: access)
    }
}
