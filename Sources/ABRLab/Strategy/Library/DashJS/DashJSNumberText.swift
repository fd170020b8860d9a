// JavaScript's Number::toString (ECMA-262 §6.1.6.1.20), so numbers print and round-trip as dash.js's
// harness prints them: shortest digits, plain up to 1e21, exponent below 1e-6.

enum DashJSNumberText {
    static func javaScript(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        if value == 0 { return "0" }
        if value < 0 { return "-" + javaScript(-value) }
        // Swift's description holds the same shortest round-trip digits, in its own layout.
        let text = "\(value)"
        let parts = text.split(separator: "e", maxSplits: 1)
        let exponent = parts.count == 2 ? Int(parts[1])! : 0
        let mantissa = parts[0].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let integral = String(mantissa[0])
        let fraction = mantissa.count == 2 ? String(mantissa[1]) : ""
        var digits = Array(integral + fraction)
        var point = integral.count + exponent
        while digits.first == "0" { digits.removeFirst(); point -= 1 }
        while digits.last == "0" { digits.removeLast() }
        let k = digits.count
        let n = point
        let all = String(digits)
        if k <= n && n <= 21 { return all + String(repeating: "0", count: n - k) }
        if 0 < n && n <= 21 { return String(digits[0..<n]) + "." + String(digits[n...]) }
        if -6 < n && n <= 0 { return "0." + String(repeating: "0", count: -n) + all }
        let e = n - 1
        let sign = e < 0 ? "-" : "+"
        let head = k == 1 ? all : String(digits[0]) + "." + String(digits[1...])
        return head + "e" + sign + String(abs(e))
    }
}
