import ABRLab
import Foundation
import Testing
import TestSupport

/// Every one of Pensieve's 142 test traces against a reference implementation written here,
/// straight from `fixed_env.py` and `bb.py` (times in ms, its operations in its order), sharing
/// no code with the emulator.
@Suite(.tags(.core, .datasets, .reference), .selectedByTags, .needsDatasets)
struct PensieveReferenceTests {
    static let traceFolder = Datasets.url("pensieve/cooked_test_traces")

    static var traceNames: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: traceFolder.path)) ?? []).sorted()
    }

    @Test func theTestSetHas142Traces() {
        #expect(Self.traceNames.count == 142)
    }

    @Test(arguments: traceNames)
    func emulatorMatchesTheReference(trace name: String) throws {
        let url = Self.traceFolder.appendingPathComponent(name)
        let video = try PensieveAcceptanceTests.video()
        let expected = try Self.referenceTotal(traceText: String(contentsOf: url, encoding: .utf8), video: video)
        #expect(abs(try PensieveAcceptanceTests.total(traceFile: url, video: video) - expected) < 1e-9)
    }

    /// Pensieve's buffer-based run over one trace, transcribed from its Python.
    static func referenceTotal(traceText: String, video: Video) throws -> Double {
        var time: [Double] = []
        var bandwidth: [Double] = []
        for line in traceText.split(separator: "\n") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 2, let t = Double(fields[0]), let b = Double(fields[1]) else { continue }
            time.append(t)
            bandwidth.append(b)
        }
        let bitrates = [300.0, 750, 1200, 1850, 2850, 4300]
        var pointer = 1
        var lastTime = time[0]
        var buffer = 0.0
        var quality = 1
        var lastQuality = 1
        var total = 0.0
        for chunk in 0..<48 {
            let size = Double(video.sizeBytes(segment: chunk, level: quality))
            var delay = 0.0
            var sent = 0.0
            while true {
                let throughput = bandwidth[pointer] * 1_000_000 / 8
                let duration = time[pointer] - lastTime
                let payload = throughput * duration * 0.95
                if sent + payload > size {
                    let fraction = (size - sent) / throughput / 0.95
                    delay += fraction
                    lastTime += fraction
                    break
                }
                sent += payload
                delay += duration
                lastTime = time[pointer]
                pointer += 1
                if pointer >= bandwidth.count {
                    pointer = 1
                    lastTime = 0
                }
            }
            delay *= 1000
            delay += 80
            let rebuffer = max(delay - buffer, 0)
            buffer = max(buffer - delay, 0) + 4000
            if buffer > 60_000 {
                var sleep = ((buffer - 60_000) / 500).rounded(.up) * 500
                buffer -= sleep
                while true {
                    let duration = time[pointer] - lastTime
                    if duration > sleep / 1000 {
                        lastTime += sleep / 1000
                        break
                    }
                    sleep -= duration * 1000
                    lastTime = time[pointer]
                    pointer += 1
                    if pointer >= bandwidth.count {
                        pointer = 1
                        lastTime = 0
                    }
                }
            }
            total += bitrates[quality] / 1000 - 4.3 * (rebuffer / 1000) - 1 * abs(bitrates[quality] - bitrates[lastQuality]) / 1000
            lastQuality = quality
            let seconds = buffer / 1000
            if seconds < 5 {
                quality = 0
            } else if seconds >= 15 {
                quality = 5
            } else {
                quality = Int(5 * (seconds - 5) / 10)
            }
        }
        return total
    }
}
