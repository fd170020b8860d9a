/// Decimal digits written in blocks of eight, two digits a multiplication, into a scratch area
/// that is also the destination: digits are laid right-aligned at ``end``, framed in place (sign,
/// point, zeros) and moved to the start with three 8-byte copies. Rows write hundreds of
/// thousands of numbers, and a digit a division with a copy per number cost most of a run.
enum DecimalDigits {
    /// Bytes a caller gives: the frame's headroom, ``end``, and the 24-byte move past any start.
    static let room = 48
    /// Where a number's last digit ends before it is moved: three blocks of eight (any
    /// UInt64's digits, or 17 and a `-0.00` prefix) fit to its left, and a point and fourteen
    /// zeros to its right.
    static let end = 25

    /// The two digits of 0 ... 99, in turn.
    private static let pairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    /// 10^n for n = 0 ... 19, from a table the compiler lays out.
    @inline(__always) static func powerOfTen(_ n: Int) -> UInt64 {
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

    /// The count of decimal digits of `value` (one for zero): ⌊log₁₀⌋ + 1 from its bit length.
    @inline(__always) static func count(_ value: UInt64) -> Int {
        let estimate = ((64 &- value.leadingZeroBitCount) &* 1233) >> 12
        return max(1, estimate &+ (value >= powerOfTen(estimate) ? 1 : 0))
    }

    /// Clears the scratch, so that the moves below copy only bytes written here.
    @inline(__always) static func clear(_ text: UnsafeMutablePointer<UInt8>) {
        let raw = UnsafeMutableRawPointer(text)
        for offset in stride(from: 0, to: room, by: 8) { raw.storeBytes(of: 0, toByteOffset: offset, as: UInt64.self) }
    }

    /// Writes the eight digits of `value` (below 10^8, leading zeros included) at `text`:
    /// `value · ⌈2^48 / 10^6⌉` holds `value / 10^6` as a 16.48 fixed-point number whose error
    /// stays below one unit through three multiplications by 100 (checked for every value).
    @inline(__always) private static func writeEight(_ value: UInt64, at text: UnsafeMutablePointer<UInt8>) {
        let table = UnsafeRawPointer(pairs.utf8Start)
        let raw = UnsafeMutableRawPointer(text)
        let fraction: UInt64 = (1 << 48) - 1
        var product = value &* 281_474_977
        for offset in stride(from: 0, to: 8, by: 2) {
            let pair = Int(truncatingIfNeeded: product >> 48) &* 2
            raw.storeBytes(of: table.loadUnaligned(fromByteOffset: pair, as: UInt16.self), toByteOffset: offset, as: UInt16.self)
            product = (product & fraction) &* 100
        }
    }

    /// Writes the `count` last digits of `value` to end at ``end``; blocks of eight spill
    /// leading zeros to the left, which the frame overwrites or leaves outside the number.
    @inline(__always) static func writeRightAligned(_ value: UInt64, count: Int, into text: UnsafeMutablePointer<UInt8>) {
        var rest = value
        var blockEnd = text + end
        var left = count
        while left > 8 {
            let high = rest / 100_000_000
            writeEight(rest &- high &* 100_000_000, at: blockEnd - 8)
            rest = high
            blockEnd -= 8
            left &-= 8
        }
        writeEight(rest, at: blockEnd - 8)
    }

    /// Moves the `length` bytes at `start` (24 at most) to the front of `text`, and returns `length`.
    @inline(__always) static func moveToFront(from start: Int, length: Int, in text: UnsafeMutablePointer<UInt8>) -> Int {
        let raw = UnsafeMutableRawPointer(text)
        let a = raw.loadUnaligned(fromByteOffset: start, as: UInt64.self)
        let b = raw.loadUnaligned(fromByteOffset: start &+ 8, as: UInt64.self)
        let c = raw.loadUnaligned(fromByteOffset: start &+ 16, as: UInt64.self)
        raw.storeBytes(of: a, toByteOffset: 0, as: UInt64.self)
        raw.storeBytes(of: b, toByteOffset: 8, as: UInt64.self)
        raw.storeBytes(of: c, toByteOffset: 16, as: UInt64.self)
        return length
    }

    /// Writes `magnitude`, with a minus before it when `negative`, at the front of `text`
    /// (``room`` bytes) and returns the length.
    static func write(_ magnitude: UInt64, negative: Bool, into text: UnsafeMutablePointer<UInt8>) -> Int {
        clear(text)
        // Twenty digits and a sign at most: three blocks end at `end` and start at 1.
        let digits = count(magnitude)
        writeRightAligned(magnitude, count: digits, into: text)
        var start = end &- digits
        if negative {
            start &-= 1
            text[start] = UInt8(ascii: "-")
        }
        return moveToFront(from: start, length: end &- start, in: text)
    }
}
