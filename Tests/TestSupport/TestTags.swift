import Testing

/// The tags that select subsets of the suite. Every suite carries its target's tag (`core`,
/// `lua`, `compare`, `capi` or `cli`) and ``TagSelection`` (`.selectedByTags`); `ABRLAB_TEST_TAGS=lua,golden swift
/// test` runs only tests carrying one of the named tags, `ABRLAB_SKIP_TAGS=datasets,scale` every
/// test but those. `scripts/test --tags` and `--skip-tags` set them, and also take `notebooks`,
/// `slurm`, `python` and `fuzz` for the suite's steps that are not Swift tests.
extension Tag {
    /// The Swift core (`ABRLabTests`).
    @Tag public static var core: Self
    /// Needs the public datasets in `../shared/datasets` (skipped when they are absent).
    @Tag public static var datasets: Self
    /// Compares abrlab's numbers with a reference system's (Pensieve, Sabre, dash.js, numpy).
    @Tag public static var reference: Self
    /// The command-line tool, run in process or launched (`abrlabTests`).
    @Tag public static var cli: Self
    /// The C interface the Python package loads (`ABRLabCTests`).
    @Tag public static var capi: Self
    /// The compare pipeline through the library (`ABRLabCompareTests`).
    @Tag public static var compare: Self
    /// Compares a command's output with a golden file in `Tests/abrlabTests/Golden`.
    @Tag public static var golden: Self
    /// Runs Lua scripts through the bridge.
    @Tag public static var lua: Self
    /// Large inputs, memory bounds and full-set sweeps: seconds to tens of seconds each.
    @Tag public static var scale: Self
    /// Replays inputs the fuzzers found (the fuzzers themselves run from `scripts/fuzz`).
    @Tag public static var fuzz: Self
}
