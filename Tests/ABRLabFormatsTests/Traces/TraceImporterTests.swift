import ABRLab
import ABRLabFormats
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct TraceImporterTests {
    @Test func hsdpaLogRowsBecomePeriods() throws {
        let log = """
            1289406399 0 59.85 10.78 125000 1000
            1289406400 1000 59.85 10.78 0 0
            1289406401 2000 59.85 10.78 62500 500

            """
        let trace = try TraceImporter.hsdpaLog(log, file: "bus.log", name: "bus")
        #expect(trace.periodEndSeconds == [1, 1.5])
        #expect(trace.bandwidthBitsPerSecond == [1_000_000, 1_000_000])
        #expect(trace.path.map { NetworkQuality(path: $0) } == .good)
    }

    @Test(arguments: [
        ("1 2 3 4 5\n", "bus.log:1: expected 6 columns (unix s, ms, lat, lon, bytes, ms), found 5"),
        ("1 2 3 4 x 5\n", "bus.log:1: bytes and milliseconds must be numbers ≥ 0"),
        ("\n", "bus.log: the log has no samples"),
    ])
    func hsdpaLogErrors(text: String, message: String) {
        #expect(throws: InputError.self) { try TraceImporter.hsdpaLog(text, file: "bus.log", name: "bus") }
        do {
            _ = try TraceImporter.hsdpaLog(text, file: "bus.log", name: "bus")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func irish5GRowsAveragePerSecondAndSpanToTheNext() throws {
        let csv = """
            Timestamp,Longitude,Latitude,Speed,Operatorname,CellID,NetworkMode,RSRP,RSRQ,SNR,CQI,RSSI,DL_bitrate,UL_bitrate,State
            2019.12.16_11.39.14,-8.4,51.8,0,A,1,5G,-90,-11,5,9,-70,1000,20,D
            2019.12.16_11.39.14,-8.4,51.8,0,A,1,5G,-90,-11,5,9,-70,3000,20,D
            2019.12.16_11.39.16,-8.4,51.8,0,A,1,5G,-90,-11,5,9,-70,-,20,I
            2019.12.16_11.39.17,-8.4,51.8,0,A,1,5G,-90,-11,5,9,-70,500,20,D
            """
        let trace = try TraceImporter.irish5G(csv, file: "5g.csv", name: "5g")
        #expect(trace.periodEndSeconds == [2, 3, 4])
        #expect(trace.bandwidthBitsPerSecond == [2_000_000, 0, 500_000])
    }

    @Test func irish5GCrossesMidnightAndMonths() throws {
        let csv = """
            Timestamp,DL_bitrate
            2019.12.31_23.59.59,100
            2020.01.01_00.00.01,200
            """
        let trace = try TraceImporter.irish5G(csv, file: "5g.csv", name: "5g")
        #expect(trace.periodEndSeconds == [2, 3])
    }

    @Test(arguments: [
        ("Time,DL\n1,2\n", "5g.csv:1: expected the columns Timestamp and DL_bitrate"),
        ("Timestamp,DL_bitrate\n2019-12-16 11:39:14,5\n", "5g.csv:2: cannot read the timestamp '2019-12-16 11:39:14'; expected YYYY.MM.DD_HH.MM.SS"),
        ("Timestamp,DL_bitrate\n2019.12.16_11.39.14,abc\n", "5g.csv:2: DL_bitrate 'abc' is not a number of kbps ≥ 0"),
        ("Timestamp,DL_bitrate\n2019.12.16_11.39.14,1\n2019.12.16_11.39.13,1\n", "5g.csv:3: the timestamp goes back in time"),
    ])
    func irish5GErrors(text: String, message: String) {
        do {
            _ = try TraceImporter.irish5G(text, file: "5g.csv", name: "5g")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == message)
        }
    }
}
