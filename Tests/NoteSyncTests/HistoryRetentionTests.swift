import Foundation
import NoteStore
@testable import NoteSync
import NoteTestSupport
import Testing

/// The retention of history (docs/sync-format.md, "Retention of history"): a baseline drops the
/// versions below a cut that every version kept descends from, only when every device is
/// quiet; devices that start from it and devices that hold everything go on the same.
@Suite struct HistoryRetentionTests {
    typealias Step = MergeFixtures.Step
    static let note = HistoryNote.id
    static let a = MergeFixtures.a
    static let b = MergeFixtures.b

    static func stamp(_ clock: UInt64, _ device: UUID) -> ChangeStamp { ChangeStamp(clock: clock, device: device) }

    /// The body versions of the note after `steps` (after its creation at clock 1 on A).
    func bodyVersions(_ steps: [Step]) throws -> [Version] {
        let folder = TemporaryFolder()
        let store = try Store(folder: folder.appending("s"))
        let merger = Merger()
        for step in [HistoryNote.creation] + steps {
            try store.merge { replica in try merger.apply(step.change, from: step.device, to: replica) }
        }
        return try store.history(of: Self.note).filter { $0.property == .body }
    }

    /// A chain of edits on A at clocks 2...n, each from the one before.
    static func chain(to last: UInt64) -> [Step] {
        (2...last).map { HistoryNote.edit("text \($0)\n", clock: $0, on: a, from: [stamp($0 - 1, a)]) }
    }

    @Test func aChainKeepsItsLastVersionsAndDropsWhatTheyDescendFrom() throws {
        let versions = try bodyVersions(Self.chain(to: 10))
        let (cut, dropped) = try #require(HistoryRetention.cut(of: versions, keepVersions: 3, since: .max))
        #expect(cut == Self.stamp(8, Self.a))
        #expect(dropped == Set((1...7).map { Self.stamp($0, Self.a) }))
        // Nothing to drop when the settings keep them all, or all are recent.
        #expect(HistoryRetention.cut(of: versions, keepVersions: 10, since: .max) == nil)
        #expect(HistoryRetention.cut(of: versions, keepVersions: 3, since: 0) == nil)
        // Versions of the last days are kept too: from clock 6 on.
        #expect(HistoryRetention.cut(of: versions, keepVersions: 1, since: 6)?.cut == Self.stamp(6, Self.a))
    }

