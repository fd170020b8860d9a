/// Per-session seeds that depend only on the experiment seed and the session's names, never on
/// which worker ran the session or when.
public enum SessionSeed {
    public static func derive(seed: UInt64, strategyID: String, traceName: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ seed
        for byte in strategyID.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        hash = (hash ^ 0xff) &* 0x0000_0100_0000_01B3
        for byte in traceName.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return mix(hash)
    }

    /// SplitMix64's finaliser, to spread FNV's low-entropy high bits.
    public static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
