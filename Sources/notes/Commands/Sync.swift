import ArgumentParser
import Foundation
import NoteStore
import NoteSync
import NoteWatch

extension Notes {
    struct Sync: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sync this store with other devices through a shared cloud folder.",
            subcommands: [Enable.self, Disable.self, Now.self, Status.self])
    }

    struct Devices: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the devices of the sync container: this one and the others, with the logs applied from each.")

        @OptionGroup var storeOptions: StoreOptions

        @Flag(help: "Print a JSON array.")
        var json = false

        func run() throws {
            let store = try storeOptions.open()
            let status = try SyncEngine(store: store).status()
            guard status.container != nil else { throw SyncError.notEnabled }
            let this = SyncStatusJSON.DeviceJSON(
                id: status.device.storeString, name: status.deviceName, this: true, applied: nil, available: status.exportedSequence)
            let others = status.devices.map(SyncStatusJSON.DeviceJSON.init)
            if json { return try JSONOutput.print([this] + others) }
            print("\(status.device.storeString.prefix(8))  \(status.deviceName ?? "-")  (this device, \(Plural.logs(status.exportedSequence)) published)")
            for device in status.devices {
                let clock = device.clockAhead.map { ", clock \(ClockSkew.describe($0)) ahead" } ?? ""
                print("\(device.id.storeString.prefix(8))  \(device.name ?? "-")  applied \(device.applied) of \(Plural.logs(device.available))\(clock)")
            }
        }
    }
}

extension Notes.Sync {
    struct Enable: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Attach this store to a container in a cloud folder, pushing every note into it once.",
            discussion: """
                Creates the container when absent. Into an existing container the notes are merged, \
                with no duplicates and without overwriting newer changes made elsewhere.
                """)

        @OptionGroup var storeOptions: StoreOptions

        @Option(help: ArgumentHelp("The shared cloud folder.", valueName: "DIR"))
        var cloud: String

        @Option(help: ArgumentHelp("The container's name: the same on every device.", valueName: "NAME"))
        var container = SyncEngine.defaultContainerName

        @Option(help: ArgumentHelp("This device's name (default: the host name).", valueName: "NAME"))
        var deviceName: String?

        @Flag(help: "Let the group read what this device writes into the cloud folder (files 0640, folders 0750, rather than 0600 and 0700).")
        var groupAccess = false

        func validate() throws {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: cloud, isDirectory: &isFolder) else {
                throw ValidationError("cannot use '\(cloud)' as the cloud folder: it does not exist")
            }
            guard isFolder.boolValue else {
                throw ValidationError("cannot use '\(cloud)' as the cloud folder: it is not a folder")
            }
            if let deviceName, let control = ControlCharacters.first(in: deviceName) {
                throw ValidationError("--device-name contains \(ControlCharacters.describe(control))")
            }
        }

        func run() throws {
            let store = try storeOptions.open()
            let name = deviceName ?? ProcessInfo.processInfo.hostName
            let report = try SyncEngine(store: store).enable(
                cloud: URL(fileURLWithPath: cloud), containerName: container, deviceName: name,
                access: groupAccess ? .group : .private)
            print("sync on: device '\(name)' in '\(URL(fileURLWithPath: cloud).appendingPathComponent(container).path)'")
            SyncOutput.show(report)
        }
    }

    struct Disable: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Stop syncing this store; every note stays in it.")

        @OptionGroup var storeOptions: StoreOptions

        @Flag(help: "Also remove this device's registration from the container.")
        var forget = false

        func run() throws {
            let store = try storeOptions.open()
            try SyncEngine(store: store).disable(forget: forget)
            print(forget ? "sync disabled; this device's registration was removed" : "sync disabled")
        }
    }

    struct Now: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Export this store's changes, then import the other devices' logs; print what was done.")

        @OptionGroup var storeOptions: StoreOptions

        func run() throws {
            let store = try storeOptions.open()
            SyncOutput.show(try SyncEngine(store: store).syncNow())
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the state of sync (on, off or detached), its container, devices, pending and waiting logs, skipped files.")

        @OptionGroup var storeOptions: StoreOptions

        @Flag(help: "Print a JSON object.")
        var json = false

        func run() throws {
            let store = try storeOptions.open()
            let status = try SyncEngine(store: store).status()
            let watcher = WatcherLock.holder(in: store.folder)
            if json { return try JSONOutput.print(SyncStatusJSON(status, watcher: watcher)) }
            print(SyncOutput.describe(status), terminator: "")
            print("watcher:   " + (watcher.map { "running (process \($0))" } ?? "not running"))
        }
    }
}
