import ArgumentParser
import Foundation
import NoteStore
import NoteSync
import NoteWatch
import NoteTerminal

extension Notes {
    struct Sync: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sync",
            abstract: "Sync this store with other devices through a shared cloud folder.",
            subcommands: [
                Enable.self, Disable.self, Now.self, Status.self, Compact.self, Passphrase.self, ForgetKey.self,
            ])
    }

    struct Devices: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "devices",
            abstract:
                "List the devices of the sync container: this one and the others, with the logs applied from each.")

        @OptionGroup var storeOptions: StoreOptions

        @Flag(help: "Print a JSON array.")
        var json = false

        func run() throws {
            let store = try storeOptions.open()
            let status = try SyncEngine(store: store, hooks: .environment).status()
            guard status.container != nil else { throw SyncError.notEnabled }
            let this = SyncStatusJSON.DeviceJSON(
                id: status.device.storeString, name: status.deviceName, this: true, applied: nil,
                available: status.exportedSequence)
            let others = status.devices.map(SyncStatusJSON.DeviceJSON.init)
            if json { return try JSONOutput.print([this] + others) }
            print(
                "\(status.device.storeString.prefix(8))  \(status.deviceName ?? "-")  "
                    + "(this device, \(Plural.logs(status.exportedSequence)) published)"
            )
            for device in status.devices {
                let clock = device.clockAhead.map { ", clock \(ClockSkew.describe($0)) ahead" } ?? ""
                print(
                    "\(device.id.storeString.prefix(8))  \(device.name ?? "-")  "
                        + "applied \(device.applied) of \(Plural.logs(device.available))\(clock)"
                )
            }
        }
    }
}

extension Notes.Sync {
    /// Runs `body` with a sync engine on the store whose imports draw a progress line on
    /// standard error when it is a terminal; the line is cleared before `body`'s result is
    /// printed.
    static func withProgress<T>(
        _ options: StoreOptions, passphrase: PassphraseOptions, _ body: (SyncEngine) throws -> T
    ) throws -> T {
        let engine = SyncEngine(store: try options.open(), hooks: .environment)
        engine.passphrase = passphrase.source()
        let bar = ProgressBar()
        engine.importProgress = bar.update
        defer { bar.finish() }
        return try body(engine)
    }

