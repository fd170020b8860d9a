// JavaScript's Math.pow, Math.exp and Math.log as V8 11.3 (Node 20) computes them, so the dash.js models answer
// dash.js's own bits. V8 does not call the C library for these: src/base/ieee754.cc carries fdlibm's
// __ieee754_pow (as `legacy::pow`), __ieee754_exp and __ieee754_log, and glibc's results differ from them by an
// ulp on about one input in ten (Math.pow(Math.E, -((1.595 - 1.5) * 5)) = 0.6218850564650202, glibc …201).
// The functions below perform fdlibm's operations one for one (e_pow.c, e_exp.c, e_log.c as V8 ships them,
// V8's exp keeping its exp(1) = Math.E special case).
//
// Derived from fdlibm (http://www.netlib.org/fdlibm):
// ====================================================
// Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
//
// Developed at SunSoft, a Sun Microsystems, Inc. business.
// Permission to use, copy, modify, and distribute this
// software is freely granted, provided that this notice
// is preserved.
// ====================================================
// and its adaptation in V8 (src/base/ieee754.cc, Copyright 2016 the V8 project authors, BSD-style licence).

/// V8's fdlibm-based `Math.pow`, `Math.exp` and `Math.log`. Constants are given as the bit patterns fdlibm states.
public enum JSMath {
    // MARK: word access, as fdlibm's EXTRACT_WORDS / SET_HIGH_WORD / SET_LOW_WORD / INSERT_WORDS

    @inline(__always) static func high(_ d: Double) -> Int32 { Int32(truncatingIfNeeded: d.bitPattern >> 32) }
    @inline(__always) static func low(_ d: Double) -> UInt32 { UInt32(truncatingIfNeeded: d.bitPattern) }
    @inline(__always) static func words(_ hi: Int32, _ lo: UInt32) -> Double {
        Double(bitPattern: UInt64(UInt32(bitPattern: hi)) << 32 | UInt64(lo))
    }
    @inline(__always) static func withHigh(_ d: Double, _ hi: Int32) -> Double { words(hi, low(d)) }
    @inline(__always) static func withLowZero(_ d: Double) -> Double { Double(bitPattern: d.bitPattern & 0xFFFF_FFFF_0000_0000) }
    @inline(__always) static func bits(_ b: UInt64) -> Double { Double(bitPattern: b) }

    // Overflow and underflow are produced as fdlibm does, by squaring these.
    static let huge = 1.0e300
    static let tiny = 1.0e-300

    // MARK: exp

    static let expOverflow = bits(0x4086_2E42_FEFA_39EF)   // 7.09782712893383973096e+02
    static let expUnderflow = bits(0xC087_4910_D52D_3051)  // -7.45133219101941108420e+02
    static let ln2HI = [bits(0x3FE6_2E42_FEE0_0000), bits(0xBFE6_2E42_FEE0_0000)]
    static let ln2LO = [bits(0x3DEA_39EF_3579_3C76), bits(0xBDEA_39EF_3579_3C76)]
    static let invln2 = bits(0x3FF7_1547_652B_82FE)
    static let halF = [0.5, -0.5]
    static let P1 = bits(0x3FC5_5555_5555_553E)
    static let P2 = bits(0xBF66_C16C_16BE_BD93)
    static let P3 = bits(0x3F11_566A_AF25_DE2C)
    static let P4 = bits(0xBEBB_BD41_C5D2_6BF1)
    static let P5 = bits(0x3E66_3769_72BE_A4D0)
    static let e = bits(0x4005_BF0A_8B14_5769)             // Math.E
    static let twom1000 = bits(0x0170_0000_0000_0000)      // 2^-1000
    static let two1023 = bits(0x7FE0_0000_0000_0000)       // 2^1023

