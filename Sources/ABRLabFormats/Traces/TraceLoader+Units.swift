import ABRLab

extension TraceLoader {
    /// A bandwidth unit as trace files spell it.
    enum BandwidthUnit: String, CaseIterable {
        case bps, kbps, mbps

        /// Bits per second in one unit; loaders multiply by it, as Pensieve does with `Mbps × 1e6`.
        var bitsPerSecond: Double {
            switch self {
            case .bps: 1
            case .kbps: 1000
            case .mbps: 1_000_000
            }
        }

        var symbol: String {
            switch self {
            case .bps: "bit/s"
            case .kbps: "kbit/s"
            case .mbps: "Mbit/s"
            }
        }
    }

    /// A time unit as trace files spell it.
    enum TimeUnit: String, CaseIterable {
        case s, ms

        /// Converts a value in this unit to seconds; milliseconds are divided by 1000, the one
        /// rounding the formats' own simulators also make.
        func seconds(_ value: Double) -> Double {
            switch self {
            case .s: value
            case .ms: value / 1000
            }
        }
    }

    /// Median bandwidth above which values probably use a smaller unit than the file says.
    static let implausiblyHighBitsPerSecond = 1e9
    /// Bandwidth under which every value of a trace probably uses a larger unit than the file says.
    static let implausiblyLowBitsPerSecond = 1000.0

    /// Doubts about a loaded trace's units. Thresholds are wide (1 Gbit/s median, 1 kbit/s
    /// everywhere, 10 ms or 1 h median periods) so real traces never trip them, while a factor
    /// of 1000 in the wrong direction does.
    static func unitWarnings(
        for trace: NetworkTrace, file: String, bandwidthUnit: BandwidthUnit?, timeUnit: TimeUnit?
    ) -> [InputWarning] {
        var warnings: [InputWarning] = []
        let delivering = trace.bandwidthBitsPerSecond.filter { $0 > 0 }
        if delivering.isEmpty {
            warnings.append(InputWarning(file: file, "no period delivers data, so no download can finish on this trace"))
        } else if let unit = bandwidthUnit {
            let maximumBitsPerSecond = delivering.max() ?? 0
            // The median lies between the extremes, so it is sorted for only when an extreme
            // crosses the threshold (never on a real trace).
            if maximumBitsPerSecond > implausiblyHighBitsPerSecond, case let medianBitsPerSecond = median(delivering),
               medianBitsPerSecond > implausiblyHighBitsPerSecond {
                warnings.append(InputWarning(
                    file: file,
                    "median bandwidth is \(NumberText.plain(medianBitsPerSecond / unit.bitsPerSecond)) \(unit.rawValue), "
                        + "over 1 Gbit/s; are the values in a smaller unit than \(unit.symbol)?"
                ))
            } else if maximumBitsPerSecond < implausiblyLowBitsPerSecond {
                warnings.append(InputWarning(
                    file: file,
                    "every bandwidth is under 1 kbit/s (at most \(NumberText.plain(maximumBitsPerSecond / unit.bitsPerSecond)) "
                        + "\(unit.rawValue)); are the values in a larger unit than \(unit.symbol)?"
                ))
            }
        }
        if let unit = timeUnit {
            let durations = trace.periods.map(\.durationSeconds)
            guard let shortest = durations.min(), let longest = durations.max(), shortest < 0.01 || longest > 3600 else { return warnings }
            let medianSeconds = median(durations)
            let shown = NumberText.plain(unit == .ms ? medianSeconds * 1000 : medianSeconds)
            if medianSeconds < 0.01 {
                warnings.append(InputWarning(
                    file: file, "the median period lasts \(shown) \(unit.rawValue), under 10 ms; are the times in seconds?"
                ))
            } else if medianSeconds > 3600 {
                warnings.append(InputWarning(
                    file: file, "the median period lasts \(shown) \(unit.rawValue), over an hour; are the times in milliseconds?"
                ))
            }
        }
        return warnings
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