    struct Enable: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "enable",
            abstract: "Attach this store to a container in a cloud folder, pushing every note into it once.",
            discussion: """
                Creates the container when absent. Into an existing container the notes are merged, \
                with no duplicates and without overwriting newer changes made elsewhere. A new store (a \
                folder without a database) starts from the container's newest baseline, when it has one, \
                and applies only the logs written after it.

                With --encrypt, a container made here is encrypted end to end: nothing in the cloud folder \
                can be read without the passphrase (asked twice on the terminal, or given with \
                --passphrase-file or NOTES_PASSPHRASE, never on the command line). An encrypted container \
                is joined with its passphrase, once: the device then keeps the container key in its store.
                """)

        @OptionGroup var storeOptions: StoreOptions

        @OptionGroup var passphraseOptions: PassphraseOptions

        @Flag(help: "Make the container encrypted, when it is made here (an existing one stays as it is).")
        var encrypt = false

        @Flag(
            help: """
                Sync with a plain container where this store synced with an encrypted one \
                (its notes then go into the cloud folder in the clear).
                """
        )
        var allowPlain = false

        func validateFlags() throws {
            if encrypt && allowPlain { throw ValidationError("give --encrypt or --allow-plain, not both") }
        }

        @Option(
            help: ArgumentHelp(
                "The shared cloud folder (default: the one this store was attached to).", valueName: "DIR"),
            completion: .directory)
        var cloud: String?

        @Option(
            help: ArgumentHelp(
                "The container's name: the same on every device "
                    + "(default: the one this store was attached to, else NoteCollector).",
                valueName: "NAME"))
        var container: String?

        @Option(
            help: ArgumentHelp("This device's name (default: the name it had, else the host name).", valueName: "NAME"))
        var deviceName: String?

        @Flag(help: "Attach to another cloud folder or container than the one sync is on with.")
        var move = false

        @Flag(
            help: """
                Let the group read what this device writes into the cloud folder \
                (files 0640, folders 0750, rather than 0600 and 0700).
                """
        )
        var groupAccess = false

        func validate() throws {
            try validateFlags()
            guard let cloud else { return try validateDeviceName() }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: cloud, isDirectory: &isFolder) else {
                throw ValidationError("cannot use '\(cloud)' as the cloud folder: it does not exist")
            }
            guard isFolder.boolValue else {
                throw ValidationError("cannot use '\(cloud)' as the cloud folder: it is not a folder")
            }
            try validateDeviceName()
        }

        private func validateDeviceName() throws {
            if let deviceName, let control = ControlCharacters.first(in: deviceName) {
                throw ValidationError("--device-name contains \(ControlCharacters.describe(control))")
            }
        }

        func run() throws {
            let request = SyncEngine.EnableRequest(
                cloud: cloud.map { URL(fileURLWithPath: $0) }, containerName: container, deviceName: deviceName,
                move: move)
            switch SyncEngine.enableStart(request, storeFolder: storeOptions.folder) {
            case .noCloudFolder: throw Self.noCloudFolder
            case let .join(target): if try join(target) { return }
            case .openStore: break
            }
            let engine = SyncEngine(store: try storeOptions.open(), hooks: .environment)
            engine.passphrase = passphraseOptions.source()
            let target: SyncEngine.EnableTarget
            switch try engine.decideEnabling(request) {
            case .noCloudFolder:
                throw Self.noCloudFolder
            case let .attach(chosen):
                target = chosen
            case let .confirmMove(current, chosen):
                guard isatty(0) == 1,
                    Confirmation.ask("sync is on with '\(current)': move this device to '\(chosen.folder.path)'?")
                else {
                    throw InputError.usage(
                        "sync is on with '\(current)': "
                            + "give --move to attach this store to '\(chosen.folder.path)' instead"
                    )
                }
                target = chosen
            }
            let bar = ProgressBar()
            engine.importProgress = bar.update
            defer { bar.finish() }
            let report = try engine.enable(
                cloud: target.cloud, containerName: target.containerName, deviceName: target.deviceName,
                access: groupAccess ? .group : .private, encrypt: encrypt, allowPlain: allowPlain)
            bar.finish()
            print(
                "sync on: device '\(target.deviceName)' in '\(target.folder.path)'"
                    + "\(try engine.encryption().encrypted ? ", encrypted" : "")"
            )
            SyncOutput.show(report)
        }

        /// A new device (no database yet) starts from the container's newest baseline when it
        /// has one; returns whether it did.
        private func join(_ target: SyncEngine.EnableTarget) throws -> Bool {
            let bar = ProgressBar()
            defer { bar.finish() }
            guard
                let (engine, report) = try SyncEngine.join(
                    folder: storeOptions.folder, cloud: target.cloud, containerName: target.containerName,
                    deviceName: target.deviceName, access: groupAccess ? .group : .private, progress: bar.update,
                    passphrase: passphraseOptions.source(), encrypt: encrypt, hooks: .environment)
            else { return false }
            bar.finish()
            print("sync on: device '\(target.deviceName)' in '\(target.folder.path)'")
            SyncOutput.show(report)
            if try engine.store.isListingIndexPending() {
                print(
                    "the listing index is made by 'notes watch' (or 'notes check --repair'); "
                        + "until then listings read every item's row")
            }
            if try engine.store.linkIndexBuild() != nil {
                print(
                    "the link index is built by 'notes watch' (or 'notes check --repair'); "
                        + "until then the first command that reads links builds it")
            }
            if try engine.store.trigramIndexBuild() != nil {
                print(
                    "the index of parts of words is built by 'notes watch' (or 'notes check --repair'); "
                        + "until then such searches read every note")
            }
            return true
        }

        static let noCloudFolder = ValidationError("give --cloud DIR: this store was never attached to a cloud folder")
    }

    struct Disable: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "disable",
            abstract: "Stop syncing this store; every note stays in it.")

        @OptionGroup var storeOptions: StoreOptions

        @Flag(help: "Also remove this device's registration from the container.")
        var forget = false

        func run() throws {
            let store = try storeOptions.open()
            try SyncEngine(store: store, hooks: .environment).disable(forget: forget)
            print(forget ? "sync disabled; this device's registration was removed" : "sync disabled")
        }
    }

    struct Now: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "now",
            abstract: "Export this store's changes, then import the other devices' logs; print what was done.")

        @OptionGroup var storeOptions: StoreOptions

        @OptionGroup var passphraseOptions: PassphraseOptions

        func run() throws {
            SyncOutput.show(
                try Notes.Sync.withProgress(storeOptions, passphrase: passphraseOptions) { try $0.syncNow() })
        }
    }

    struct Compact: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "compact",
            abstract: "Sync, then write a baseline of this store into the container, from which new devices start.",
            discussion: """
                A baseline holds the merged state of every log this device has applied and published: a new \
                device copies it and applies only the logs written after it.
                """)

        @OptionGroup var storeOptions: StoreOptions

        @Option(
            help: ArgumentHelp(
                "How many days a device may go without syncing before the others stop waiting for it "
                    + "(default: 30, or what was set last); kept for later compactions.",
                valueName: "DAYS"))
        var retention: Int?

        @Option(
            help: ArgumentHelp(
                "Baselines keep at least this many versions of each name and body "
                    + "(default: 100, or what was set last); kept for later compactions.",
                valueName: "N"))
        var keepVersions: Int?

        @Option(
            help: ArgumentHelp(
                "Baselines keep every version of the last DAYS days "
                    + "(default: 90, or what was set last; 0: by count only); kept for later compactions.",
                valueName: "DAYS"))
        var keepDays: Int?

        @OptionGroup var passphraseOptions: PassphraseOptions

        func validate() throws {
            if let retention, retention < 1 { throw ValidationError("--retention must be at least 1 day") }
            if let keepVersions, keepVersions < 1 { throw ValidationError("--keep-versions must be at least 1") }
            if let keepDays, keepDays < 0 { throw ValidationError("--keep-days must be 0 or more") }
        }

        func run() throws {
            let result = try Notes.Sync.withProgress(storeOptions, passphrase: passphraseOptions) {
                try $0.compact(retentionDays: retention, keepVersions: keepVersions, keepDays: keepDays)
            }
            SyncOutput.show(result.report)
            let baseline = result.baseline
            print(
                "baseline \(baseline.sequence) written: "
                    + "\(Plural.items(baseline.items)), \(Plural.logs(baseline.logCount)), "
                    + SyncOutput.size(baseline.bytes))
            if result.removedLogs + result.removedBaselines > 0 {
                print(
                    "removed \(Plural.logs(Int64(result.removedLogs))) and \(result.removedBaselines) older "
                        + "baseline\(result.removedBaselines == 1 ? "" : "s") of this device that every device has"
                )
            }
            if result.history.versions > 0 {
                print(
                    "dropped \(result.history.versions) old version\(result.history.versions == 1 ? "" : "s") "
                        + "of history from the baseline (of \(result.history.properties) "
                        + "name\(result.history.properties == 1 ? "" : "s") "
                        + "or bod\(result.history.properties == 1 ? "y" : "ies"))"
                )
            } else if let reason = result.history.heldBack {
                print("kept all old history in the baseline: \(TerminalText.escaped(reason, keepingLayout: false))")
            }
            if result.removedBlobs > 0 {
                print(
                    "removed \(result.removedBlobs) blob\(result.removedBlobs == 1 ? "" : "s") "
                        + "that no note uses any more"
                )
            }
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Show the state of sync (on, off or detached), its container, devices, "
                + "pending and waiting logs, skipped files."
        )

        @OptionGroup var storeOptions: StoreOptions

        @Flag(help: "Print a JSON object.")
        var json = false

        func run() throws {
            let store = try storeOptions.open()
            let status = try SyncEngine(store: store, hooks: .environment).status()
            let watcher = WatcherLock.holder(in: store.folder)
            if json { return try JSONOutput.print(SyncStatusJSON(status, watcher: watcher)) }
            print(SyncOutput.describe(status), terminator: "")
            print("watcher:   " + (watcher.map { "running (process \($0))" } ?? "not running"))
        }
    }
}

