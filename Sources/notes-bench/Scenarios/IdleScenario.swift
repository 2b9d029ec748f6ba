import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `idle`: `notes watch` at rest on an attached store, as a laptop runs it all day: how often
/// its threads wake and how much CPU it takes over a quiet period, and how long SIGINT takes
/// to end it.
///
/// Wakeups are the context switches of all the watcher's threads (`/proc/PID/task/*/status`),
/// CPU its user and system time (`/proc/PID/stat`). The watcher runs under the memory probe, so
/// the figures are read for the probe's child, the `notes` process itself.
struct IdleScenario: Scenario {
    /// At rest the watcher sleeps on inotify alone, with a fallback check every few seconds.
    static let wakeupBudgetPerSecond = 2.0
    /// SIGINT ends an idle watcher within this.
    static let stopBudgetMilliseconds = 100.0

    func run(on bench: Workbench) throws -> ScenarioReport {
        let sizes = bench.sizes
        var report = ScenarioReport(name: "idle")
        report.parameters = [Fact("seconds at rest", sizes.idleSeconds), Fact("stops", sizes.idleStops)]
        let rig = try SyncRig(bench: bench, label: "idle")
        let store = try rig.makeDevice("idle")
        try rig.enable(store, name: "idle")
        var stops: [Double] = []
        var wakeups = 0.0, cpuSeconds = 0.0
        for round in 0..<sizes.idleStops {
            let watcher = try rig.startWatcher(store, name: "idle-\(round)")
            let notes = try Self.child(of: watcher.pid)
            if round == 0 {
                bench.progress("idle: the watcher at rest for \(sizes.idleSeconds) s")
                // Start-up work is over once the watcher said it watches; let it settle.
                usleep(500_000)
                let before = try Self.usage(of: notes)
                usleep(UInt32(sizes.idleSeconds) * 1_000_000)
                let after = try Self.usage(of: notes)
                wakeups = Double(after.switches - before.switches) / Double(sizes.idleSeconds)
                cpuSeconds = after.cpuSeconds - before.cpuSeconds
            }
            stops.append(try Self.millisecondsToEnd(notes, after: SIGINT))
            try watcher.stop()
        }
        let stop = Measurement("SIGINT to exit of an idle watcher", unit: .milliseconds, samples: stops)
        report.measurements = [
            Measurement("wakeups at rest", unit: .perSecond, samples: [wakeups]),
            Measurement(
                "CPU at rest, of one core", unit: .percent, samples: [cpuSeconds / Double(sizes.idleSeconds) * 100]),
            stop,
        ]
        report.facts = [Fact("CPU time over the quiet period", String(format: "%.3f s", cpuSeconds))]
        report.targets = [
            TargetCheck(
                name: "idle watcher wakes at most \(Int(Self.wakeupBudgetPerSecond)) times a second",
                met: wakeups <= Self.wakeupBudgetPerSecond,
                detail: String(
                    format: "%.2f wakeups/s over %d s, %.3f s of CPU", wakeups, sizes.idleSeconds, cpuSeconds)),
            TargetCheck(
                name: "SIGINT ends an idle watcher within \(Int(Self.stopBudgetMilliseconds)) ms",
                met: stop.max <= Self.stopBudgetMilliseconds,
                detail:
                    "median \(ReportPrinter.format(stop.median, .milliseconds)), "
                    + "max \(ReportPrinter.format(stop.max, .milliseconds)) over \(stops.count) stops"
            ),
        ]
        return report
    }

    /// The first child of a process: the program the memory probe runs.
    static func child(of pid: pid_t) throws -> pid_t {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
            if let child = text.split(separator: " ").first.flatMap({ pid_t($0) }) { return child }
            usleep(1000)
        }
        throw BenchError.unexpected("process \(pid) has no child to measure")
    }

    /// The context switches of every thread of a process, and its CPU time in seconds.
    static func usage(of pid: pid_t) throws -> (switches: Int, cpuSeconds: Double) {
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
        var switches = 0
        for task in tasks {
            let status = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)) ?? ""
            for line in status.split(separator: "\n") where line.contains("ctxt_switches:") {
                switches += Int(line.split(separator: "\t").last.map(String.init) ?? "") ?? 0
            }
        }
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // Fields after the command name, which is in parentheses and may hold spaces.
        let fields = stat[stat.index(after: stat.lastIndex(of: ")")!)...].split(separator: " ")
        let ticks = (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)
        return (switches, ticks / Double(sysconf(Int32(_SC_CLK_TCK))))
    }

    /// Sends `signal` and waits until the process is gone; returns the milliseconds it took.
    static func millisecondsToEnd(_ pid: pid_t, after signal: Int32) throws -> Double {
        let start = ContinuousClock.now
        kill(pid, signal)
        while kill(pid, 0) == 0 || errno != ESRCH {
            if ContinuousClock.now - start > .seconds(10) {
                throw BenchError.unexpected("process \(pid) did not end on signal \(signal)")
            }
            // A zombie waiting for the probe to reap it has ended.
            if let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let state = stat[stat.index(after: stat.lastIndex(of: ")")!)...].split(separator: " ").first,
                state == "Z"
            {
                break
            }
            usleep(100)
        }
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
