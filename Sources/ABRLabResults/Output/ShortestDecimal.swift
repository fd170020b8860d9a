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
        return shift >= 0 ? DecimalDigits.powerOfTen(n) << shift : DecimalDigits.powerOfTen(n) >> -shift
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

    /// Writes `value`, from 1e-3 up to 1e15 in magnitude, at the front of `text`
    /// (`DecimalDigits.room` bytes) in plain notation as Swift does, whole numbers without a
    /// point, and returns the length. Outside that range Swift writes an exponent (and the
    /// powers of ten here do not reach).
    static func write(_ value: Double, into text: UnsafeMutablePointer<UInt8>) -> Int {
        precondition(value.magnitude >= 1e-3 && value.magnitude < 1e15, "a plain decimal's range")
        let negative = value.sign == .minus
        let bits = value.bitPattern
        let c = (bits & (1 << 52 - 1)) | (1 << 52)
        let q = Int(truncatingIfNeeded: (bits >> 52) & 0x7ff) - 1075
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
                return layout(upin ? sp10 : tp10, exponent: k, negative: negative, into: text)
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
        return layout(digits, exponent: k, negative: negative, into: text)
    }

    /// `digits · 10^exponent` in plain notation, trailing zeros dropped, a minus in front when
    /// `negative`: the digits right-aligned at `DecimalDigits.end`, the frame around them, then
    /// moved to the front.
    @inline(__always) private static func layout(_ digits: UInt64, exponent: Int, negative: Bool, into text: UnsafeMutablePointer<UInt8>) -> Int {
        var digits = digits
        var exponent = exponent
        while digits % 10 == 0 {
            digits /= 10
            exponent &+= 1
        }
        DecimalDigits.clear(text)
        let count = DecimalDigits.count(digits)
        DecimalDigits.writeRightAligned(digits, count: count, into: text)
        let end = DecimalDigits.end
        var start = end &- count
        var length = count
        let point = count &+ exponent
        if point <= 0 {
            // `0.`, then up to two zeros before the digits.
            for index in 1 ... (2 &- point) { text[start &- index] = UInt8(ascii: "0") }
            start &-= 2 &- point
            text[start &+ 1] = UInt8(ascii: ".")
            length &+= 2 &- point
        } else if point < count {
            // The fraction (16 digits at most) moves one place right to make room for the point.
            let raw = UnsafeMutableRawPointer(text)
            let fraction = start &+ point
            let low = raw.loadUnaligned(fromByteOffset: fraction, as: UInt64.self)
            let high = raw.loadUnaligned(fromByteOffset: fraction &+ 8, as: UInt64.self)
            raw.storeBytes(of: low, toByteOffset: fraction &+ 1, as: UInt64.self)
            raw.storeBytes(of: high, toByteOffset: fraction &+ 9, as: UInt64.self)
            text[fraction] = UInt8(ascii: ".")
            length &+= 1
        } else {
            // A whole number: its zeros up to the point.
            for index in count ..< point { text[start &+ index] = UInt8(ascii: "0") }
            length = point
        }
        if negative {
            start &-= 1
            text[start] = UInt8(ascii: "-")
            length &+= 1
        }
        return DecimalDigits.moveToFront(from: start, length: length, in: text)
    }
}
