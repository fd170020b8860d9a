/// The shortest decimal that reads back as a double, the closest such when several are as
/// short (the even one on a tie), written in plain notation (`1122.2952919614527`, `0.0125`), by
/// Schubfach (R. Giulietti, "The Schubfach way to render doubles", 2020, revised 2022; a
/// preprint without a DOI, the algorithm of Java's `Double.toString` since JDK 19): the decimal
/// of the right length comes from one 128-bit product per bound of the rounding interval, with
/// no digit-by-digit search. These are the digits Swift's own formatter writes (the same
/// shortest, closest rule); `CSVRowTests` holds them to its `description`.
enum ShortestDecimal {
    /// `g1`, the upper 63 bits of ⌊10^n · 2^(125 − ⌊n log₂10⌋)⌋ + 1, for the n = 1 ... 19 the
    /// plain range (1e-3 ..< 1e15) divides by: 10^n shifted to its top bit at 62 (10^19, whose
    /// top bit is 63, is even). The lower 63 bits, `g0`, are 1: 10^n has at least n zero bits
    /// below its 63 highest.
    @inline(__always) private static func g1(_ n: Int) -> UInt64 {
        let shift = 62 - floorLog2Pow10(n)
        return shift >= 0 ? powerOfTen(n) << shift : powerOfTen(n) >> -shift
    }

    /// ⌊e · log₂10⌋, exact for |e| ≤ 1650.
    @inline(__always) private static func floorLog2Pow10(_ e: Int) -> Int { (e &* 913_124_641_741) >> 38 }
    /// ⌊q · log₁₀2⌋, exact for |q| ≤ 5456.
    @inline(__always) private static func floorLog10Pow2(_ q: Int) -> Int { (q &* 661_971_961_083) >> 41 }
    /// ⌊log₁₀(¾ · 2^q)⌋.
    @inline(__always) private static func floorLog10ThreeQuartersPow2(_ q: Int) -> Int { (q &* 661_971_961_083 &- 274_743_187_321) >> 41 }

    /// `g · cp / 2^127`, rounded to odd (its last bit set when bits below were not all zero):
    /// what the bounds are compared on. With g0 = 1 the product's high half is `g1 · cp`'s upper
    /// 64 bits, and the bits below are its lower half's, less the last.
    @inline(__always) private static func roundToOdd(_ g1: UInt64, _ cp: UInt64) -> UInt64 {
        let (high, low) = g1.multipliedFullWidth(by: cp)
        return high | (low >> 1 == 0 ? 0 : 1)
    }

    /// Writes `value`, from 1e-3 up to 1e15, into `text` (room for 24 bytes: `0.00` and 17 digits) in plain
    /// notation as Swift does, whole numbers without a point, and returns the length. Outside
    /// that range Swift writes an exponent (and the powers of ten here do not reach).
    static func write(_ value: Double, into text: UnsafeMutablePointer<UInt8>) -> Int {
        precondition(value >= 1e-3 && value < 1e15, "a plain decimal's range")
        let bits = value.bitPattern
        let c = (bits & (1 << 52 - 1)) | (1 << 52)
        let q = Int(truncatingIfNeeded: bits >> 52) - 1075
        let out: UInt64 = c & 1
        let cb = c << 2
        let cbr = cb + 2
        let cbl: UInt64
        let k: Int
        if c != 1 << 52 {
            cbl = cb - 2
            k = floorLog10Pow2(q)
        } else {
            cbl = cb - 1
            k = floorLog10ThreeQuartersPow2(q)
        }
        let h = UInt64(q + floorLog2Pow10(-k) + 2)
        let g1 = Self.g1(-k)
        let vb = roundToOdd(g1, cb << h)
        let vbl = roundToOdd(g1, cbl << h)
        let vbr = roundToOdd(g1, cbr << h)
        let s = vb >> 2
        var digits: UInt64
        if s >= 100 {
            let sp10 = 10 * (s / 10)
            let tp10 = sp10 + 10
            let upin = vbl + out <= sp10 << 2
            let wpin = (tp10 << 2) + out <= vbr
            if upin != wpin {
                return layout(upin ? sp10 : tp10, exponent: k, into: text)
            }
        }
        let t = s + 1
        let uin = vbl + out <= s << 2
        let win = (t << 2) + out <= vbr
        if uin != win {
            digits = uin ? s : t
        } else {
            let middle = (s + t) << 1
            digits = vb < middle || vb == middle && s & 1 == 0 ? s : t
        }
        return layout(digits, exponent: k, into: text)
    }

    /// The two digits of 0 ... 99, in turn: a pair written per division by 100.
    private static let digitPairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    /// 10^n for n = 0 ... 19, from a table the compiler lays out.
    @inline(__always) private static func powerOfTen(_ n: Int) -> UInt64 {
        switch n {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1000
        case 4: 10000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        case 8: 100_000_000
        case 9: 1_000_000_000
        case 10: 10_000_000_000
        case 11: 100_000_000_000
        case 12: 1_000_000_000_000
        case 13: 10_000_000_000_000
        case 14: 100_000_000_000_000
        case 15: 1_000_000_000_000_000
        case 16: 10_000_000_000_000_000
        case 17: 100_000_000_000_000_000
        case 18: 1_000_000_000_000_000_000
        default: 10_000_000_000_000_000_000
        }
    }

    /// The count of decimal digits of positive `value`: ⌊log₁₀⌋ + 1 from its bit length.
    @inline(__always) private static func digitCount(_ value: UInt64) -> Int {
        let estimate = ((64 &- value.leadingZeroBitCount) &* 1233) >> 12
        return estimate &+ (value >= powerOfTen(estimate) ? 1 : 0)
    }

    /// Writes the `count` last decimal digits of `value`, leading zeros included, to end just
    /// before `end`: two a division.
    @inline(__always) private static func writeDigits(_ value: UInt64, count: Int, before end: UnsafeMutablePointer<UInt8>) {
        let pairs = digitPairs.utf8Start
        var value = value
        var position = end
        var left = count
        while left >= 2 {
            let pair = Int(truncatingIfNeeded: value % 100) &* 2
            value /= 100
            position -= 2
            position[0] = pairs[pair]
            position[1] = pairs[pair &+ 1]
            left &-= 2
        }
        if left == 1 {
            position[-1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
        }
    }

    /// `digits · 10^exponent` in plain notation, trailing zeros dropped, each digit written once
    /// in its place.
    @inline(__always) private static func layout(_ digits: UInt64, exponent: Int, into text: UnsafeMutablePointer<UInt8>) -> Int {
        var digits = digits
        var exponent = exponent
        while digits % 10 == 0 {
            digits /= 10
            exponent &+= 1
        }
        let count = digitCount(digits)
        let point = count &+ exponent
        if point <= 0 {
            text[0] = UInt8(ascii: "0")
            text[1] = UInt8(ascii: ".")
            for index in 0 ..< -point { text[2 &+ index] = UInt8(ascii: "0") }
            let length = 2 &- point &+ count
            writeDigits(digits, count: count, before: text + length)
            return length
        }
        if point < count {
            let fraction = count &- point
            let scale = powerOfTen(fraction)
            writeDigits(digits % scale, count: fraction, before: text + count + 1)
            text[point] = UInt8(ascii: ".")
            writeDigits(digits / scale, count: point, before: text + point)
            return count &+ 1
        }
        // A whole number: its zeros up to the point.
        writeDigits(digits, count: count, before: text + count)
        for index in count ..< point { text[index] = UInt8(ascii: "0") }
        return point
    }

}
