// Times the configurator on generated catalogs far larger than the language can write yet
// (30 families of 10 options with 1,000 rules; 60 of 8 with 3,000; 6 of 2,000 with 600): each of `options`, `why`,
// `fit` and `cheapest` as the commands ask it, the space compiled afresh each time as they do.
// Built with the domain's sources by Scripts/bench-configurator; prints one row per answer.
import Glibc

func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1_000_000
}

nonisolated(unsafe) var lastError: String?
nonisolated(unsafe) var failed = false

/// The slowest of `runs` runs of `body`, in milliseconds; an answer that fails is reported
/// (`lastError`) with the time it took to fail.
func time(_ runs: Int = 5, _ body: () throws -> Void) -> Double {
    var worst = 0.0
    lastError = nil
    for _ in 0..<runs {
        let start = now()
        do { try body() } catch { lastError = "\(error)" }
        worst = max(worst, now() - start)
        if lastError != nil { break }
    }
    return worst
}

/// `value` with `places` decimals (no Foundation here).
func fixed(_ value: Double, _ places: Int = 2) -> String {
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let whole = Int((value * scale).rounded())
    let digits = String(whole % Int(scale))
    return "\(whole / Int(scale)).\(String(repeating: "0", count: places - digits.count))\(digits)"
}

/// Writes `line` at once (no buffer to lose if a search fails).
func say(_ line: String) {
    var text = line + "\n"
    _ = text.withUTF8 { write(1, $0.baseAddress, $0.count) }
}

func row(_ name: String, _ milliseconds: Double, _ detail: String) {
    let padded = name + String(repeating: " ", count: max(0, 52 - name.count))
    let time = fixed(milliseconds) + " ms"
    if let lastError {
        failed = true
        say("\(padded) \(fixed(milliseconds)) ms  FAILED: \(lastError)")
        return
    }
    say(
        "\(padded) \(String(repeating: " ", count: max(0, 10 - time.count)))\(time)  \(milliseconds <= 50 ? "ok" : "OVER 50 ms")  \(detail)"
    )
}

// The last, wide: families of 2,000 options joined by `require`s, whose tables once took a
// bitset of the whole other family per option (trial 10, 1); its compile row gives their bytes.
for (families, options, rules) in [(30, 10, 1_000), (60, 8, 3_000), (6, 2_000, 600)] {
    let (space, car) = ConfigurationSpace.generated(
        families: families, options: options, rules: rules, seed: UInt64(families * 7919 + rules))
    let label = "\(families) families x \(options) options, \(rules) rules:"
    var tables = 0
    let compile = time { tables = try Configurator(space: space).tableBytes }
    row("\(label) compile", compile, "tables \(fixed(Double(tables) / 1_048_576, 1)) MiB")
    var statuses: [[OptionStatus]] = []
    let optionsTime = time { statuses = try Configurator(space: space).statuses(of: car) }
    var counts = [0, 0, 0, 0]
    for family in statuses {
        for status in family {
            switch status {
            case .current: counts[0] += 1
            case .settable: counts[1] += 1
            case .needsRepair: counts[2] += 1
            case .impossible: counts[3] += 1
            }
        }
    }
    row("\(label) options", optionsTime, "current \(counts[0]), settable \(counts[1]), repair \(counts[2]), impossible \(counts[3])")
    // `why` and `fit` ask about the first options (in family order) the car cannot take
    // alone: one some valid car has, and one none has (chosen without `options`, whose
    // answer may have failed).
    let probe = try Configurator(space: space)
    var wanted: ConfigurationSpace.Choice?
    var impossible: ConfigurationSpace.Choice?
    search: for f in 0..<families {
        for o in 0..<options where o != car[f] {
            var alone = car
            alone[f] = o
            guard !probe.isValid(alone) else { continue }
            let ruledOut = (try? probe.rulesRuling(out: .init(f, o)).isEmpty == false) ?? false
            if ruledOut {
                impossible = impossible ?? .init(f, o)
            } else {
                wanted = wanted ?? .init(f, o)
            }
            if wanted != nil && impossible != nil { break search }
        }
    }
    if let wanted {
        var repairs: [Repair] = []
        row(
            "\(label) why \(wanted) (repairs)", time { repairs = try Configurator(space: space).repairs(of: car, wanting: wanted) },
            "\(repairs.count) repairs, the cheapest of \(repairs.first?.changes.count ?? 0) changes")
        var cheapest: Repair?
        row(
            "\(label) fit \(wanted)",
            time {
                let configurator = try Configurator(space: space)
                cheapest = try configurator.repairs(of: car, wanting: wanted, limit: 1).first
                var fitted = car
                fitted[wanted.family] = wanted.option
                for change in cheapest?.changes ?? [] { fitted[change.family] = change.option }
                if !configurator.isValid(fitted) { failed = true }
            }, "\(cheapest?.changes.count ?? 0) changes")
    }
    if let impossible {
        var core: [Int] = []
        row("\(label) why (impossible)", time { core = try Configurator(space: space).rulesRuling(out: impossible) }, "\(core.count) rules")
    }
    var fixed = [Int?](repeating: nil, count: families)
    fixed[0] = 1
    var best: [Int]?
    row(
        "\(label) cheapest", time { best = try Configurator(space: space).cheapest(fixed: Array(repeating: nil, count: families)) },
        best == nil ? "no valid car" : "found")
    row(
        "\(label) cheapest f0o1", time { best = try Configurator(space: space).cheapest(fixed: fixed) },
        best == nil ? "no valid car" : "found")
}
var usage = rusage()
getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
let mebibytes = Double(usage.ru_maxrss) / 1024
say("peak memory (max RSS) \(fixed(mebibytes, 1)) MiB  \(mebibytes <= 64 ? "ok" : "OVER 64 MiB")")
if failed {
    say("some answers failed")
    exit(1)
}