extension Notes.Sync {
    struct Passphrase: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "passphrase",
            abstract: "Change the passphrase of the encrypted container this store syncs with.",
            discussion: """
                The container key is wrapped anew under the new passphrase; no file is encrypted again, and \
                devices that hold the key go on without asking. Devices that join later need the new \
                passphrase. The new passphrase is asked twice on the terminal, or read from \
                --new-passphrase-file or NOTES_NEW_PASSPHRASE.
                """)

        @OptionGroup var storeOptions: StoreOptions

        @OptionGroup var passphraseOptions: PassphraseOptions

        @Option(
            help: ArgumentHelp("Read the new passphrase from this file (its first line).", valueName: "PATH"),
            completion: .file())
        var newPassphraseFile: String?

        func run() throws {
            let engine = SyncEngine(store: try storeOptions.open(), hooks: .environment)
            engine.passphrase = passphraseOptions.source(newPassphraseFile: newPassphraseFile)
            try engine.changePassphrase()
            print(
                "passphrase changed: devices that hold the container key go on; "
                    + "devices that join need the new passphrase"
            )
        }
    }

    struct ForgetKey: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "forget-key",
            abstract: "Remove the encrypted container's key from this store; the next sync asks for the passphrase.")

        @OptionGroup var storeOptions: StoreOptions

        func run() throws {
            let engine = SyncEngine(store: try storeOptions.open(), hooks: .environment)
            if try engine.forgetKey() {
                print("container key removed from this store: the next sync asks for the passphrase")
            } else {
                print("this store keeps no container key")
            }
        }
    }
}
