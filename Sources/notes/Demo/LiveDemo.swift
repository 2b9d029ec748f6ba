import Foundation
import NoteStore
import NoteSync
import NoteWatch

/// The story `notes demo` tells: three devices on one machine, each a store with a watcher,
/// sharing one cloud folder in a temporary folder; notes travel, sync is switched off and on.
final class LiveDemo {
    let folder: URL
    let devices = ["laptop", "desktop", "tablet"]
    private var watchers: [Process] = []
    private let say: (String) -> Void

    init(folder: URL, say: @escaping (String) -> Void) {
        self.folder = folder
        self.say = say
    }

    var cloud: URL { folder.appendingPathComponent("cloud") }
    func storeFolder(_ device: String) -> URL { folder.appendingPathComponent(device) }

    func run() throws {
        defer { stopWatchers() }
        try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)
        say("Three devices share the cloud folder \(cloud.path).")
        let stores = try devices.map { try Store(folder: storeFolder($0)) }
        for (device, store) in zip(devices, stores) {
            try SyncEngine(store: store, hooks: .environment).enable(cloud: cloud, deviceName: device)
            try startWatcher(device)
        }
        say("Each has its store and a 'notes watch' running in the background.\n")
        try travel(stores)
        try switchOff(stores)
        try switchOn(stores)
    }

    /// Each device adds a note; the time until each other device's store has it is measured
    /// by looking at all of them in turn, every half millisecond.
    private func travel(_ stores: [Store]) throws {
        let notes = ["Groceries", "Call the plumber", "Book club: chapter 4"]
        for (index, store) in stores.enumerated() {
            let started = Date()
            let body = index == 0 ? Self.groceries : "written on the \(devices[index])"
            let note = try store.addNote(named: notes[index], body: body, in: nil)
            var arrived: [Int: TimeInterval] = [:]
            let others = stores.indices.filter { $0 != index }
            _ = wait(until: {
                for other in others where arrived[other] == nil {
                    if (try? stores[other].item(note.id, includingBody: false)) != nil {
                        arrived[other] = Date().timeIntervalSince(started)
                    }
                }
                return arrived.count == others.count
            })
            let arrivals = try others.map { other -> String in
                guard let seconds = arrived[other] else {
                    throw DemoError.timedOut("'\(note.name)' did not reach the \(devices[other])")
                }
                return String(format: "the %@ after %.1f ms", devices[other], seconds * 1000)
            }
            say("The \(devices[index]) adds '\(note.name)'. It reaches \(arrivals.joined(separator: " and ")).")
        }
    }

    private func switchOff(_ stores: [Store]) throws {
        say("\nNow the container's sentinel, container.json, is removed: sync is switched off.")
        try FileManager.default.removeItem(at: cloud.appendingPathComponent("NoteCollector/container.json"))
        for (device, store) in zip(devices, stores) {
            guard
                let seconds = wait(until: {
                    (try? SyncEngine(store: store, hooks: .environment).status().state) == .off
                })
            else {
                throw DemoError.timedOut("the \(device) did not notice")
            }
            let count = try store.count(ItemRequest())
            say(
                String(
                    format: "The %@ notices after %.0f ms, says sync is off, and keeps its %d notes.", device,
                    seconds * 1000, count))
        }
        _ = try stores[0].addNote(named: "Written while sync was off", body: "", in: nil)
        say("The laptop adds a note while sync is off.")
        let groceries = try stores[0].fetch(ItemRequest()).first { $0.name == "Groceries" }
        guard let groceries else { throw DemoError.timedOut("'Groceries' is not on the laptop") }
        _ = try stores[0].edit(groceries.id, body: "oat milk\neggs\nbread\n")
        _ = try stores[1].edit(groceries.id, body: "milk\neggs\nbread\ncoffee\n")
        say(
            "Both the laptop and the desktop edit 'Groceries': "
                + "the laptop changes the first line, the desktop adds coffee."
        )
    }

    static let groceries = "milk\neggs\nbread\n"
    static let mergedGroceries = "oat milk\neggs\nbread\ncoffee\n"

    private func switchOn(_ stores: [Store]) throws {
        say("\nSync is enabled again on every device ('notes sync enable').")
        for (device, store) in zip(devices, stores) {
            try SyncEngine(store: store, hooks: .environment).enable(cloud: cloud, deviceName: device)
        }
        let expected = try stores[0].count(ItemRequest())
        guard wait(until: { stores.allSatisfy { (try? $0.count(ItemRequest())) == expected } }, timeout: 10) != nil
        else {
            throw DemoError.timedOut("the devices did not converge")
        }
        let dumps = try stores.map { try $0.fetch(ItemRequest()).map(\.id).sorted { $0.uuidString < $1.uuidString } }
        guard Set(dumps.map { $0.map(\.uuidString).joined() }).count == 1 else {
            throw DemoError.timedOut("the devices differ")
        }
        say("The devices converge: each has the same \(expected) notes, with no duplicates.")
        let merged = { (store: Store) in
            (try? store.fetch(ItemRequest(includesBodies: true)).first { $0.name == "Groceries" }?.body)
                == Self.mergedGroceries
        }
        guard wait(until: { stores.allSatisfy(merged) }, timeout: 10) != nil else {
            throw DemoError.timedOut("'Groceries' did not merge on every device")
        }
        say(
            "'Groceries' merged line by line on every device, no edit lost: "
                + Self.mergedGroceries.split(separator: "\n").joined(separator: ", ")
                + " ('notes history' keeps each version).")
    }

    /// Waits until `condition` holds; returns the seconds it took, or nil after `timeout`.
    private func wait(until condition: () -> Bool, timeout: TimeInterval = 5) -> TimeInterval? {
        let start = Date()
        while Date().timeIntervalSince(start) < timeout {
            if condition() { return Date().timeIntervalSince(start) }
            usleep(500)
        }
        return nil
    }

    private func startWatcher(_ device: String) throws {
        let process = Process()
        // This very program, however it was started (by a name found on PATH, say).
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? Bundle.main.executablePath ?? CommandLine.arguments[0]
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--store", storeFolder(device).path, "watch"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        watchers.append(process)
        let store = storeFolder(device)
        guard wait(until: { WatcherLock.holder(in: store) != nil }) != nil else {
            throw DemoError.timedOut("the watcher of the \(device) did not start")
        }
    }

    func stopWatchers() {
        for process in watchers where process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
        }
        watchers.removeAll()
    }
}

enum DemoError: Error, CustomStringConvertible {
    case timedOut(String)

    var description: String {
        switch self {
        case let .timedOut(what): return "the demo failed: \(what)"
        }
    }
}
