@testable import ABRLab
@testable import ABRLabFormats

extension FuzzTarget {
    /// Trace loaders: format detection, each explicit format, the JSON reader under Sabre's, and
    /// the importers of raw dataset logs.
    static let traceTargets: [FuzzTarget] = [
        traceLoader("trace-auto", format: nil, file: "trace", dictionary: "json.dict"),
        traceLoader("trace-pensieve", format: .pensieve, file: "trace", dictionary: "csv.dict"),
        traceLoader("trace-sabre", format: .sabre, file: "trace.json", dictionary: "json.dict"),
        traceLoader("trace-mahimahi", format: .mahimahi, file: "trace", dictionary: nil),
        traceLoader("trace-csv", format: .csv, file: "trace.csv", dictionary: "csv.dict"),
        FuzzTarget(name: "located-json", dictionary: "json.dict") { bytes in
            do throws(InputError) {
                _ = try LocatedJSON.parse(text(bytes), file: "doc.json")
            } catch {
                FuzzCheck.rejection(error, file: "doc.json")
            }
        },
        // The plain-form scanner against the general reader: whatever the scanner reads, the
        // general reader reads too, to the same periods (it decides speed, never content).
        FuzzTarget(name: "sabre-scanner", dictionary: "json.dict") { bytes in
            guard let scanned = SabrePeriodScanner.periods(bytes) else { return }
            do throws(InputError) {
                let general = try TraceLoader.sabrePeriods(bytes: bytes, file: "trace.json")
                FuzzCheck.expect(general == scanned, "the scanner read \(scanned.count) periods the general reader reads otherwise")
            } catch {
                FuzzCheck.expect(false, "the scanner read a trace the general reader refuses: \(error)")
            }
        },
        importer("import-hsdpa", dictionary: nil, TraceImporter.hsdpaLog),
        importer("import-irish-5g", dictionary: "csv.dict", TraceImporter.irish5G),
    ]

    private static func traceLoader(_ name: String, format: TraceFormat?, file: String, dictionary: String?) -> FuzzTarget {
        FuzzTarget(name: name, dictionary: dictionary) { bytes in
            do throws(InputError) {
                let loaded = try TraceLoader.parse(text(bytes), file: file, format: format)
                FuzzCheck.trace(loaded.trace)
                FuzzCheck.expect(format == nil || loaded.format == format, "asked for \(String(describing: format)), got \(loaded.format)")
                for warning in loaded.warnings {
                    FuzzCheck.expect(!warning.description.contains(where: \.isNewline), "warning spans several lines: \(warning)")
                }
            } catch {
                FuzzCheck.rejection(error, file: file)
            }
        }
    }

    private static func importer(
        _ name: String, dictionary: String?, _ parse: @escaping @Sendable (String, String, String) throws(InputError) -> NetworkTrace
    ) -> FuzzTarget {
        FuzzTarget(name: name, dictionary: dictionary) { bytes in
            do throws(InputError) {
                FuzzCheck.trace(try parse(text(bytes), "log.txt", "log"))
            } catch {
                FuzzCheck.rejection(error, file: "log.txt")
            }
        }
    }
}