    /// `Math.exp(x)`: fdlibm's __ieee754_exp as V8 ships it.
    public static func exp(_ x: Double) -> Double {
        var x = x
        var hx = UInt32(truncatingIfNeeded: x.bitPattern >> 32)
        let xsb = Int(hx >> 31)
        hx &= 0x7FFF_FFFF
        var hi = 0.0, lo = 0.0
        var k: Int32 = 0

        if hx >= 0x4086_2E42 {  // |x| >= 709.78...
            if hx >= 0x7FF0_0000 {
                if (hx & 0xF_FFFF) | low(x) != 0 { return x + x }  // NaN
                return xsb == 0 ? x : 0.0                          // exp(±inf) = inf, 0
            }
            if x > expOverflow { return huge * huge }
            if x < expUnderflow { return twom1000 * twom1000 }
        }

        // Argument reduction: x = k·ln2 + r, |r| <= 0.5·ln2, r held as hi − lo.
        if hx > 0x3FD6_2E42 {
            if hx < 0x3FF0_A2B2 {
                if x == 1.0 { return e }  // V8's special case: the reduction below misses exp(1)'s last bit
                hi = x - ln2HI[xsb]
                lo = ln2LO[xsb]
                k = Int32(1 - xsb - xsb)
            } else {
                k = Int32(invln2 * x + halF[xsb])  // truncation toward zero, as C's int conversion
                let t = Double(k)
                hi = x - t * ln2HI[0]
                lo = t * ln2LO[0]
            }
            x = hi - lo
        } else if hx < 0x3E30_0000 {  // |x| < 2^-28
            if huge + x > 1.0 { return 1.0 + x }
        } else {
            k = 0
        }

        let t = x * x
        let twopk: Double
        if k >= -1021 {
            twopk = words(0x3FF0_0000 &+ Int32(bitPattern: UInt32(bitPattern: k) << 20), 0)
        } else {
            twopk = words(0x3FF0_0000 &+ Int32(bitPattern: UInt32(bitPattern: k + 1000) << 20), 0)
        }
        let c = x - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))))
        if k == 0 { return 1.0 - ((x * c) / (c - 2.0) - x) }
        let y = 1.0 - ((lo - (x * c) / (2.0 - c)) - hi)
        if k >= -1021 {
            if k == 1024 { return y * 2.0 * two1023 }
            return y * twopk
        }
        return y * twopk * twom1000
    }

    // MARK: log

    static let two54 = bits(0x4350_0000_0000_0000)
    static let Lg1 = bits(0x3FE5_5555_5555_5593)
    static let Lg2 = bits(0x3FD9_9999_9997_FA04)
    static let Lg3 = bits(0x3FD2_4924_9422_9359)
    static let Lg4 = bits(0x3FCC_71C5_1D8E_78AF)
    static let Lg5 = bits(0x3FC7_4664_96CB_03DE)
    static let Lg6 = bits(0x3FC3_9A09_D078_C69F)
    static let Lg7 = bits(0x3FC2_F112_DF3E_5244)

    /// `Math.log(x)`: fdlibm's __ieee754_log as V8 11.3 ships it (later V8 moved to LLVM's libc).
    public static func log(_ x: Double) -> Double {
        var x = x
        var hx = high(x)
        let lx = low(x)
        var k: Int32 = 0
        if hx < 0x0010_0000 {  // x < 2^-1022
            if (hx & 0x7FFF_FFFF) | Int32(bitPattern: lx) == 0 { return -Double.infinity }  // log(±0)
            if hx < 0 { return .nan }                                                     // log(negative)
            k -= 54
            x *= two54  // subnormal: scale up
            hx = high(x)
        }
        if hx >= 0x7FF0_0000 { return x + x }
        k += (hx >> 20) - 1023
        hx &= 0x000F_FFFF
        var i = (hx &+ 0x95F64) & 0x10_0000
        x = withHigh(x, hx | (i ^ 0x3FF0_0000))  // normalize x or x/2
        k += i >> 20
        let f = x - 1.0
        let ln2Hi = ln2HI[0], ln2Lo = ln2LO[0]
        if (0x000F_FFFF & (2 &+ hx)) < 3 {  // -2^-20 <= f < 2^-20
            if f == 0 {
                if k == 0 { return 0 }
                let dk = Double(k)
                return dk * ln2Hi + dk * ln2Lo
            }
            let r = f * f * (0.5 - 0.33333333333333333 * f)
            if k == 0 { return f - r }
            let dk = Double(k)
            return dk * ln2Hi - ((r - dk * ln2Lo) - f)
        }
        let s = f / (2.0 + f)
        let dk = Double(k)
        let z = s * s
        i = hx &- 0x6147A
        let w = z * z
        let j = 0x6B851 &- hx
        let t1 = w * (Lg2 + w * (Lg4 + w * Lg6))
        let t2 = z * (Lg1 + w * (Lg3 + w * (Lg5 + w * Lg7)))
        i |= j
        let r = t2 + t1
        if i > 0 {
            let hfsq = 0.5 * f * f
            if k == 0 { return f - (hfsq - s * (hfsq + r)) }
            return dk * ln2Hi - ((hfsq - (s * (hfsq + r) + dk * ln2Lo)) - f)
        }
        if k == 0 { return f - s * (f - r) }
        return dk * ln2Hi - ((s * (f - r) - dk * ln2Lo) - f)
    }

    // MARK: pow

    static let bp = [1.0, 1.5]
    static let dpH = [0.0, bits(0x3FE2_B803_4000_0000)]  // log2(1.5) high
    static let dpL = [0.0, bits(0x3E4C_FDEB_43CF_D006)]  // log2(1.5) tail
    static let two53 = bits(0x4340_0000_0000_0000)
    static let L1 = bits(0x3FE3_3333_3333_3303)
    static let L2 = bits(0x3FDB_6DB6_DB6F_ABFF)
    static let L3 = bits(0x3FD5_5555_518F_264D)
    static let L4 = bits(0x3FD1_7460_A91D_4101)
    static let L5 = bits(0x3FCD_864A_93C9_DB65)
    static let L6 = bits(0x3FCA_7E28_4A45_4EEF)
    static let lg2 = bits(0x3FE6_2E42_FEFA_39EF)
    static let lg2H = bits(0x3FE6_2E43_0000_0000)
    static let lg2L = bits(0xBE20_5C61_0CA8_6C39)
    static let ovt = 8.0085662595372944372e-17             // -(1024 - log2(ovfl + .5ulp))
    static let cp = bits(0x3FEE_C709_DC3A_03FD)           // 2/(3·ln2)
    static let cpH = bits(0x3FEE_C709_E000_0000)
    static let cpL = bits(0xBE3E_2FE0_145B_01F5)
    static let ivln2 = bits(0x3FF7_1547_652B_82FE)
    static let ivln2H = bits(0x3FF7_1547_6000_0000)
    static let ivln2L = bits(0x3E54_AE0B_F85D_DF44)

    /// `Math.pow(x, 2)`: fdlibm answers `x * x` for every x once y is 2 (NaN and infinities included), so the
    /// squares dash.js takes skip ``pow(_:_:)``'s other tests.
    @inline(__always)
    public static func square(_ x: Double) -> Double { x * x }

    /// `Math.pow(x, y)`: fdlibm's __ieee754_pow as V8 ships it (`legacy::pow`), ±1 ** ±inf being NaN as in JS.
    public static func pow(_ x: Double, _ y: Double) -> Double {
        let hx = high(x), hy = high(y)
        let lx = low(x), ly = low(y)
        var ix = hx & 0x7FFF_FFFF
        let iy = hy & 0x7FFF_FFFF

        if iy | Int32(bitPattern: ly) == 0 { return 1.0 }  // x ** 0
        if ix > 0x7FF0_0000 || (ix == 0x7FF0_0000 && lx != 0) || iy > 0x7FF0_0000 || (iy == 0x7FF0_0000 && ly != 0) {
            return x + y  // NaN
        }

        // yisint: 0 y not an integer, 1 odd integer, 2 even integer (only needed when x < 0).
        var yisint: Int32 = 0
        if hx < 0 {
            if iy >= 0x4340_0000 {
                yisint = 2
            } else if iy >= 0x3FF0_0000 {
                let k = (iy >> 20) - 0x3FF
                if k > 20 {
                    let j = ly >> UInt32(52 - k)
                    if j << UInt32(52 - k) == ly { yisint = 2 - Int32(j & 1) }
                } else if ly == 0 {
                    let j = iy >> (20 - k)
                    if j << (20 - k) == iy { yisint = 2 - (j & 1) }
                }
            }
        }

        if ly == 0 {
            if iy == 0x7FF0_0000 {  // y is ±inf
                if (ix &- 0x3FF0_0000) | Int32(bitPattern: lx) == 0 { return y - y }  // ±1 ** ±inf is NaN
                if ix >= 0x3FF0_0000 { return hy >= 0 ? y : 0.0 }
                return hy < 0 ? -y : 0.0
            }
            if iy == 0x3FF0_0000 { return hy < 0 ? 1.0 / x : x }
            if hy == 0x4000_0000 { return x * x }
            if hy == 0x3FE0_0000 && hx >= 0 { return x.squareRoot() }
        }

        var ax = Swift.abs(x)
        if lx == 0 && (ix == 0x7FF0_0000 || ix == 0 || ix == 0x3FF0_0000) {  // x is ±0, ±inf, ±1
            var z = ax
            if hy < 0 { z = 1.0 / z }
            if hx < 0 {
                if (ix &- 0x3FF0_0000) | yisint == 0 {
                    z = .nan  // (-1) ** non-integer
                } else if yisint == 1 {
                    z = -z
                }
            }
            return z
        }

        var n = (hx >> 31) + 1
        if n | yisint == 0 { return .nan }  // negative ** non-integer
        var s = 1.0
        if n | (yisint - 1) == 0 { s = -1.0 }  // negative ** odd integer

        var t1: Double, t2: Double
        if iy > 0x41E0_0000 {  // |y| > 2^31
            if iy > 0x43F0_0000 {  // |y| > 2^64: must over- or underflow
                if ix <= 0x3FEF_FFFF { return hy < 0 ? huge * huge : tiny * tiny }
                if ix >= 0x3FF0_0000 { return hy > 0 ? huge * huge : tiny * tiny }
            }
            if ix < 0x3FEF_FFFF { return hy < 0 ? s * huge * huge : s * tiny * tiny }
            if ix > 0x3FF0_0000 { return hy > 0 ? s * huge * huge : s * tiny * tiny }
            // |1 − x| <= 2^-20: log(x) by x − x²/2 + x³/3 − x⁴/4.
            let t = ax - 1.0
            let w = (t * t) * (0.5 - t * (0.3333333333333333333333 - t * 0.25))
            let u = ivln2H * t
            let v = t * ivln2L - w * ivln2
            t1 = withLowZero(u + v)
            t2 = v - (t1 - u)
        } else {
            n = 0
            if ix < 0x0010_0000 {  // subnormal x
                ax *= two53
                n -= 53
                ix = high(ax)
            }
            n += (ix >> 20) - 0x3FF
            let j = ix & 0x000F_FFFF
            ix = j | 0x3FF0_0000
            var k = 0
            if j <= 0x3988E {
                k = 0  // |x| < sqrt(3/2)
            } else if j < 0xBB67A {
                k = 1  // |x| < sqrt(3)
            } else {
                k = 0
                n += 1
                ix -= 0x0010_0000
            }
            ax = withHigh(ax, ix)

            // ss = s_h + s_l = (x − 1)/(x + 1) or (x − 1.5)/(x + 1.5)
            var u = ax - bp[k]
            var v = 1.0 / (ax + bp[k])
            let ss = u * v
            let sH = withLowZero(ss)
            var tH = words(((ix >> 1) | 0x2000_0000) + 0x0008_0000 + (Int32(k) << 18), 0)
            var tL = ax - (tH - bp[k])
            let sL = v * ((u - sH * tH) - sH * tL)
            // log(ax)
            var s2 = ss * ss
            var r = s2 * s2 * (L1 + s2 * (L2 + s2 * (L3 + s2 * (L4 + s2 * (L5 + s2 * L6)))))
            r += sL * (sH + ss)
            s2 = sH * sH
            tH = withLowZero(3.0 + s2 + r)
            tL = r - ((tH - 3.0) - s2)
            u = sH * tH
            v = sL * tH + tL * ss
            let pH = withLowZero(u + v)
            let pL = v - (pH - u)
            let zH = cpH * pH
            let zL = cpL * pH + pL * cp + dpL[k]
            // log2(ax) = n + dp_h + z_h + z_l
            let t = Double(n)
            t1 = withLowZero(((zH + zL) + dpH[k]) + t)
            t2 = zL - (((t1 - t) - dpH[k]) - zH)
        }

        // (y1 + y2)·(t1 + t2), y1 being y's high 32 bits
        let y1 = withLowZero(y)
        let pL = (y - y1) * t1 + y * t2
        var pH = y1 * t1
        var z = pL + pH
        var j = high(z)
        let i = Int32(bitPattern: low(z))
        if j >= 0x4090_0000 {  // z >= 1024
            if (j &- 0x4090_0000) | i != 0 { return s * huge * huge }
            if pL + ovt > z - pH { return s * huge * huge }
        } else if j & 0x7FFF_FFFF >= 0x4090_CC00 {  // z <= -1075
            if (UInt32(bitPattern: j) &- 0xC090_CC00) | UInt32(bitPattern: i) != 0 { return s * tiny * tiny }
            if pL <= z - pH { return s * tiny * tiny }
        }

        // 2^(p_h + p_l)
        let ia = j & 0x7FFF_FFFF
        var k = (ia >> 20) - 0x3FF
        n = 0
        if ia > 0x3FE0_0000 {  // |z| > 0.5: n = [z + 0.5]
            n = j &+ (0x0010_0000 >> (k + 1))
            k = ((n & 0x7FFF_FFFF) >> 20) - 0x3FF
            let t = words(n & ~(0x000F_FFFF >> k), 0)
            n = ((n & 0x000F_FFFF) | 0x0010_0000) >> (20 - k)
            if j < 0 { n = -n }
            pH -= t
        }
        let t = withLowZero(pL + pH)
        let u = t * lg2H
        let v = (pL - (t - pH)) * lg2 + t * lg2L
        z = u + v
        let w = v - (z - u)
        let tt = z * z
        let r1 = z - tt * (P1 + tt * (P2 + tt * (P3 + tt * (P4 + tt * P5))))
        let r = (z * r1) / ((r1 - 2.0) - (w + z * w))
        z = 1.0 - (r - z)
        j = high(z) &+ Int32(bitPattern: UInt32(bitPattern: n) << 20)
        if j >> 20 <= 0 {
            z = scalbn(z, n)  // subnormal result
        } else {
            z = withHigh(z, j)
        }
        return s * z
    }

    /// z·2^n with one rounding, as scalbn does; z is normal here.
    static func scalbn(_ z: Double, _ n: Int32) -> Double {
        let hz = high(z)
        let k = ((hz & 0x7FF0_0000) >> 20) + n
        if k > 0x7FE { return huge * (z < 0 ? -huge : huge) }
        if k > 0 { return withHigh(z, (hz & Int32(bitPattern: 0x800F_FFFF)) | (k << 20)) }
        if k <= -54 { return tiny * (z < 0 ? -tiny : tiny) }
        return withHigh(z, (hz & Int32(bitPattern: 0x800F_FFFF)) | ((k + 54) << 20)) * bits(0x3C90_0000_0000_0000)  // 2^-54
    }
}
