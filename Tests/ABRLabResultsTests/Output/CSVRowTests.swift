import ABRLab
import ABRLabResults
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct CSVRowTests {
    @Test(arguments: [
        ("plain", "plain"),
        ("", ""),
        ("with space", "with space"),
        ("a,b", "\"a,b\""),
        ("say \"hi\"", "\"say \"\"hi\"\"\""),
        ("\"", "\"\"\"\""),
        ("two\nlines", "\"two\nlines\""),
        ("carriage\rreturn", "\"carriage\rreturn\""),
        ("crlf\r\nend", "\"crlf\r\nend\""),
        ("é, ü", "\"é, ü\""),
    ])
    func quotesOnlyWhenNeeded(value: String, expected: String) {
        var row = CSVRow()
        row.add(value)
        #expect(row.text == expected)
    }

    @Test(arguments: [
        0.1, 1e-7, 1e22, 77.88468025140871, 0.30000000000000004, 1.0 / 3, 123456789.123456789,
        .leastNonzeroMagnitude, .greatestFiniteMagnitude, -2.5, 0, 4300, 1e16, 0.95,
    ])
    func doublesRoundTrip(value: Double) throws {
        var row = CSVRow()
        row.add(value)
        let parsed = try #require(Double(row.text))
        #expect(parsed == value)
        #expect(!row.text.contains(","))
    }

    /// The shortest text that parses back: whole numbers without `.0`, exponents where Swift
    /// (and Python's `repr`) write them.
    @Test(arguments: [
        (331.0, "331"), (0, "0"), (-0.0, "-0"), (-2, "-2"), (4300, "4300"), (750.5, "750.5"), (0.1, "0.1"),
        (999_999_999_999_999, "999999999999999"), (-123_456_789_012_345, "-123456789012345"), (1e15, "1000000000000000"), (9_007_199_254_740_992, "9007199254740992"), (1e16, "1e+16"), (1e22, "1e+22"),
        (1e-5, "1e-05"), (0.0001, "0.0001"), (1.5e300, "1.5e+300"), (10.0, "10"), (100.0, "100"), (-0.5, "-0.5"),
    ] as [(Double, String)])
    func doublesAreWrittenShortest(value: Double, expected: String) {
        var row = CSVRow()
        row.add(value)
        #expect(row.text == expected)
    }

    /// Random doubles of every magnitude and whole numbers: each parses back to itself, bit for
    /// bit, as Swift's description without a trailing `.0`.
    @Test func randomDoublesRoundTripWithoutATrailingPointZero() throws {
        var generator = SeededGenerator(seed: 29)
        for index in 0..<20_000 {
            let bits = generator.next()
            let value = index.isMultiple(of: 2) ? Double(bitPattern: bits) : Double(Int64(bitPattern: bits) >> Int64(bits % 60))
            guard value.isFinite else { continue }
            var row = CSVRow()
            row.add(value)
            let parsed = try #require(Double(row.text), "\(row.text)")
            #expect(parsed.bitPattern == value.bitPattern, "\(value) written \(row.text)")
            let description = value.description
            #expect(row.text == (description.hasSuffix(".0") ? String(description.dropLast(2)) : description))
        }
    }

    /// Every kind of double a run writes in plain notation (1e-3 to 1e15, where the rows find
    /// the digits themselves and hand the rest to Swift's formatter): random bit patterns,
    /// ratios, powers of two and their neighbours (whose lower bound is nearer), and the edges
    /// of that range; each written as Swift's description, digit for digit.
    @Test func plainDoublesAreWrittenAsSwiftWritesThem() {
        var generator = SeededGenerator(seed: 37)
        var values: [Double] = [1e-3, 1e-3.nextDown, 1e-3.nextUp, 1e15.nextDown, 1e-4, 1e-4.nextUp, 0.1, 0.2, 0.3, 2.0 / 3, 5e-3, 0.125]
        for exponent in -11...50 {
            let power = Double(sign: .plus, exponent: exponent, significand: 1)
            values += [power, power.nextUp, power.nextDown, power * 1.5, (power * 1.5).nextDown]
        }
        for _ in 0..<60_000 {
            values.append(Double(bitPattern: 0x3F40_0000_0000_0000 + generator.next() % 0x03D0_0000_0000_0000))
            values.append(Double(generator.next() % 100_000_000 + 1) / Double(generator.next() % 100_000 + 1))
            values.append(Double(generator.next() % 10_000_000) * 0.001 + Double(generator.next() % 1000) / 7)
        }
        for value in values + values.map(-) {
            var row = CSVRow()
            row.add(value)
            let description = value.description
            #expect(row.text == (description.hasSuffix(".0") ? String(description.dropLast(2)) : description), "\(description)")
        }
    }

    /// Decimals of 1 to 6 places, as times and rates in a run often are, at every magnitude a run
    /// writes: each is written as Swift's description (without a trailing `.0`).
    @Test func shortDecimalsAreWrittenAsSwiftWritesThem() {
        var generator = SeededGenerator(seed: 31)
        let scales: [Double] = [1, 10, 100, 1000, 10000, 100_000, 1_000_000]
        for index in 0..<30_000 {
            let decimals = Int(generator.next() % 7)
            let digits = Double(generator.next() % (index.isMultiple(of: 3) ? 100_000 : 2_000_000_000_000_000))
            let value = (index.isMultiple(of: 2) ? 1 : -1) * digits / scales[decimals]
            var row = CSVRow()
            row.add(value)
            let description = value.description
            #expect(row.text == (description.hasSuffix(".0") ? String(description.dropLast(2)) : description), "\(description)")
        }
        for value in [0.0001, 0.00015, 0.0625, 999_999_999.9999, 1e9 + 0.5, 123_456_789.1234, 0.1 + 0.2, 1.0 / 3] {
            var row = CSVRow()
            row.add(value)
            #expect(row.text == value.description, "\(value)")
        }
    }

    @Test func negativeZeroKeepsItsSign() throws {
        var row = CSVRow()
        row.add(-0.0)
        let parsed = try #require(Double(row.text))
        #expect(parsed == 0)
        #expect(parsed.sign == .minus)
    }

    @Test func nonFiniteDoubles() {
        var row = CSVRow()
        row.add(Double.nan)
        row.add(Double.infinity)
        row.add(-Double.infinity)
        row.add(Double.signalingNaN)
        // NaN is written as an empty field, which pandas reads as missing.
        #expect(row.text == ",inf,-inf,")
    }

    @Test func integersAndMixedFields() {
        var row = CSVRow()
        row.add("bba")
        row.add(-3)
        row.add(UInt64.max)
        row.add(2.5)
        row.add(Double.nan)
        row.add("x,y")
        #expect(row.text == "bba,-3,18446744073709551615,2.5,,\"x,y\"")
        #expect(row.line == row.text + "\n")
    }

    /// Integers of every length, written in blocks of eight digits: random values at each
    /// magnitude, the edges of each block, and the types' extremes, each as Swift writes it.
    @Test func integersOfEveryLengthAreWrittenAsSwiftWritesThem() {
        var generator = SeededGenerator(seed: 41)
        var unsigned: [UInt64] = [0, 1, 9, 10, 99_999_999, 100_000_000, 9_999_999_999_999_999, 10_000_000_000_000_000, UInt64.max]
        for digits in 1...19 {
            let power = (0..<digits).reduce(UInt64(1)) { value, _ in value * 10 }
            unsigned += [power - 1, power, power + 1, generator.next() % power]
        }
        for _ in 0..<20_000 { unsigned.append(generator.next() >> (generator.next() % 64)) }
        for value in unsigned {
            var row = CSVRow()
            row.add(value)
            #expect(row.text == value.description)
        }
        let signed = unsigned.map { Int(truncatingIfNeeded: $0) } + [Int.min, Int.max, -1, -100_000_000]
        for value in signed + signed.map { $0 == .min ? 0 : -$0 } {
            var row = CSVRow()
            row.add("x")
            row.add(value)
            row.add(Double(value))
            let description = Double(value).description
            let expected = description.hasSuffix(".0") ? String(description.dropLast(2)) : description
            #expect(row.text == "x,\(value),\(expected)")
        }
    }

    @Test func emptyRowIsAnEmptyLine() {
        #expect(CSVRow().text == "")
        #expect(CSVRow().line == "\n")
    }

    @Test func aRowOfOneEmptyFieldIsEmptyText() {
        var row = CSVRow()
        row.add("")
        row.add("")
        #expect(row.text == ",")
    }

    @Test func headerLine() {
        #expect(CSVRow.line(["strategy", "trace", "a,b"]) == "strategy,trace,\"a,b\"\n")
        #expect(CSVRow.line([]) == "\n")
    }
}
