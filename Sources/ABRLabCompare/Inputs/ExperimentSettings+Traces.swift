import ABRLab
import ABRLabFormats
import ABRLabSettings

extension ExperimentSettings {
    /// How traces are read: the format override and the Mahimahi bin width.
    public func traceSetResolver() throws(InputError) -> TraceSetResolver {
        try check(.mahimahiBinMs, .traceFormat)
        return TraceSetResolver(format: try resolveTraceFormat(), options: TraceLoadOptions(mahimahiBinMilliseconds: mahimahiBinMilliseconds))
    }
}
