import ABRLab
import ABRLabFormats
import Foundation
import Testing
import TestSupport

@Suite(.tags(.core, .datasets), .selectedByTags, .needsDatasets)
struct TraceDatasetTests {
    static let pensieveFolder = Datasets.url("pensieve/cooked_test_traces")

    @Test func loadsAllPensieveTracesExactly() throws {
        let traces = try TraceLoader.loadDirectory(Self.pensieveFolder)
        #expect(traces.count == 142)
        #expect(Set(traces.map(\.trace.name)).count == 142)
        for loaded in traces {
            #expect(loaded.format == .pensieve)
            #expect(loaded.warnings.isEmpty, "\(loaded.trace.name): \(loaded.warnings)")
            let text = try String(contentsOf: Self.pensieveFolder.appendingPathComponent(loaded.trace.name), encoding: .utf8)
            let rows = text.split(separator: "\n").map { $0.split(whereSeparator: { $0 == "\t" || $0 == " " }).compactMap { Double($0) } }
            #expect(loaded.trace.periodEndSeconds == rows.dropFirst().map { $0[0] - rows[0][0] })
            #expect(loaded.trace.bandwidthBitsPerSecond == rows.dropFirst().map { $0[1] * 1_000_000 })
        }
    }

    @Test func norwayBus1StartsAsItsFileSays() throws {
        let trace = try TraceLoader.load(Self.pensieveFolder.appendingPathComponent("norway_bus_1")).trace
        #expect(trace.name == "norway_bus_1")
        #expect(Array(trace.periodEndSeconds.prefix(4)) == [0.549999952316, 0.879999876022, 1.34999990463, 1.74000000954])
        let megabitsPerSecond: [Double] = [4.79283060109, 4.49231799163, 4.33123809524, 4.2856286645]
        #expect(Array(trace.bandwidthBitsPerSecond.prefix(4)) == megabitsPerSecond.map { $0 * 1_000_000 })
    }

    @Test(arguments: [TraceFormat.pensieve, .csv])
    func pensieveTracesConvertWithoutLoss(format: TraceFormat) throws {
        for loaded in try TraceLoader.loadDirectory(Self.pensieveFolder) {
            let text = try TraceWriter.text(for: loaded.trace, format: format)
            #expect(try TraceLoader.parse(text, file: loaded.trace.name, format: format).trace == loaded.trace)
        }
    }

    @Test func loadsSabreExampleNetwork() throws {
        let loaded = try TraceLoader.load(Datasets.url("sabre/network.json"))
        #expect(loaded.format == .sabre)
        #expect(loaded.warnings.isEmpty)
        #expect(loaded.trace.name == "network")
        #expect(loaded.trace.periodEndSeconds == [30, 60, 90, 120])
        #expect(loaded.trace.durationSeconds == 120)
        #expect(loaded.trace.bandwidthBitsPerSecond == [5_000_000, 3_000_000, 1_500_000, 3_000_000])
        #expect(loaded.trace.latencySeconds == [0.075, 0.15, 0.2, 0.15])
    }

    @Test(arguments: [("3Glogs", 86), ("4Glogs", 40), ("hd_fs", 1000), ("sd_fs", 1000)])
    func loadsSabreTraceSets(folder: String, count: Int) throws {
        let traces = try TraceLoader.loadDirectory(Datasets.url("sabre/mmsys18/\(folder)"))
        #expect(traces.count == count)
        #expect(traces.allSatisfy { $0.format == .sabre && $0.trace.latencySeconds != nil })
    }
}