    @Test func theCutIsAVersionEveryVersionDescendsFromOrPrecedes() throws {
        // 1 → 2 (A) and 1 → 3 (B) concurrently, 4 merges them, then 5 and 6.
        let versions = try bodyVersions([
            HistoryNote.edit("a\n", clock: 2, on: Self.a, from: [Self.stamp(1, Self.a)]),
            HistoryNote.edit("b\n", clock: 3, on: Self.b, from: [Self.stamp(1, Self.a)]),
            HistoryNote.edit("ab\n", clock: 4, on: Self.a, from: [Self.stamp(2, Self.a), Self.stamp(3, Self.b)]),
            HistoryNote.edit("abc\n", clock: 5, on: Self.a, from: [Self.stamp(4, Self.a)]),
            HistoryNote.edit("abcd\n", clock: 6, on: Self.a, from: [Self.stamp(5, Self.a)]),
        ])
        // Keeping 4 keeps 3, 4, 5 and 6: the cut must be an ancestor of 3 and comparable with
        // every version; only 1 is, and nothing is below it.
        #expect(HistoryRetention.cut(of: versions, keepVersions: 4, since: .max) == nil)
        // Keeping 2 keeps 5 and 6: the newest version comparable with all is 5; 4 would do
        // too, but 5 drops more.
        let (cut, dropped) = try #require(HistoryRetention.cut(of: versions, keepVersions: 2, since: .max))
        #expect(cut == Self.stamp(5, Self.a))
        #expect(
            dropped == [Self.stamp(1, Self.a), Self.stamp(2, Self.a), Self.stamp(3, Self.b), Self.stamp(4, Self.a)])
        // Keeping 3 keeps 4, 5, 6: the cut is 4, and the two concurrent versions go with 1.
        #expect(HistoryRetention.cut(of: versions, keepVersions: 3, since: .max)?.dropped.count == 3)
    }

    @Test func anOldHeadHoldsBackEverythingItIsConcurrentWith() throws {
        // B edited version 1 long ago, concurrently with A's chain, and nobody merged it: it is
        // a head, kept whatever its age, and no version of A's chain is an ancestor of it.
        let versions = try bodyVersions(
            Self.chain(to: 8) + [
                HistoryNote.edit("old branch\n", clock: 2, on: Self.b, from: [Self.stamp(1, Self.a)])
            ])
        #expect(HistoryRetention.cut(of: versions, keepVersions: 2, since: .max) == nil)
    }

    @Test func anAncestorWithAGreaterStampIsNotKeptWithoutWhatItDescendsFrom() throws {
        // A clock ahead: version 2 has clock 50, the later edits 3...6 have smaller clocks.
        // Keeping the greatest stamps alone would keep 2 and drop the versions after it.
        var steps = [HistoryNote.edit("ahead\n", clock: 50, on: Self.a, from: [Self.stamp(1, Self.a)])]
        steps.append(HistoryNote.edit("3\n", clock: 3, on: Self.b, from: [Self.stamp(50, Self.a)]))
        for clock in UInt64(4)...6 {
            steps.append(
                HistoryNote.edit("\(clock)\n", clock: clock, on: Self.b, from: [Self.stamp(clock - 1, Self.b)]))
        }
        let versions = try bodyVersions(steps)
        // The two greatest stamps are 50 (an ancestor) and 6 (the head): the cut is 50.
        let (cut, dropped) = try #require(HistoryRetention.cut(of: versions, keepVersions: 2, since: .max))
        #expect(cut == Self.stamp(50, Self.a))
        #expect(dropped == [Self.stamp(1, Self.a)])
    }

    @Test func versionsWithoutBasesAreKeptWhole() throws {
        var steps: [Step] = []
        for clock in UInt64(2)...6 {
            var change = MergeFixtures.update(.note, Self.note, "body", .text("\(clock)\n"), clock: clock)
            change.history = nil
            steps.append(Step(change: change, device: Self.a))
        }
        let versions = try bodyVersions(steps)
        #expect(versions.contains { $0.bases == nil })
        #expect(HistoryRetention.cut(of: versions, keepVersions: 1, since: .max) == nil)
    }

    /// The cut by its definition, over every pair of versions: the oracle of the linear one.
    static func cutByDefinition(
        _ versions: [(stamp: ChangeStamp, bases: [ChangeStamp]?)], keepVersions: Int, since: UInt64
    ) -> (cut: ChangeStamp, dropped: Set<ChangeStamp>)? {
        guard versions.count > keepVersions else { return nil }
        var graph = VersionGraph(versions)
        let stamps = graph.stamps
        var kept = Set(stamps.suffix(keepVersions)).union(graph.heads)
        kept.formUnion(stamps.filter { $0.clock >= since })
        guard kept.count < stamps.count else { return nil }
        var best: (stamp: ChangeStamp, ancestors: Int)?
        for candidate in stamps where kept.allSatisfy({ graph.lineage(of: $0).contains(candidate) }) {
            let comparable = stamps.allSatisfy { $0 == candidate || !graph.areConcurrent($0, candidate) }
            let ancestors = graph.ancestors(of: candidate).count
            if comparable, best.map({ ancestors > $0.ancestors }) ?? true { best = (candidate, ancestors) }
        }
        guard let best, best.ancestors > 0 else { return nil }
        return (best.stamp, graph.ancestors(of: best.stamp))
    }

    @Test func theLinearCutIsTheCutByDefinitionOnRandomHistories() {
        var random = SplitMix64(seed: 11)
        let devices = (0..<3).map { _ in UUID() }
        var found = 0
        for _ in 0..<2_000 {
            var versions: [(stamp: ChangeStamp, bases: [ChangeStamp]?)] = []
            let count = Int.random(in: 1...14, using: &random)
            for index in 0..<count {
                // Clocks out of order now and then (a clock ahead), one to three bases among the
                // versions before, a second first version now and then.
                let clock = UInt64(index) + (random.chance(15) ? UInt64.random(in: 0...20, using: &random) : 0) * 3
                let stamp = ChangeStamp(
                    clock: clock * 10 + UInt64(index % 10), device: devices[Int.random(in: 0..<3, using: &random)])
                var bases: [ChangeStamp] = []
                if index > 0, !random.chance(5) {
                    for _ in 0..<Int.random(in: 1...3, using: &random) {
                        bases.append(versions[Int.random(in: 0..<index, using: &random)].stamp)
                    }
                }
                versions.append((stamp, Array(Set(bases))))
            }
            let keep = Int.random(in: 1...4, using: &random)
            let since = random.chance(30) ? UInt64.random(in: 0...200, using: &random) : .max
            let linear = HistoryRetention.cut(of: versions, keepVersions: keep, since: since)
            let oracle = Self.cutByDefinition(versions, keepVersions: keep, since: since)
            #expect(
                linear?.cut == oracle?.cut && linear?.dropped == oracle?.dropped,
                "\(versions) keep \(keep) since \(since)")
            if linear != nil { found += 1 }
        }
        #expect(found > 200, "too few histories had a cut to drop: \(found)")
    }

    @Test func aLongHistoryIsCutWhole() {
        // 20,000 autosaves of one note, one after another.
        let device = UUID()
        var versions: [(stamp: ChangeStamp, bases: [ChangeStamp]?)] = [(ChangeStamp(clock: 1, device: device), [])]
        for clock in UInt64(2)...20_000 {
            versions.append(
                (ChangeStamp(clock: clock, device: device), [ChangeStamp(clock: clock - 1, device: device)]))
        }
        let result = HistoryRetention.cut(of: versions, keepVersions: 100, since: .max)
        #expect(result?.cut == ChangeStamp(clock: 19_901, device: device))
        #expect(result?.dropped.count == 19_900)
    }

    // MARK: Baselines that drop history

    /// Three devices; a note edited 12 times, on each device in turn, and twice concurrently.
    static func editedStack() throws -> (stack: SyncStack, note: UUID) {
        let stack = try SyncStack(devices: 3)
        let note = try stack.stores[0].addNote(named: "Soup", body: "one\ntwo\nthree\n", in: nil).id
        try stack.syncUntilQuiet()
        for round in 1...12 {
            let store = stack.stores[round % 3]
            let body = try #require(try store.item(note).body)
            _ = try store.edit(note, body: body.replacingOccurrences(of: "two", with: "two \(round)"))
            try stack.syncUntilQuiet()
        }
        // Two devices edit different lines before hearing of each other: a merge.
        _ = try stack.stores[1].edit(
            note, body: try #require(try stack.stores[1].item(note).body).replacingOccurrences(of: "one", with: "ONE"))
        _ = try stack.stores[2].edit(note, body: try #require(try stack.stores[2].item(note).body) + "four\n")
        try stack.syncUntilQuiet()
        _ = try stack.stores[0].edit(note, body: try #require(try stack.stores[0].item(note).body) + "five\n")
        try stack.syncUntilQuiet()
        return (stack, note)
    }

    /// Checks that every version a store holds of a property with a cut descends from the cut
    /// or is it, and that each version another store holds beyond it is an ancestor of the cut
    /// there.
    static func checkCuts(of pruned: Store, against full: Store) throws {
        for cut in try pruned.historyCuts() {
            let held = try pruned.history(of: cut.object).filter { $0.property == cut.property }
            var graph = VersionGraph(held)
            for version in held {
                #expect(
                    version.stamp == cut.stamp || graph.ancestors(of: version.stamp).contains(cut.stamp),
                    "\(version.stamp.text)")
                #expect(try pruned.text(of: cut.object, cut.property, at: version.stamp) != nil)
            }
            let all = try full.history(of: cut.object).filter { $0.property == cut.property }
            var fullGraph = VersionGraph(all)
            let below = fullGraph.ancestors(of: cut.stamp)
            for version in all where !held.contains(where: { $0.stamp == version.stamp }) {
                #expect(
                    below.contains(version.stamp), "\(version.stamp.text) was dropped but is no ancestor of the cut")
            }
        }
    }

    @Test func aBaselineDropsOldHistoryWhenEveryDeviceIsQuietAndEveryDeviceGoesOnTheSame() throws {
        let (stack, note) = try Self.editedStack()
        try stack.quiet()
        let before = try stack.stores[0].history(of: note).filter { $0.property == .body }
        let result = try stack.engines[0].compact(keepVersions: 3, keepDays: 0)
        #expect(result.history.heldBack == nil)
        #expect(result.history.versions > 0 && result.history.properties >= 1, "\(result.history)")
        #expect(
            result.baseline.modelVersion == Store.baselineModelVersionWithoutProperties
                && result.baseline.historyDropped)
        // The writer keeps its whole history, and records the cut for its later baselines.
        #expect(try stack.stores[0].history(of: note).filter { $0.property == .body }.count == before.count)
        #expect(try stack.stores[0].historyCuts().contains { $0.object == note && $0.property == .body })

        // A new device starts from it: the last versions, their texts, and the cut.
        try stack.join()
        let joined = stack.stores[3]
        let kept = try joined.history(of: note).filter { $0.property == .body }
        #expect(kept.count >= 3 && kept.count < before.count, "\(kept.count) of \(before.count)")
        #expect(try joined.item(note).body == (try stack.stores[0].item(note).body))
        #expect(try joined.check() == [])
        try Self.checkCuts(of: joined, against: stack.stores[0])

        // Edits go on, concurrent ones too, on devices with and without the old versions:
        // one line changed differently on 1 and 3 (a conflict), another on 2.
        let body = try #require(try joined.item(note).body)
        _ = try stack.stores[1].edit(note, body: body.replacingOccurrences(of: "three", with: "three on 1"))
        _ = try joined.edit(note, body: body.replacingOccurrences(of: "three", with: "three on 3"))
        _ = try stack.stores[2].edit(note, body: body + "six\n")
        try stack.syncUntilQuiet()
        var dumps = try stack.commonDumps()
        for index in dumps.indices.dropFirst() { #expect(dumps[index] == dumps[0], "devices 0 and \(index) differ") }
        #expect(try Set(stack.stores.map { try $0.conflictCopies().count }).count == 1)
        #expect(try joined.conflictCopies().count == 1)

        // A device pushes its whole history again (enabling again): the versions dropped stay
        // out of the devices that started from the baseline, and change nothing.
        let held = try joined.history(of: note).count
        try stack.engines[2].enable(cloud: stack.cloud, deviceName: "device-2")
        try stack.syncUntilQuiet()
        #expect(try joined.history(of: note).count == held)
        dumps = try stack.commonDumps()
        for index in dumps.indices.dropFirst() { #expect(dumps[index] == dumps[0], "devices 0 and \(index) differ") }
        for store in stack.stores { #expect(try store.check() == []) }
        try Self.checkCuts(of: joined, against: stack.stores[2])
    }

    @Test func aDeviceThatIsNotQuietHoldsBackTheRetentionOfHistory() throws {
        let (stack, note) = try Self.editedStack()
        try stack.quiet()
        // Device 1 publishes an edit that device 0 applies and device 2 does not: device 2
        // could still publish an edit concurrent with it.
        _ = try stack.stores[1].edit(note, body: "one\n")
        try stack.engines[1].syncNow()
        try stack.engines[0].syncNow()
        let result = try stack.engines[0].compact(keepVersions: 3, keepDays: 0)
        #expect(result.history.versions == 0)
        #expect(
            result.history.heldBack?.contains("device 'device-2'") == true,
            "\(String(describing: result.history.heldBack))")
        #expect(
            result.baseline.modelVersion == Store.baselineModelVersionWithoutProperties
                && !result.baseline.historyDropped, "a baseline without cuts")
        try stack.join()
        #expect(try stack.stores[3].history(of: note).count == (try stack.stores[0].history(of: note).count))

        // A registration that never said what it had applied with nothing waiting (an
        // earlier build) holds it back too.
        try stack.quiet()
        let container = try stack.container()
        guard case var .present(registration) = container.registration(of: stack.stores[2].deviceID) else {
            Issue.record("device 2 is not registered")
            return
        }
        registration.clean = nil
        try container.register(registration)
        let again = try stack.engines[0].compact()
        #expect(
            again.history.heldBack?.contains("has not said") == true, "\(String(describing: again.history.heldBack))")
        // Once quiet, it goes.
        try stack.quiet()
        #expect(try stack.engines[0].compact().history.versions > 0)
    }

    /// With `renamed`, the device also gives the note a name too long to be kept whole beside
    /// the kept note's label: the kept note's body begins with it. Another device renames the
    /// note later, which is its name everywhere once the device is back.
    @Test(arguments: [false, true])
    func aDeviceThatComesBackWithoutRegistrationKeepsItsUnpublishedEditsAsNotes(renamed: Bool) throws {
        let (stack, note) = try Self.editedStack()
        try stack.quiet()
        // Device 2 is forgotten, and edits the note while away.
        try stack.engines[2].disable(forget: true)
        let away = try #require(try stack.stores[2].item(note).body) + "written while away\n"
        let longName = "Soup " + String(repeating: "and bread ", count: 49) + "end"
        _ = try stack.stores[2].edit(note, name: renamed ? longName : nil, body: away)
        // The others go on, drop old history and the logs everyone has.
        for round in 1...4 {
            let body = try #require(try stack.stores[0].item(note).body)
            _ = try stack.stores[0].edit(
                note, name: renamed && round == 1 ? "Broth" : nil,
                body: body.replacingOccurrences(of: "three", with: "three \(round)"))
            try stack.engines[0].syncNow()
            try stack.engines[1].syncNow()
        }
        for store in stack.stores.prefix(2) { try store.recordSync { try $0.update { $0.acknowledged = nil } } }
        try stack.engines[1].syncNow()
        let compacted = try stack.engines[0].compact(keepVersions: 2, keepDays: 0)
        #expect(compacted.history.versions > 0, "\(compacted.history)")
        #expect(compacted.removedLogs > 0)
        try stack.join()
        let joined = stack.stores[3]
        let container = try stack.container()

        // Device 2 comes back: its edit becomes a note of its own, on every device, and its
        // note follows the others'. (Its first try stopped just after it registered: it said
        // in its store that it was coming back, and enabling again still keeps the edit.)
        try stack.stores[2].recordSync { try $0.update { $0.returning = true } }
        try container.register(
            DeviceRegistration(
                container: container.identity, device: stack.stores[2].deviceID, name: "device-2",
                modelVersion: Store.currentModelVersion))
        let report = try stack.engines[2].enable(cloud: stack.cloud, deviceName: "device-2")
        #expect(report.keptEdits == 1)
        #expect(try !stack.stores[2].syncRecord().returning)
        try stack.syncUntilQuiet()
        for store in stack.stores {
            let kept = try store.fetch(ItemRequest(trash: .included)).filter {
                $0.name.hasPrefix(renamed ? "Soup and bread " : "Soup (kept, device-2, ")
                    && $0.name.contains(" (kept, device-2, ")
            }
            #expect(kept.count == 1 && kept.first?.body == (renamed ? "\(longName)\n\n\(away)" : away), "\(kept)")
            #expect(kept.first.map { $0.name.count <= Item.maximumNameLength && !$0.name.contains(longName) } == true)
            #expect(try store.item(note).name == (renamed ? "Broth" : "Soup"))
            #expect(try store.item(note).body == (try stack.stores[0].item(note).body))
            #expect(try store.check() == [])
        }
        let dumps = try stack.commonDumps()
        for index in dumps.indices.dropFirst() { #expect(dumps[index] == dumps[0], "devices 0 and \(index) differ") }
        #expect(try Set(stack.stores.map { try $0.conflictCopies() }).count == 1)
        try Self.checkCuts(of: joined, against: stack.stores[0])
        try Self.checkCuts(of: stack.stores[2], against: stack.stores[0])
    }

    /// A withdrawn rename is kept under its own name, though another device's later rename
    /// has arrived meanwhile and is the note's name now.
    @Test func aWithdrawnRenameIsKeptUnderItsOwnNameWhenALaterOneHasArrived() throws {
        let stack = try SyncStack(devices: 2)
        let note = try stack.stores[0].addNote(named: "Soup", body: "one\n", in: nil).id
        try stack.syncUntilQuiet()
        _ = try stack.stores[1].edit(note, name: "Soup with bread")
        // Device 0's rename is later by its clock, not only by a tie between device ids.
        let first = try #require(
            try stack.stores[1].history(of: note).filter { $0.property == .name }.map(\.stamp).max())
        let deadline = Date().addingTimeInterval(5)
        while HybridClock.physical(Date()) <= first.clock, Date() < deadline {}
        _ = try stack.stores[0].edit(note, name: "Broth")
        try stack.engines[0].syncNow()
        // Device 1 imports without publishing: its rename is still its own.
        let container = try stack.container()
        var report = SyncReport()
        _ = try LogImporter(store: stack.stores[1], container: container, containerID: container.identity)
            .importAvailable(into: &report)
        #expect(try stack.stores[1].item(note).name == "Broth")

        #expect(try UnpublishedEdits(store: stack.stores[1]).keepAsNotes(deviceName: "device-1") == 1)
        let kept = try stack.stores[1].fetch(ItemRequest()).filter { $0.name.contains(" (kept, device-1, ") }
        #expect(
            kept.count == 1 && kept.first?.name.hasPrefix("Soup with bread (kept, device-1, ") == true,
            "\(kept.map(\.name))")
        #expect(kept.first?.body == "one\n")
        #expect(try stack.stores[1].item(note).name == "Broth")
    }

    /// A withdrawn name too long for its label, of a note whose body has no room left for it:
    /// it is the body of a kept note of its own. With `stoppedHalfWay`, a first try made that
    /// note and stopped: it is not made twice.
    @Test(arguments: [false, true])
    func aLongWithdrawnNameOfAFullNoteIsKeptInANoteOfItsOwn(stoppedHalfWay: Bool) throws {
        let stack = try SyncStack(devices: 2)
        let body = String(repeating: "x", count: Item.maximumBodyBytes - 10)
        let note = try stack.stores[0].addNote(named: "Soup", body: body, in: nil).id
        try stack.syncUntilQuiet()
        let longName = "Soup " + String(repeating: "and bread ", count: 49) + "end"
        _ = try stack.stores[1].edit(note, name: longName)
        let renamed = try #require(
            try stack.stores[1].history(of: note).filter { $0.property == .name }.map(\.stamp).max())
        let nameNote = ConflictCopy.labelled(
            longName, "kept name", device: "device-1", id: stack.stores[1].deviceID,
            time: HybridClock.date(of: renamed.clock))
        if stoppedHalfWay { _ = try stack.stores[1].addNote(named: nameNote, body: longName, in: nil) }

        #expect(try UnpublishedEdits(store: stack.stores[1]).keepAsNotes(deviceName: "device-1") == 1)
        let kept = try stack.stores[1].fetch(ItemRequest()).filter { $0.name.contains(" (kept") }
        #expect(kept.count == 2, "\(kept.map(\.name))")
        #expect(
            kept.contains {
                $0.name.hasPrefix("Soup and bread ") && $0.name.contains(" (kept, device-1, ") && $0.body == body
            })
        #expect(kept.contains { $0.name == nameNote && $0.body == longName })
        #expect(try stack.stores[1].item(note).name == "Soup")
    }

    /// A device that had not heard that history was dropped writes a later baseline, without
    /// `historyDropped`. The writer of the baseline that dropped history keeps that one at its
    /// next compaction, though the later one holds all it holds: the container still says so.
    @Test func theBaselineThatDroppedHistoryStaysWhileTheAnchorDoesNotSaySo() throws {
        let (stack, _) = try Self.editedStack()
        try stack.quiet()
        let dropped = try stack.engines[0].compact(keepVersions: 2, keepDays: 0)
        #expect(dropped.history.versions > 0 && dropped.baseline.historyDropped)
        // Device 1 writes a later baseline with the first out of its sight, having noted nothing.
        let baselines = stack.cloud.appendingPathComponent(SyncEngine.defaultContainerName).appendingPathComponent(
            "baselines")
        let folder = baselines.appendingPathComponent(stack.stores[0].deviceID.storeString)
        let aside = stack.folder.appending("aside")
        try FileManager.default.moveItem(at: folder, to: aside)
        try stack.stores[1].recordSync { try $0.update { $0.historyDropped = false } }
        _ = try stack.stores[1].addNote(named: "later", body: "", in: nil)
        let later = try stack.engines[1].compact()
        try FileManager.default.moveItem(at: aside, to: folder)
        #expect(!later.baseline.historyDropped)
        #expect(Compaction.dominates(later.baseline.vector, dropped.baseline.vector))

        let container = try stack.container()
        _ = try Compaction(store: stack.stores[0], container: container, containerID: container.identity).run()
        let catalog = try BaselineCatalog.read(container, containerID: container.identity)
        #expect(catalog.entries.first?.manifest.device == stack.stores[1].deviceID, "the later baseline is the anchor")
        #expect(
            catalog.entries.contains { $0.manifest.device == stack.stores[0].deviceID && $0.manifest.historyDropped })
        #expect(HistoryRetention.wasDropped(in: catalog))

        // Once device 1 has seen it, its next baseline says so too, and the first one goes.
        _ = try stack.stores[1].addNote(named: "later still", body: "", in: nil)
        #expect(try stack.engines[1].compact().baseline.historyDropped)
        #expect(
            try Compaction(store: stack.stores[0], container: container, containerID: container.identity).run()
                .baselines == 1)
        let after = try BaselineCatalog.read(container, containerID: container.identity)
        #expect(!after.entries.contains { $0.manifest.device == stack.stores[0].deviceID })
        #expect(HistoryRetention.wasDropped(in: after))
    }

    /// Settings differ from store to store: a device that started from a baseline cut closer
    /// to the present merges a later baseline cut further back (catching up) and keeps its
    /// history and its cut.
    @Test func aStoreCutLaterKeepsItsHistoryWhenItMergesABaselineCutEarlier() throws {
        let (stack, note) = try Self.editedStack()
        try stack.quiet()
        #expect(try stack.engines[0].compact(keepVersions: 2, keepDays: 0).history.versions > 0)
        try stack.join()
        let joined = stack.stores[3]
        let held = try joined.history(of: note)
        let cut = try #require(try joined.historyCut(of: note, .body))
        // Device 1 publishes one log more, so that its baseline is the newest (a tie would go
        // by writer id).
        _ = try stack.stores[1].addNote(named: "One log more", body: "", in: nil)
        try stack.quiet()
        let earlier = try stack.engines[1].compact(keepVersions: 6, keepDays: 0)
        #expect(earlier.history.versions > 0, "\(earlier.history)")
        let container = try stack.container()
        let loader = BaselineLoader(container: container, containerID: container.identity, folder: joined.folder)
        var report = SyncReport()
        let (entry, database, file) = try #require(
            try loader.newestVerified(aheadOf: [:], device: nil, report: &report))
        #expect(entry.manifest.device == stack.stores[1].deviceID)
        _ = try loader.merge(database, entry, file: file, into: joined)
        database.close()
        #expect(try joined.history(of: note).count == held.count)
        #expect(try joined.historyCut(of: note, .body) == cut)
        try Self.checkCuts(of: joined, against: stack.stores[0])
        _ = try joined.edit(note, body: "after both\n")
        try stack.syncUntilQuiet()
        for store in stack.stores {
            #expect(try store.item(note).body == "after both\n")
            #expect(try store.check() == [])
        }
        let dumps = try stack.commonDumps()
        for index in dumps.indices.dropFirst() { #expect(dumps[index] == dumps[0], "devices 0 and \(index) differ") }
    }

    /// A device with notes of its own merges a baseline that holds a conflict copy whose body
    /// history was cut: merging the copied note first finds the conflict and makes the copy,
    /// whose version of origin `conflict` lies below the cut. Added, it read as concurrent with
    /// every later edit of the copy and made a copy of the copy on that device alone.
    @Test func aConflictCopyMadeWhileMergingABaselineTakesNoVersionBelowItsCut() throws {
        let stack = try SyncStack(devices: 3)
        let note = try stack.stores[0].addNote(named: "Soup", body: "one\ntwo\nthree\n", in: nil).id
        try stack.syncUntilQuiet()
        _ = try stack.stores[1].edit(note, body: "one\ntwo on 1\nthree\n")
        _ = try stack.stores[2].edit(note, body: "one\ntwo on 2\nthree\n")
        try stack.syncUntilQuiet()
        let copy = try #require(try stack.stores[0].conflictCopies().first)
        for round in 1...4 {
            _ = try stack.stores[2].edit(copy, body: "one\ntwo, edited \(round) times\nthree\n")
            try stack.syncUntilQuiet()
        }
        try stack.quiet()
        #expect(try stack.engines[0].compact(keepVersions: 1, keepDays: 0).history.versions > 0)
        #expect(try stack.stores[0].historyCut(of: copy, .body) != nil)

        let arriving = try stack.addStore()
        _ = try arriving.addNote(named: "Arriving", body: "mine", in: nil)
        try stack.engines[3].enable(cloud: stack.cloud, deviceName: "arriving")
        try stack.syncUntilQuiet()
        #expect(try arriving.conflictCopies() == [copy])
        #expect(try arriving.item(copy).body == "one\ntwo, edited 4 times\nthree\n")
        let dumps = try stack.commonDumps()
        for index in dumps.indices.dropFirst() { #expect(dumps[index] == dumps[0], "devices 0 and \(index) differ") }
        #expect(try stack.versionsMissingAboveCuts() == [])
        for store in stack.stores { #expect(try store.check() == []) }
    }
}
